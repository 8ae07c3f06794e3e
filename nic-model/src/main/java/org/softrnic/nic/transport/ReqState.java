package org.softrnic.nic.transport;

/** The requester's state of one QP (rxe's qp->req). */
final class ReqState {
    /** The next PSN to send. */
    int psn;
    /** Index, from the send queue's head, of the next WQE the requester works on. */
    int index;
    /** Packets sent since the last AckReq; rxe asks for an ACK at least every RXE_MAX_PKT_PER_ACK. */
    int noAckPackets;
    int outstandingReadAtomic;
    /**
     * How many WQEs from the send queue's head the requester has started (sent some of) and the completer not
     * yet retired. In SQD only these are served, retransmissions included (rxe's req state DRAIN).
     */
    int started;
    /** SQD: the drain finished and IBV_EVENT_SQ_DRAINED was dealt with. */
    boolean drained;
}
