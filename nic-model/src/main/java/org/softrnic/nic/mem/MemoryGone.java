package org.softrnic.nic.mem;

/**
 * A region's memory went away while data moved through it: its arena was closed by another thread between the
 * region's check and the copy. The role that moved the data turns it into the error a protection check gives.
 */
public final class MemoryGone extends RuntimeException {
    private final transient MemoryRegion region;
    /** The scatter/gather entry that reached it, or -1 when the access came by rkey. */
    private final int sge;

    MemoryGone(MemoryRegion region, int sge, RuntimeException cause) {
        super(region + ": its memory is gone (" + cause.getMessage() + ")", cause, false, false);
        this.region = region;
        this.sge = sge;
    }

    public MemoryRegion region() {
        return region;
    }

    public int sge() {
        return sge;
    }
}
