package org.softrnic.nic.transport;

import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameView;
import org.softrnic.wire.packet.RocePacketView;

/**
 * The packet a responder or completer step works on, with what the steps learn about it (rxe's struct
 * rxe_pkt_info, plus the region its rkey resolved to and the receive's status). Each role keeps one and
 * fills it per packet: nothing is allocated on the hot path.
 */
final class PacketInfo {
    private final Engine engine;
    /**
     * The QP's record: all a request needs on its common paths. The responder reads it through a cursor found by
     * QPN, and so reaches the QP's context object ({@link #ctx}) only when a step needs more; the completer's is
     * the context itself.
     */
    RespLine r;
    private QpContext c;
    private int qpn;
    FrameView frame;
    RocePacketView p;
    Opcode op;
    int psn;
    /** Payload bytes. */
    int len;
    /** The region the request's rkey resolved to (CHK_RKEY), or null. */
    MemoryRegion mr;
    /**
     * The status a failing step gives its WQE: the responder's receive (rxe's resp.status), the completer's
     * send (wqe->status).
     */
    WcStatus status;
    /** The completer's: the send WQE a response completes (COMP_ACK), and the PSN go-back-N starts from. */
    org.softrnic.nic.qp.SendWqe wqe;
    int retryPsn;

    PacketInfo(Engine engine) {
        this.engine = engine;
    }

    int qpn() {
        return qpn;
    }

    /** The QP's context, looked up by QPN the first time a step needs it. */
    QpContext ctx() {
        if (c == null) c = engine.context(qpn);
        return c;
    }

    /** A request for the QP of QPN {@code qpn}, whose record {@code line} shows. */
    PacketInfo set(RespLine line, int qpn, FrameView v) {
        this.qpn = qpn;
        set(v);
        r = line;
        c = null;
        return this;
    }

    /** A response for the QP of context {@code ctx}. */
    PacketInfo set(QpContext ctx, FrameView v) {
        qpn = ctx.qp.qpn();
        set(v);
        r = ctx;
        c = ctx;
        return this;
    }

    private void set(FrameView v) {
        frame = v;
        p = v.roce;
        op = p.opcode();
        psn = p.bth().psn();
        len = p.payloadLength();
        mr = null;
        status = WcStatus.SUCCESS;
        wqe = null;
    }

    /** Drops the references once the packet is handled (its buffer goes back to the pool). */
    void clear() {
        r = null;
        c = null;
        frame = null;
        p = null;
        mr = null;
        wqe = null;
    }

    boolean uc() {
        return r.qpType() == QpType.UC;
    }

    /** The request in words, for the refusals: "an RDMA WRITE". */
    String what() {
        return switch (op.opClass) {
            case SEND -> "a SEND";
            case RDMA_WRITE -> "an RDMA WRITE";
            case RDMA_READ_REQUEST -> "an RDMA READ";
            case ATOMIC -> "an atomic";
            case ATOMIC_WRITE -> "an ATOMIC WRITE";
            case FLUSH -> "a FLUSH";
            default -> "a request (" + op.name() + ")";
        };
    }
}
