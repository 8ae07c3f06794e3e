package org.softrnic.verbs;

/**
 * struct ibv_recv_wr, mutable and reusable: posting copies it, so a loop may post one object again and again
 * and allocate nothing.
 */
public final class RecvWr {
    /** The caller's tag, returned in the completion's {@link WorkCompletion#wrId} (wr_id). */
    public long wrId;
    /** The scatter list: the first {@link #numSge} entries are where an incoming SEND's bytes land, in order. */
    public final Sge[] sgList;
    /** How many of {@link #sgList}'s entries the request uses (num_sge); 0 takes a message of zero bytes. */
    public int numSge;

    /**
     * A request with room for {@code maxSge} scatter entries, all allocated now (none at post).
     *
     * @param maxSge the capacity of {@link #sgList}; posting more than the QP's {@link QpCaps#maxRecvSge} is EINVAL
     */
    public RecvWr(int maxSge) {
        sgList = new Sge[maxSge];
        for (int i = 0; i < maxSge; i++) sgList[i] = new Sge();
    }

    /** A request with room for 4 scatter entries, as {@link QpCaps#of(int, int)} allows. */
    public RecvWr() {
        this(4);
    }

    /**
     * Makes one SGE the request's whole scatter list.
     *
     * @param addr   the buffer's virtual address, inside a region registered with {@code lkey}
     * @param length the buffer's length in bytes
     * @param lkey   the region's local key ({@link MemoryRegion#lkey()})
     * @return this request
     */
    public RecvWr sge(long addr, int length, int lkey) {
        sgList[0].set(addr, length, lkey);
        numSge = 1;
        return this;
    }
}
