package org.softrnic.nic.transport;

import org.softrnic.nic.qp.RecvWqe;

/**
 * The responder's state of one QP (rxe's qp->resp) that a request to memory does not read: the receive WQE in
 * progress and the READ and atomic resources. What every request reads lies in the context's line ({@link RespLine}).
 */
final class RespState {
    RecvWqe wqe;
    /** IBV_EVENT_QP_LAST_WQE_REACHED was raised for this QP's SRQ (once per entry into ERR). */
    boolean lastWqeReached;
    boolean wqeFromSrq;
    /** Where a WQE taken from an SRQ is kept, since its ring slot is free for reuse at once. */
    RecvWqe srqCopy;
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
