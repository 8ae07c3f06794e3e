package org.softrnic.nic.qp;

import org.softrnic.verbs.RecvWr;

/** A posted receive work request, copied into a preallocated slot. */
public final class RecvWqe extends Wqe {
    public long length;

    public RecvWqe(int maxSge) {
        super(maxSge);
    }

    public void copyFrom(RecvWr wr) {
        wrId = wr.wrId;
        length = copySges(wr.sgList, wr.numSge);
    }

    /** Copies another entry (an SRQ's, taken by a QP); this one has room for its SGEs. */
    public void copyFrom(RecvWqe o) {
        copySges(o);
        length = o.length;
    }
}
