package org.softrnic.cli.demo;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.Mad;
import org.softrnic.wire.mad.RejReason;
import org.softrnic.wire.packet.RocePacket;

/** A packet to QP1 that carries a CM message: what the ladder names it, the fields it shows, the line beside it. */
final class CmStep {
    private CmStep() {
    }

    /** The 256-byte MAD of a UD datagram to QP1 that holds a CM message, or null. */
    static MemorySegment mad(RocePacket p) {
        if (p == null || p.deth() == null || p.bth().dqpn() != 1) return null;
        byte[] payload = p.payload();
        if (payload == null || payload.length < Mad.SIZE) return null;
        MemorySegment m = MemorySegment.ofArray(payload).asSlice(0, Mad.SIZE);
        return Mad.cmMessage(m) == null ? null : m;
    }

    static CmMessage message(RocePacket p) {
        MemorySegment m = mad(p);
        return m == null ? null : Mad.cmMessage(m);
    }

    /** What sets a retransmission apart from a new message: the same message with the same TID. */
    static String identity(RocePacket p) {
        MemorySegment m = mad(p);
        return m == null ? null : Mad.cmMessage(m) + "/" + Long.toHexString(Mad.TID.get(m));
    }

    private static long get(CmMessage msg, MemorySegment m, String field) {
        return msg.field(field).get(m);
    }

    /** The fields a reader of the handshake follows, in a few words. */
    static String fields(RocePacket p) {
        MemorySegment m = mad(p);
        CmMessage msg = Mad.cmMessage(m);
        String ids = msg == CmMessage.REQ ? String.format("comm_id=0x%08x", get(msg, m, "local_comm_id"))
                : msg == CmMessage.SIDR_REQ || msg == CmMessage.SIDR_REP ? String.format("request_id=0x%08x", get(msg, m, "request_id"))
                : String.format("comm_id=0x%08x remote=0x%08x", get(msg, m, "local_comm_id"), get(msg, m, "remote_comm_id"));
        String more = switch (msg) {
            case REQ -> String.format(" service_id=0x%016x qpn=0x%x starting_psn=%d RR/ID=%d/%d mtu_code=%d retry=%d rnr_retry=%d",
                    get(msg, m, "service_id"), get(msg, m, "local_qpn"), get(msg, m, "starting_psn"),
                    get(msg, m, "responder_resources"), get(msg, m, "initiator_depth"), get(msg, m, "path_mtu"),
                    get(msg, m, "retry_count"), get(msg, m, "rnr_retry_count"));
            case REP -> String.format(" qpn=0x%x starting_psn=%d RR/ID=%d/%d target_ack_delay=%d rnr_retry=%d",
                    get(msg, m, "local_qpn"), get(msg, m, "starting_psn"), get(msg, m, "responder_resources"),
                    get(msg, m, "initiator_depth"), get(msg, m, "target_ack_delay"), get(msg, m, "rnr_retry_count"));
            case REJ -> " reason=" + RejReason.describe((int) get(msg, m, "reason"));
            case MRA -> " service_timeout=" + get(msg, m, "service_timeout");
            case DREQ -> String.format(" remote_qpn=0x%x", get(msg, m, "remote_qpn"));
            default -> "";
        };
        return String.format("MAD CM %s tid=0x%016x  %s%s", msg, Mad.TID.get(m), ids, more);
    }

    /** The line beside the packet. */
    static String note(RocePacket p, String from, String to) {
        MemorySegment m = mad(p);
        CmMessage msg = Mad.cmMessage(m);
        return switch (msg) {
            case REQ -> String.format("REQ on QP1: %s's CM asks %s's to connect QP 0x%x to port %d; %s's QP will expect PSN %d",
                    from, to, get(msg, m, "local_qpn"), get(msg, m, "service_id") & 0xffff, from, get(msg, m, "starting_psn"));
            case REP -> String.format("REP: %s accepts; its QP 0x%x is in RTS and expects PSN %d; %s moves its QP to RTR and RTS",
                    from, get(msg, m, "local_qpn"), get(msg, m, "starting_psn"), to);
            case RTU -> "RTU, ready to use: " + to + "'s side is ESTABLISHED too (RDMA_CM_EVENT_ESTABLISHED)";
            case MRA -> "MRA: " + from + " needs longer; " + to + "'s CM waits its service timeout before sending again";
            case REJ -> "REJ: " + from + " refuses, reason " + RejReason.describe((int) get(msg, m, "reason"))
                    + "; " + to + " hears RDMA_CM_EVENT_REJECTED";
            case DREQ -> "DREQ: " + from + "'s QP is in ERROR and it disconnects; " + to + " hears RDMA_CM_EVENT_DISCONNECTED";
            case DREP -> "DREP: the disconnect is answered; both sides wait out timewait before the IDs are free";
            case SIDR_REQ -> "SIDR_REQ: " + from + " asks which UD QP serves the port";
            case SIDR_REP -> "SIDR_REP: the UD QP and Q_Key that serve it";
        };
    }
}
