package org.softrnic.nic.mem;

/** A protection domain: MRs, MWs, QPs, SRQs and AHs in it may only be used together. */
public final class ProtectionDomain {
    private final int handle;
    private int users;
    private boolean closed;

    public ProtectionDomain(int handle) {
        this.handle = handle;
    }

    public int handle() {
        return handle;
    }

    /** Objects that still belong to this PD; deallocation fails with EBUSY while this is not zero. */
    public int users() {
        return users;
    }

    public void attach() {
        users++;
    }

    public void detach() {
        users--;
    }

    public boolean closed() {
        return closed;
    }

    public void markClosed() {
        closed = true;
    }

    @Override
    public String toString() {
        return "PD#" + handle;
    }
}
