package org.softrnic.nic.transport;

import java.util.HashMap;
import java.util.Map;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWqe;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameTemplate;

/**
 * One QP's transport state, split by role as in rxe's struct rxe_qp: {@code req*} for the requester,
 * {@code comp*} for the completer, {@code resp*} for the responder.
 */
final class QpContext {
    static final long NEVER = Long.MAX_VALUE;

    final QueuePair qp;
    /** Headers toward the connected peer (RC, UC); UD keeps one per destination GID. */
    FrameTemplate template;
    /** By address vector: a UD QP keeps one header template per destination it sends to. */
    final Map<org.softrnic.verbs.AddressVector, FrameTemplate> udTemplates = new HashMap<>();
    int udpSourcePort;
    /** RC/UC: the peer's GID and the local GID the QP uses; packets must come from the one to the other (rxe check_addr). */
    org.softrnic.verbs.Gid peerGid;
    org.softrnic.verbs.Gid localGid;

    // requester
    int reqPsn;
    /** Index, from the send queue's head, of the next WQE the requester works on. */
    int reqIndex;
    /** Packets sent since the last AckReq; rxe asks for an ACK at least every RXE_MAX_PKT_PER_ACK. */
    int reqNoAckPackets;
    int reqOutstandingReadAtomic;
    /**
     * How many WQEs from the send queue's head the requester has started (sent some of) and the completer not
     * yet retired. In SQD only these are served, retransmissions included (rxe's req state DRAIN).
     */
    int reqStarted;
    /** SQD: the drain finished and IBV_EVENT_SQ_DRAINED was dealt with. */
    boolean reqDrained;

    // completer
    /** The oldest PSN not yet acknowledged. */
    int compPsn;
    int compRetryLeft;
    /** A go-back-N is under way: further NAKs and out-of-order responses for the same gap are ignored. */
    boolean compRetrying;
    int compRnrRetryLeft;
    long retransmitDeadline = NEVER;
    long rnrDeadline = NEVER;
    /** PSN to restart from when the RNR timer fires. */
    int rnrRetryPsn;

    // responder
    int respPsn;
    int respMsn;
    /**
     * One past the PSN of the last SEND, WRITE or atomic executed (rxe's resp.ack_psn): a duplicate SEND or
     * WRITE is acknowledged with the PSN before it, which a READ never is, since READs do not advance it.
     */
    int respAckPsn;
    /** Opcode of the last packet accepted, to check that FIRST is followed by MIDDLE or LAST. */
    Opcode respLastOpcode;
    boolean respNakSent;
    /** UC: a message lost a packet; drop until the next FIRST or ONLY. */
    boolean respUcDropping;
    RecvWqe respWqe;
    /** IBV_EVENT_QP_LAST_WQE_REACHED was raised for this QP's SRQ (once per entry into ERR). */
    boolean lastWqeReached;
    boolean respWqeFromSrq;
    /** Where a WQE taken from an SRQ is kept, since its ring slot is free for reuse at once. */
    RecvWqe srqCopy;
    long respOffset;
    // RDMA WRITE in progress
    /** The RETH's rkey, looked up again for each later packet of the WRITE. */
    int respWriteRkey;
    long respWriteVa;
    long respWriteRemaining;
    /** The DMA length of the RDMA WRITE in progress, reported as byte_len of a WRITE with immediate. */
    long respWriteLength;
    /** max_dest_rd_atomic slots, sized when modify_qp sets it. */
    ReadAtomicResource[] respResources = new ReadAtomicResource[0];
    int respNextResource;

    QpContext(QueuePair qp) {
        this.qp = qp;
    }

    void sizeResources(int maxDestRdAtomic) {
        respResources = new ReadAtomicResource[Math.max(1, maxDestRdAtomic)];
        for (int i = 0; i < respResources.length; i++) respResources[i] = new ReadAtomicResource();
        respNextResource = 0;
    }

    boolean retransmitArmed() {
        return retransmitDeadline != NEVER;
    }
}
