package org.softrnic.nic.transport;

import java.util.HashMap;
import java.util.Map;
import org.softrnic.nic.mem.MemoryRegion;
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
    final Map<org.softrnic.nic.qp.AddressVector, FrameTemplate> udTemplates = new HashMap<>();
    int udpSourcePort;

    // requester
    int reqPsn;
    /** Index, from the send queue's head, of the next WQE the requester works on. */
    int reqIndex;
    /** Packets sent since the last AckReq; rxe asks for an ACK at least every RXE_MAX_PKT_PER_ACK. */
    int reqNoAckPackets;
    int reqOutstandingReadAtomic;

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
    /** Opcode of the last packet accepted, to check that FIRST is followed by MIDDLE or LAST. */
    Opcode respLastOpcode;
    boolean respNakSent;
    /** UC: a message lost a packet; drop until the next FIRST or ONLY. */
    boolean respUcDropping;
    RecvWqe respWqe;
    boolean respWqeFromSrq;
    /** Where a WQE taken from an SRQ is kept, since its ring slot is free for reuse at once. */
    RecvWqe srqCopy;
    long respOffset;
    // RDMA WRITE in progress
    MemoryRegion respWriteMr;
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
