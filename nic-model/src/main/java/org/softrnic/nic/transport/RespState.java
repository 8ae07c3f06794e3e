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
    /**
     * max_dest_rd_atomic slots. The array is made when a READ or atomic first needs one, and a slot's record
     * when it is first taken (null before): a QP that never serves one does not carry them.
     */
    ReadAtomicResource[] resources = NONE;
    /** The slots modify_qp asked for. */
    private int resourceSlots = 1;
    int nextResource;
    private static final ReadAtomicResource[] NONE = new ReadAtomicResource[0];

    void sizeResources(int maxDestRdAtomic) {
        resources = NONE;
        resourceSlots = Math.max(1, maxDestRdAtomic);
        nextResource = 0;
    }

    /** The next slot in turn, its record made if it has none yet. */
    ReadAtomicResource nextResource() {
        if (resources.length == 0) resources = new ReadAtomicResource[resourceSlots];
        ReadAtomicResource r = resources[nextResource];
        if (r == null) resources[nextResource] = r = new ReadAtomicResource();
        nextResource = (nextResource + 1) % resources.length;
        return r;
    }
}
