package org.softrnic.cli.demo;

import org.softrnic.wire.Opcode;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.packet.RocePacket;

/**
 * The line of explanation beside each packet, from what the opcode table says about it (its class and its
 * place in the message) and, for acknowledgements, from the AETH: no second list of opcodes.
 */
final class StepNotes {
    private StepNotes() {
    }

    static String of(WireStep s) {
        RocePacket p = s.packet();
        if (p == null) return s.refused() != null ? s.refused() : "not a RoCE packet";
        String note = explanation(s);
        if (s.again() != null) note = s.again().words + ": " + note;
        if (s.dropped()) note = note + "; LOST on the wire";
        if (s.refused() != null) note = "REFUSED, " + s.refused() + "; it would have been: " + note;
        return note;
    }

    /** What the packet does, without what happened to it: the part of the note a reader needs once. */
    static String explanation(WireStep s) {
        RocePacket p = s.packet();
        if (p == null) return of(s);
        boolean cm = CmStep.mad(p) != null;
        String note = cm ? CmStep.note(p, s.from(), s.to()) : base(s, p);
        if (!cm && p.bth().opcode().transport() == org.softrnic.wire.Transport.UD) note += "; UD sends no ACK back: nothing tells the sender it arrived";
        return note;
    }

    /** What happened to the packet (sent again, lost, refused), or "" when nothing did: said on every row. */
    static String events(WireStep s) {
        if (s.packet() == null) return of(s);
        java.util.List<String> e = new java.util.ArrayList<>();
        if (s.again() != null) e.add(s.again().words);
        if (s.dropped()) e.add("LOST on the wire");
        if (s.refused() != null) e.add("REFUSED, " + s.refused());
        return String.join("; ", e);
    }

    private static String base(WireStep s, RocePacket p) {
        Opcode op = p.bth().opcode();
        String to = s.to();
        String imm = op.hasImmediate() ? ", with 4 bytes of immediate data for " + to + "'s completion" : "";
        return switch (op.opClass) {
            case SEND -> switch (op.position) {
                case FIRST -> "first packet of a SEND: " + to + " puts it in its next posted receive";
                case MIDDLE -> "middle packet of the SEND: one MTU of data";
                case LAST -> "last packet of the SEND: " + to + "'s receive completes" + imm;
                case ONLY -> "a SEND in one packet: it uses up one receive at " + to + imm;
            };
            case RDMA_WRITE -> switch (op.position) {
                case FIRST -> "first packet of a WRITE: the RETH names " + to + "'s memory (address, rkey, length)";
                case MIDDLE -> "middle packet of the WRITE: one MTU of data, placed after the previous one";
                case LAST -> "last packet of the WRITE" + (op.hasImmediate() ? ": it also uses up a receive at " + to + imm : "");
                case ONLY -> "a WRITE in one packet: RETH (where) and data; " + to + "'s CPU is not involved"
                        + (op.hasImmediate() ? ", but a receive is used up" + imm : "");
            };
            case RDMA_READ_REQUEST -> "READ request: asks " + to + " for the bytes the RETH names; no data goes this way";
            case RDMA_READ_RESPONSE -> switch (op.position) {
                case FIRST -> "first packet of the READ's answer; its AETH also acknowledges";
                case MIDDLE -> "middle packet of the READ's answer";
                case LAST -> "last packet of the READ's answer: " + to + "'s READ completes";
                case ONLY -> "the READ's answer in one packet: " + to + "'s READ completes";
            };
            case ACKNOWLEDGE -> ack(p.aeth(), p.bth().psn(), to);
            case ATOMIC_ACKNOWLEDGE -> "atomic ACK: returns the value the 8 bytes held before (AtomicAckETH)";
            case ATOMIC -> op == Opcode.RC_COMPARE_SWAP
                    ? "compare-and-swap on 8 bytes of " + to + "'s memory, done by " + to + "'s NIC in one step"
                    : "fetch-and-add on 8 bytes of " + to + "'s memory, done by " + to + "'s NIC in one step";
            case FLUSH -> "FLUSH: makes earlier writes visible at " + to;
            case ATOMIC_WRITE -> "ATOMIC WRITE: 8 bytes placed as one unit";
            case CNP -> "congestion notification: slow down";
            case RESYNC -> "RD resync";
        };
    }

    private static String ack(Aeth aeth, int psn, String to) {
        return switch (aeth.type()) {
            case ACK -> String.format("ACK: everything up to PSN %d arrived; %s completes what it covers", psn, to);
            case RNR_NAK -> "RNR NAK: not ready (no receive posted, or a page fault being served); " + to + " waits the RNR timer,"
                    + " then sends again";
            case NAK -> switch (aeth.nakCode()) {
                case PSN_SEQUENCE_ERROR -> String.format("NAK sequence error: PSN %d is the one expected, and what came after the gap"
                        + " is dropped; %s goes back and resends from it", psn, to);
                case REMOTE_ACCESS_ERROR -> "NAK remote access error: the rkey or range check failed; " + to
                        + " completes with IBV_WC_REM_ACCESS_ERR and its QP goes to ERR";
                case INVALID_REQUEST -> "NAK invalid request: " + to + " completes with IBV_WC_REM_INV_REQ_ERR";
                case REMOTE_OPERATIONAL_ERROR -> "NAK remote operational error: " + to + " completes with IBV_WC_REM_OP_ERR";
                case null, default -> "NAK " + aeth.describe();
            };
            case RESERVED -> "reserved AETH syndrome";
        };
    }
}
