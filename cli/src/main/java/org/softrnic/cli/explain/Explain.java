package org.softrnic.cli.explain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.softrnic.cli.decode.OpcodeText;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpTransitions;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.OpClass;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.Transport;
import org.softrnic.wire.header.NakCode;

/**
 * Finds what a topic names (an opcode by name or number, an AETH syndrome, an IBV_WC_* status, an IBV_EVENT_*
 * event, an IBV_QP_* attribute, a QP state, a transition between two states, a header or a term) and says what it
 * means, when it happens and which header fields carry it. Opcodes, transitions and sizes come from the tables the
 * NIC itself runs on.
 */
final class Explain {
    private static final QpType[] TYPES = {QpType.RC, QpType.UC, QpType.UD};

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
        if ((out = EventText.of(u)) != null) return out;
        if ((out = AttrText.of(u, false)) != null) return out;
        if ((out = WireText.of(u)) != null) return out;
        if ((out = CmText.of(u)) != null) return out;
        if ((out = GlossaryText.of(u)) != null) return out;
        Integer n = number(u);
        if (n != null) {
            // a bare number, decimal or hex, can be either: say both
            if (n < 0 || n > 0xff) return null;
            out = new ArrayList<>(opcode(n));
            out.add("");
            out.addAll(syndrome(n));
            return out;
        }
        if ((out = opcodeNamed(u)) != null) return out;
        if ((out = syndromeNamed(u)) != null) return out;
        return AttrText.of(u, true);
    }

    private static List<String> opcodeNamed(String u) {
        for (Opcode o : Opcode.values()) {
            if (o.name().equals(u) || o.name().equals("RC_" + u)) return opcode(o.value);
        }
        return null;
    }

    /** Any value 0x00..0xff: a defined opcode, or what its range is. */
    static List<String> opcode(int value) {
        Opcode op = Opcode.of(value);
        if (op == null) {
            return List.of(String.format("opcode 0x%02x: %s", value, undefined(value)), "  when:   " + undefinedWhen(value));
        }
        List<String> l = new ArrayList<>();
        l.add(String.format("opcode 0x%02x %s", op.value, op.name()));
        String what = OpcodeText.meaning(op);
        int h = what.indexOf("; headers");
        l.add("  what:   " + (h < 0 ? what : what.substring(0, h))
                + (op.transport() == Transport.RD ? " (reliable datagram: decoded only, RoCE does not use RD)" : ""));
        l.add("  when:   " + when(op));
        StringBuilder fields = new StringBuilder("  fields: BTH (opcode, P_Key, destination QP, AckReq, PSN)");
        for (var x : op.headers()) fields.append(", then ").append(WireText.headerName(x));
        if (op.payload) fields.append(", then the payload");
        fields.append(", then the ").append(Opcode.ICRC_BYTES).append("-byte ICRC");
        l.add(fields.toString());
        return l;
    }

    private static String when(Opcode op) {
        if (op.opClass == OpClass.CNP) {
            return "the notification point (the receiver of packets the network marked ECN CE) sends it to the sender of"
                    + " those packets (the reaction point), which lowers its rate; softrnic sends them with cnp: firmware or"
                    + " paper and acts on them with dcqcn: firmware or paper (off by default, as rxe, which ignores them)";
        }
        return op.opClass.request ? "the requester sends it to carry out a work request posted to its send queue"
                : "the responder sends it in answer to requests";
    }

    /** What a value with no opcode in the table is: reserved, XRC or manufacturer-specific (IBTA table 38). */
    private static String undefined(int value) {
        if (Opcode.isManufacturerSpecific(value)) {
            return "manufacturer-specific (bits 7-5 = 110 or 111: IBTA leaves 0xc0-0xff to vendors)";
        }
        if ((value & 0xe0) == 0xa0) {
            return "XRC (bits 7-5 = 101: extended reliable connected, IBTA Annex A14)";
        }
        if (value == 0x80) {
            return "reserved on RoCEv2 (InfiniBand's CNP, IBTA Annex A10; the RoCEv2 CNP is 0x81, Annex A17)";
        }
        String range = switch (value & 0xe0) {
            case 0x00 -> "RC";
            case 0x20 -> "UC";
            case 0x40 -> "RD";
            case 0x60 -> "UD";
            default -> "CNP";
        };
        return String.format("reserved (in the %s range 0x%02x-0x%02x, where IBTA defines no operation with this value)",
                range, value & 0xe0, (value & 0xe0) + 0x1f);
    }

    private static String undefinedWhen(int value) {
        if (Opcode.isManufacturerSpecific(value)) {
            return "only between devices of a vendor that defines it; softrnic neither sends nor decodes it";
        }
        if ((value & 0xe0) == 0xa0) {
            return "an XRC QP sends it; softrnic and rxe have no XRC QPs, so they neither send nor decode it";
        }
        return value == 0x80 ? "never on RoCEv2: the opcode is reserved there" : "never: the opcode is reserved";
    }

    /** An AETH syndrome by name (ack, rnr, nak, seq, access...). */
    private static List<String> syndromeNamed(String u) {
        Integer s = switch (u) {
            case "ACK" -> AethText.CREDITS_INVALID;
            case "RNR", "RNR_NAK" -> 0x20 | 12;
            case "NAK", "SEQ", "PSN_SEQUENCE_ERROR" -> 0x60 | NakCode.PSN_SEQUENCE_ERROR.value;
            case "INVALID_REQUEST" -> 0x60 | NakCode.INVALID_REQUEST.value;
            case "ACCESS", "REMOTE_ACCESS_ERROR" -> 0x60 | NakCode.REMOTE_ACCESS_ERROR.value;
            case "REMOTE_OPERATIONAL_ERROR" -> 0x60 | NakCode.REMOTE_OPERATIONAL_ERROR.value;
            case "INVALID_RD_REQUEST" -> 0x60 | NakCode.INVALID_RD_REQUEST.value;
            default -> null;
        };
        return s == null ? null : syndrome(s);
    }

    /** Any syndrome byte 0x00..0xff. */
    static List<String> syndrome(int s) {
        List<String> l = new ArrayList<>();
        l.add(String.format("AETH syndrome 0x%02x: %s", s, AethText.describe(s)));
        l.add("  layout: " + AethText.LAYOUT + "; the 24-bit MSN follows (messages the responder completed)");
        int low = s & 0x1f;
        l.add("  when:   " + switch (AethText.kind(s)) {
            case ACK -> "the responder acknowledges every PSN up to the one in the BTH; the requester completes what it covers"
                    + (low == AethText.CREDITS_INVALID ? "; code 31 says end-to-end flow control is not used (rxe and softrnic always send it)"
                    : "; the credit code says how many receive WQEs the responder has available (end-to-end flow control)");
            case RNR_NAK -> "receiver not ready: a SEND or an RDMA WRITE with immediate (each takes a receive WQE) found no"
                    + " receive posted; the requester waits the RNR timer and sends again (rnr_retry times; 7: for ever)";
            case NAK -> nakWhen(NakCode.of(low));
            case RESERVED -> (s & 0x80) != 0 ? "never: bit 7 of the syndrome is reserved and must be 0"
                    : "never: the syndrome type 10 is reserved";
        });
        l.add("  fields: " + (AethText.kind(s) == AethText.Kind.ACK
                ? "carried in the AETH of ACKNOWLEDGE, ATOMIC_ACKNOWLEDGE and the first/last/only READ responses"
                : "carried in the AETH of an ACKNOWLEDGE only (a NAK or an RNR NAK is never part of a response)"));
        return l;
    }

    private static String nakWhen(NakCode c) {
        if (c == null) return "never: the NAK code is reserved";
        return switch (c) {
            case PSN_SEQUENCE_ERROR -> "a packet came with a PSN past the expected one (one went missing): the BTH names"
                    + " the expected PSN, and the requester goes back and sends again from it";
            case INVALID_REQUEST -> "the request was malformed or not allowed: IBV_WC_REM_INV_REQ_ERR";
            case REMOTE_ACCESS_ERROR -> "an rkey, address range or access check failed: the request completes with"
                    + " IBV_WC_REM_ACCESS_ERR and the requester's QP goes to ERR";
            case REMOTE_OPERATIONAL_ERROR -> "the responder could not carry it out: IBV_WC_REM_OP_ERR";
            case INVALID_RD_REQUEST -> "reliable datagram only: an invalid RD request (RoCE does not use RD)";
        };
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

    /** A state and, per QP type, the states ibv_modify_qp may move it to, all from QpTransitions. */
    private static List<String> state(String u) {
        QpState s = qpState(u);
        if (s == null) return null;
        List<String> l = new ArrayList<>();
        l.add(s.ibvName() + ": " + StateText.meaning(s));
        Map<List<QpState>, List<String>> byNext = new LinkedHashMap<>();
        List<String> never = new ArrayList<>();
        for (QpType type : TYPES) {
            if (!enters(type, s)) {
                never.add(type.name());
                continue;
            }
            List<QpState> next = new ArrayList<>();
            for (QpState to : QpState.values()) if (QpTransitions.rule(s, to, type) != null) next.add(to);
            byNext.computeIfAbsent(next, k -> new ArrayList<>()).add(type.name());
        }
        for (Map.Entry<List<QpState>, List<String>> e : byNext.entrySet()) {
            List<QpState> next = e.getKey();
            QpState hint = next.stream().filter(to -> to != s && to != QpState.RESET && to != QpState.ERR).findFirst()
                    .orElse(next.stream().filter(to -> to != s).findFirst().orElse(s));
            l.add("  next:   " + String.join(", ", e.getValue()) + ": "
                    + (next.isEmpty() ? "none" : next.stream().map(Enum::name).collect(Collectors.joining(", "))
                    + " (softrnic explain " + s.name() + "-" + hint.name() + " says what a move needs)"));
        }
        if (!never.isEmpty()) {
            l.add("  never:  " + String.join(", ", never) + " never enters " + s.name()
                    + (s == QpState.SQE ? ": a send error takes an RC QP to ERR" : ""));
        }
        if (noneLeadsTo(s)) l.add("  enter:  no ibv_modify_qp leads to " + s.name() + ": only the NIC moves a QP there");
        return l;
    }

    /** Whether a QP of this type can be in state s: a transition leads there, or one leaves it other than to RESET or ERR. */
    private static boolean enters(QpType type, QpState s) {
        for (QpState other : QpState.values()) {
            if (other != s && QpTransitions.rule(other, s, type) != null) return true;
            if (other != s && other != QpState.RESET && other != QpState.ERR && QpTransitions.rule(s, other, type) != null) {
                return true;
            }
        }
        return false;
    }

    private static boolean noneLeadsTo(QpState s) {
        for (QpType type : TYPES) {
            for (QpState from : QpState.values()) if (from != s && QpTransitions.rule(from, s, type) != null) return false;
        }
        return true;
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
        for (QpType type : TYPES) {
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
