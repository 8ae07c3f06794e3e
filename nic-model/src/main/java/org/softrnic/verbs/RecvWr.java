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
}
