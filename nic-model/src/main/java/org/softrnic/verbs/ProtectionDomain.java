package org.softrnic.verbs;

import java.lang.foreign.MemorySegment;

/** struct ibv_pd and the verbs that create objects in it. Closing it while they live is EBUSY. */
public interface ProtectionDomain extends AutoCloseable {
    RdmaContext context();

    /**
     * ibv_reg_mr over {@code segment}, with IBV_ACCESS_* flags ({@link org.softrnic.verbs.Access}). The
     * region's address (what SGEs and RETHs name) is the segment's native address; a heap segment is
     * registered zero-based.
     */
    MemoryRegion regMr(MemorySegment segment, int access);

    /** ibv_alloc_mw, type 1 or 2. */
    MemoryWindow allocMw(int type);

    /** ibv_create_srq. */
    SharedReceiveQueue createSrq(int maxWr, int maxSge, int srqLimit);

    /** ibv_create_qp. */
    QueuePair createQp(QpInitAttr init);

    /** ibv_create_ah. */
    AddressHandle createAh(AddressVector attr);

    /**
     * ibv_create_ah_from_wc: an address handle back to the sender of the datagram {@code wc} completed, from the
     * GRH area at the front of its receive buffer; the local GID is the one it was sent to, found in port
     * {@code portNum}'s table (ENOENT when it is not there, EINVAL for a completion without a GRH).
     */
    default AddressHandle createAhFromWc(WorkCompletion wc, MemorySegment grh, int portNum) {
        String verb = "ibv_create_ah_from_wc";
        if ((wc.wcFlags & WorkCompletion.WC_GRH) == 0) throw new VerbsException(verb, Errno.EINVAL, "the completion has no GRH (IBV_WC_GRH)");
        Gid local = AddressVector.grhDestination(grh);
        int n = context().queryPort(portNum).gidTblLen();
        for (int i = 0; i < n; i++) {
            Gid g;
            try {
                g = context().queryGid(portNum, i);
            } catch (VerbsException empty) {
                continue; // an empty entry: a device may refuse to read it
            }
            if (local.equals(g)) return createAh(AddressVector.fromGrh(grh, i));
        }
        throw new VerbsException(verb, Errno.ENOENT, local + " is not in port " + portNum + "'s GID table");
    }

    /** ibv_dealloc_pd. */
    @Override
    void close();
}
