package org.softrnic.nic.qp;

import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.Sge;

/** A posted receive work request, copied into a preallocated slot. */
public final class RecvWqe {
    public long wrId;
    public final Sge[] sges;
    /** The region each SGE lies in, resolved and checked when the responder takes the WQE. */
    public final MemoryRegion[] sgeMrs;
    public int numSge;
    public long length;

    public RecvWqe(int maxSge) {
        sges = new Sge[maxSge];
        for (int i = 0; i < maxSge; i++) sges[i] = new Sge();
        sgeMrs = new MemoryRegion[maxSge];
    }

    public void copyFrom(RecvWr wr) {
        wrId = wr.wrId;
        numSge = wr.numSge;
        length = 0;
        for (int i = 0; i < wr.numSge; i++) {
            sges[i].copyFrom(wr.sgList[i]);
            length += Integer.toUnsignedLong(wr.sgList[i].length);
        }
    }
}
