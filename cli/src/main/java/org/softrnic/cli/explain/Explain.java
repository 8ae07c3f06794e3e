package org.softrnic.cli.explain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.softrnic.cli.decode.OpcodeText;
import org.softrnic.nic.cq.WcStatus;
import org.softrnic.nic.qp.QpAttrMask;
import org.softrnic.nic.qp.QpState;
import org.softrnic.nic.qp.QpTransitions;
import org.softrnic.nic.qp.QpType;
import org.softrnic.wire.HeaderKind;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.AethType;
import org.softrnic.wire.header.NakCode;

/**
 * Finds what a topic names (an opcode by name or number, an AETH syndrome, an IBV_WC_* status, a QP state, or
 * a transition between two states) and says what it means, when it happens and which header fields carry it.
 * Every answer comes from the tables the NIC itself runs on.
 */
final class Explain {
    private Explain() {
    }

    /** The explanation, or null if the topic names nothing known. */
    static List<String> of(String topic) {
        String t = topic.trim();
        String u = t.toUpperCase(Locale.ROOT).replace('-', '_');
        List<String> out;
        if ((out = transition(u)) != null) return out;
        if ((out = state(u)) != null) return out;
        if ((out = status(u)) != null) return out;
        List<String> op = opcode(u);
        List<String> syn = syndrome(u);
        if (op != null && syn != null) {
            // a bare number can be either: say both
            out = new ArrayList<>(op);
            out.add("");
            out.addAll(syn);
            return out;
        }
        return op != null ? op : syn;
    }

    private static List<String> opcode(String u) {
        Opcode op = null;
        Integer n = number(u);
        if (n != null) {
            for (Opcode o : Opcode.values()) if (o.value == n) op = o;
        } else {
            for (Opcode o : Opcode.values()) {
                if (o.name().equals(u) || o.name().equals("RC_" + u)) op = o;
            }
        }
        if (op == null) return null;
        List<String> l = new ArrayList<>();
        l.add(String.format("opcode 0x%02x %s", op.value, op.name()));
        l.add("  what:   " + OpcodeText.meaning(op));
        l.add("  when:   " + (op.opClass.request ? "a requester sends it for a work request it was posted"
                : "a responder sends it in answer to requests"));
        String headers = op.headers().stream().filter(h -> h != HeaderKind.CNP_PAD).map(Enum::name).collect(Collectors.joining(", "));
        l.add("  fields: BTH (opcode, PSN, destination QP, AckReq)" + (headers.isEmpty() ? "" : ", then " + headers)
                + (op.payload ? ", then the payload" : "") + ", then the 4-byte ICRC");
        return l;
    }

    /** An AETH syndrome: a number (0x60) or a name (ack, rnr, nak, seq, access...). */
    private static List<String> syndrome(String u) {
        Integer n = number(u);
        Aeth aeth = null;
        if (n != null && n >= 0 && n <= 0xff && u.startsWith("0X")) {
            aeth = new Aeth(n, 0);
        } else {
            aeth = switch (u) {
                case "ACK" -> Aeth.ack(Aeth.ACK_CREDITS_INVALID, 0);
                case "RNR", "RNR_NAK" -> Aeth.rnrNak(12, 0);
                case "NAK", "SEQ", "PSN_SEQUENCE_ERROR" -> Aeth.nak(NakCode.PSN_SEQUENCE_ERROR, 0);
                case "INVALID_REQUEST" -> Aeth.nak(NakCode.INVALID_REQUEST, 0);
                case "ACCESS", "REMOTE_ACCESS_ERROR" -> Aeth.nak(NakCode.REMOTE_ACCESS_ERROR, 0);
                case "REMOTE_OPERATIONAL_ERROR" -> Aeth.nak(NakCode.REMOTE_OPERATIONAL_ERROR, 0);
                default -> null;
            };
        }
        if (aeth == null) return null;
        List<String> l = new ArrayList<>();
        l.add(String.format("AETH syndrome 0x%02x: %s", aeth.syndrome(), aeth.describe()));
        l.add("  layout: bits 7-5 say what it is (000 ACK, 001 RNR NAK, 011 NAK), bits 4-0 the credits, the RNR timer"
                + " code or the NAK code; the 24-bit MSN follows (messages the responder completed)");
        l.add("  when:   " + switch (aeth.type()) {
            case ACK -> "the responder acknowledges every PSN up to the one in the BTH; the requester completes what it covers";
            case RNR_NAK -> "a SEND found no receive posted; the requester waits the RNR timer and sends again (rnr_retry times)";
            case NAK -> switch (aeth.nakCode() == null ? NakCode.INVALID_RD_REQUEST : aeth.nakCode()) {
                case PSN_SEQUENCE_ERROR -> "a packet came with a PSN past the expected one (one went missing): the BTH names"
                        + " the expected PSN, and the requester goes back and sends again from it";
                case REMOTE_ACCESS_ERROR -> "an rkey, address range or access check failed: the request completes with"
                        + " IBV_WC_REM_ACCESS_ERR and the requester's QP goes to ERR";
                case INVALID_REQUEST -> "the request was malformed or not allowed: IBV_WC_REM_INV_REQ_ERR";
                case REMOTE_OPERATIONAL_ERROR -> "the responder could not carry it out: IBV_WC_REM_OP_ERR";
                case INVALID_RD_REQUEST -> "reliable datagram only";
            };
            case RESERVED -> "never: the syndrome is reserved";
        });
        l.add("  fields: carried in the AETH of ACKNOWLEDGE, ATOMIC_ACKNOWLEDGE and the first/last/only READ responses");
        return l;
    }

    private static List<String> status(String u) {
        String name = u.startsWith("IBV_WC_") ? u.substring(7) : u;
        WcStatus s;
        try {
            s = WcStatus.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return List.of(String.format("%s (%d): %s", s.ibvName(), s.value, s.description), "  when:   " + StatusText.when(s),
                "  fields: the status field of struct ibv_wc; vendor_err holds the device's own code");
    }

    private static List<String> state(String u) {
        QpState s = qpState(u);
        if (s == null) return null;
        List<String> l = new ArrayList<>();
        l.add(s.ibvName() + ": " + StateText.meaning(s));
        List<String> next = new ArrayList<>();
        for (QpState to : QpState.values()) if (QpTransitions.rule(s, to, QpType.RC) != null) next.add(to.name());
        l.add("  next:   " + (next.isEmpty() ? "none" : String.join(", ", next) + " (RC; softrnic explain " + s.name() + "-" + next.getLast()
                + " says what a move needs)"));
        return l;
    }

    /** "RTR-RTS", "RTR->RTS" or "RTR RTS". */
    private static List<String> transition(String u) {
        String[] p = u.split("\\s*(->|_>|_|\\s|→)\\s*");
        if (p.length != 2) return null;
        QpState from = qpState(p[0]);
        QpState to = qpState(p[1]);
        if (from == null || to == null) return null;
        List<String> l = new ArrayList<>();
        l.add(from.name() + " -> " + to.name() + " (ibv_modify_qp with IBV_QP_STATE = " + to.ibvName() + ")");
        for (QpType type : new QpType[] {QpType.RC, QpType.UC, QpType.UD}) {
            QpTransitions.Rule r = QpTransitions.rule(from, to, type);
            l.add(String.format("  %s: %s", type, r == null ? "not allowed"
                    : "required " + QpAttrMask.describe(r.required()) + "; optional " + QpAttrMask.describe(r.optional())));
        }
        return l;
    }

    private static QpState qpState(String u) {
        String name = u.startsWith("IBV_QPS_") ? u.substring(8) : u;
        try {
            return QpState.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Integer number(String u) {
        try {
            return u.startsWith("0X") ? Integer.parseInt(u.substring(2), 16) : Integer.parseInt(u);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
