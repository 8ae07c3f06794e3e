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

    /** ibv_advise_mr advice: fault the pages in for reading. */
    int ADVISE_MR_ADVICE_PREFETCH = 0;
    /** ibv_advise_mr advice: fault the pages in for writing. */
    int ADVISE_MR_ADVICE_PREFETCH_WRITE = 1;
    /** ibv_advise_mr advice: map the pages the CPU has already, without faulting. */
    int ADVISE_MR_ADVICE_PREFETCH_NO_FAULT = 2;
    /** ibv_advise_mr flag: return when the pages are mapped (synchronous). */
    int ADVISE_MR_FLAG_FLUSH = 1;

    /**
     * ibv_reg_mr(pd, NULL, SIZE_MAX, access): an implicit on-demand-paging region, one pair of keys for the process's
     * whole address space ({@code access} must hold {@link Access#ON_DEMAND}). On the soft provider its keys reach the
     * memory shown to it with {@link MemoryRegion#cover}. EOPNOTSUPP where the provider has none.
     */
    default MemoryRegion regImplicitOdpMr(int access) {
        throw new VerbsException("ibv_reg_mr", Errno.EOPNOTSUPP, "this provider has no implicit on-demand paging");
    }

    /**
     * ibv_advise_mr: {@code advice} (ADVISE_MR_ADVICE_*) for the ODP pages {@code sgList}'s entries name, with
     * {@code flags} (ADVISE_MR_FLAG_FLUSH waits until they are mapped). EFAULT for an lkey or range the PD does not hold,
     * EINVAL for a region that is not ODP or unknown flags, EOPNOTSUPP where the provider has none.
     */
    default void adviseMr(int advice, int flags, Sge... sgList) {
        throw new VerbsException("ibv_advise_mr", Errno.EOPNOTSUPP, "this provider has no ibv_advise_mr");
    }

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
