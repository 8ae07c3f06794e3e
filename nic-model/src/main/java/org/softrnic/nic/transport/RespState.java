package org.softrnic.nic.transport;

import org.softrnic.nic.qp.RecvWqe;
import org.softrnic.wire.Opcode;

/** The responder's state of one QP (rxe's qp->resp): the expected PSN, the message in progress, the resources. */
final class RespState {
    int psn;
    int msn;
    /**
     * One past the PSN of the last SEND, WRITE or atomic executed (rxe's resp.ack_psn): a duplicate SEND or
     * WRITE is acknowledged with the PSN before it, which a READ never is, since READs do not advance it.
     */
    int ackPsn;
    /** Opcode of the last packet accepted, to check that FIRST is followed by MIDDLE or LAST. */
    Opcode lastOpcode;
    boolean nakSent;
    /** UC: a message lost a packet; drop until the next FIRST or ONLY. */
    boolean ucDropping;
    RecvWqe wqe;
    /** IBV_EVENT_QP_LAST_WQE_REACHED was raised for this QP's SRQ (once per entry into ERR). */
    boolean lastWqeReached;
    boolean wqeFromSrq;
    /** Where a WQE taken from an SRQ is kept, since its ring slot is free for reuse at once. */
    RecvWqe srqCopy;
    long offset;
    // RDMA WRITE in progress
    /** The RETH's rkey, looked up again for each later packet of the WRITE. */
    int writeRkey;
    long writeVa;
    long writeRemaining;
    /** The DMA length of the RDMA WRITE in progress, reported as byte_len of a WRITE with immediate. */
    long writeLength;
    /** max_dest_rd_atomic slots, sized when modify_qp sets it. */
    ReadAtomicResource[] resources = new ReadAtomicResource[0];
    int nextResource;

    void sizeResources(int maxDestRdAtomic) {
        resources = new ReadAtomicResource[Math.max(1, maxDestRdAtomic)];
        for (int i = 0; i < resources.length; i++) resources[i] = new ReadAtomicResource();
        nextResource = 0;
    }
}
