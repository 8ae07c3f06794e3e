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

    /** ibv_dealloc_pd. */
    @Override
    void close();
}
