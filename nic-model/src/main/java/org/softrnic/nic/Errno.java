package org.softrnic.nic;

/** The errno values rdma-core's verbs return, for callers that map errors the same way. */
public enum Errno {
    EPERM(1), ENOENT(2), EAGAIN(11), ENOMEM(12), EFAULT(14), EBUSY(16), ENODEV(19), EINVAL(22), ENOSPC(28), EOPNOTSUPP(95);

    public final int value;

    Errno(int value) {
        this.value = value;
    }
}
