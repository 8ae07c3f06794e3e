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

    /** A region whose memory was freed under it: what hardware would meet as unmapped pages. */
    public static final String FREED = "the memory under its region was freed (the arena was closed) while the region was"
            + " still registered; deregister a region before freeing its memory";

    /** Why the copy failed, in a refusal's words: memory freed, or memory only one other thread may touch. */
    public String why() {
        return getCause() instanceof WrongThreadException
                ? "the memory under its region is confined to another thread, which the device cannot reach"
                : FREED;
    }

    public MemoryRegion region() {
        return region;
    }

    public int sge() {
        return sge;
    }
}
