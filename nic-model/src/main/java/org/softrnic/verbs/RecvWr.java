package org.softrnic.verbs;

/** struct ibv_recv_wr, mutable and reusable: posting copies it. */
public final class RecvWr {
    public long wrId;
    public final Sge[] sgList;
    public int numSge;

    public RecvWr(int maxSge) {
        sgList = new Sge[maxSge];
        for (int i = 0; i < maxSge; i++) sgList[i] = new Sge();
    }

    public RecvWr() {
        this(4);
    }

    /** One SGE: the request's whole scatter list, as SendWr's. */
    public RecvWr sge(long addr, int length, int lkey) {
        sgList[0].set(addr, length, lkey);
        numSge = 1;
        return this;
    }
}
