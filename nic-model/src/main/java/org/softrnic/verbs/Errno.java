package org.softrnic.verbs;

/** The errno values rdma-core's verbs return, for callers that map errors the same way. */
public enum Errno {
    EPERM(1), ENOENT(2), EINTR(4), EIO(5), ENXIO(6), EAGAIN(11), ENOMEM(12), EACCES(13), EFAULT(14), EBUSY(16),
    EEXIST(17), ENODEV(19), EINVAL(22), ENOSPC(28), ENOSYS(38), ENODATA(61), EOVERFLOW(75), EPROTONOSUPPORT(93),
    EOPNOTSUPP(95), EADDRINUSE(98), EADDRNOTAVAIL(99), ENOBUFS(105), ETIMEDOUT(110), ECONNREFUSED(111);

    private static final Errno[] BY_VALUE = new Errno[128];

    static {
        for (Errno e : values()) BY_VALUE[e.value] = e;
    }

    public final int value;

    Errno(int value) {
        this.value = value;
    }

    /** The named errno for a Linux value, or null for one this enum does not name. */
    public static Errno of(int value) {
        return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
    }
}
