package org.softrnic.nic.cm;

/**
 * What moves a CM id: a verb of the consumer (rdma_cm's), a message from the peer, or a timer. The message
 * inputs carry the CM message's name; a repeated message is the same input, and the state it meets decides
 * the answer (CmTable's duplicate rows).
 */
public enum CmInput {
    // the consumer
    SEND_REQ, SEND_MRA, SEND_REP, SEND_RTU, SEND_REJ, SEND_DREQ, SEND_DREP, SEND_SIDR_REQ, SEND_SIDR_REP, START_LISTEN, DESTROY,
    // the peer
    RECV_REQ, RECV_MRA_REQ, RECV_MRA_REP, RECV_REP, RECV_RTU, RECV_REJ, RECV_REJ_STALE, RECV_DREQ, RECV_DREP,
    RECV_SIDR_REQ, RECV_SIDR_REP,
    // the timers
    RETRIES_EXHAUSTED, TIMEWAIT_DONE
}
