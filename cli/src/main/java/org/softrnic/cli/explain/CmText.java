package org.softrnic.cli.explain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.softrnic.nic.cm.CmTable;
import org.softrnic.nic.cm.CmTransition;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.CmaHeader;
import org.softrnic.wire.mad.Mad;
import org.softrnic.wire.mad.MadField;
import org.softrnic.wire.mad.RejReason;
import org.softrnic.wire.mad.SidrStatus;

/**
 * The CM's messages (REQ ... SIDR_REP), a REJ's reasons, and the MAD and QP1 they travel in. The fields come
 * from the layout table the codec uses, and when each message is sent from the CM's own state table.
 */
final class CmText {
    private static final String[] WHAT = {
        "REQ", "request for communication: the active side asks the passive side's CM to connect a QP to a service ID",
        "MRA", "message receipt acknowledgement: the receiver of a REQ or REP needs longer than the sender's timeout",
        "REJ", "reject: the connection is refused, with a reason (and, from rdma_reject, private data)",
        "REP", "reply: the passive side accepts; its QP is already in RTS",
        "RTU", "ready to use: the active side's QP is in RTS; the passive side's id is ESTABLISHED on it",
        "DREQ", "disconnect request: the sender's QP is in ERROR and it asks the peer to end the connection",
        "DREP", "disconnect reply: the disconnect is answered; both ids wait out timewait",
        "SIDR_REQ", "service ID resolution request (UD): which QP and Q_Key serve this service ID?",
        "SIDR_REP", "service ID resolution reply (UD): the QP and Q_Key, or why there are none",
    };

    private CmText() {
    }

    static List<String> names() {
        List<String> n = new ArrayList<>();
        for (CmMessage m : CmMessage.values()) n.add(m.name());
        n.addAll(List.of("MAD", "QP1", "GSI", "REJ_REASONS", "SIDR_STATUS"));
        return n;
    }

    /** The lines for {@code u} (upper case, '-' as '_'), or null: a CM message, "REJ 8", MAD, QP1/GSI. */
    static List<String> of(String u) {
        if (u.equals("MAD") || u.equals("CM")) return mad();
        if (u.equals("QP1") || u.equals("GSI")) return qp1();
        if (u.equals("REJ_REASONS") || u.equals("REJ_REASON")) return reasons();
        if (u.equals("SIDR_STATUS") || u.equals("SIDR_STATUSES")) return sidrStatuses();
        if (u.startsWith("REJ ") || u.startsWith("REJ_")) {
            try {
                int v = Integer.decode(u.substring(4).trim());
                RejReason r = RejReason.of(v);
                return List.of("REJ reason " + RejReason.describe(v) + (r == null ? "" : ": IB_CM_REJ_" + r.name()),
                        "  when:   " + whenRejected(v));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        CmMessage msg;
        try {
            msg = CmMessage.valueOf(u);
        } catch (IllegalArgumentException e) {
            return null;
        }
        List<String> l = new ArrayList<>();
        l.add(String.format("%s: CM message, attribute ID 0x%04x, in a 256-byte MAD to QP1", msg, msg.attrId));
        l.add("  what:   " + what(msg));
        for (CmTransition t : CmTable.rows()) {
            if (msg.name().equals(t.wire())) {
                l.add(String.format("  when:   %s on %s, then %s (%s)", t.from(), t.input().name().toLowerCase(Locale.ROOT), t.to(), t.why()));
            }
        }
        StringBuilder f = new StringBuilder("  fields: MAD header (24 bytes)");
        for (MadField x : msg.fields) f.append(", ").append(x.name()).append(" (").append(x.bits()).append(')');
        f.append(", private data (").append(msg.privateDataSize()).append(" bytes, no length on the wire)");
        l.add(f.toString());
        if (msg == CmMessage.REQ || msg == CmMessage.SIDR_REQ) {
            l.add("  cma:    rdma_cm puts its " + CmaHeader.SIZE + "-byte header first in the private data (version 0, IP version,"
                    + " the active side's port, its address and the passive side's), leaving "
                    + (msg.privateDataSize() - CmaHeader.SIZE) + " bytes for the application");
        }
        if (msg == CmMessage.REJ) l.add("  reasons: softrnic explain REJ_REASONS lists them; softrnic explain 'REJ 8' says one");
        if (msg == CmMessage.SIDR_REP) l.add("  status: softrnic explain SIDR_STATUS lists them; rdma_cm makes any but 0 RDMA_CM_EVENT_UNREACHABLE");
        return l;
    }

    private static String what(CmMessage msg) {
        for (int i = 0; i < WHAT.length; i += 2) if (WHAT[i].equals(msg.name())) return WHAT[i + 1];
        throw new IllegalStateException("no words for " + msg);
    }

    private static String whenRejected(int v) {
        return switch (v) {
            case 4 -> "an active side destroyed its id before any answer came (the ARI carries its node GUID)";
            case 8 -> "a REQ named a service ID no one listens for: nobody called rdma_listen on that port";
            case 10 -> "a REQ for a connection still in timewait, or a QP that is connected already (stale connection)";
            case 28 -> "the consumer refused it: rdma_reject, or an id destroyed before the connection was up";
            default -> "the kernel's CM does not send it over RoCE; another CM may";
        };
    }

    private static List<String> sidrStatuses() {
        List<String> l = new ArrayList<>();
        l.add("SIDR_REP statuses (IBTA table 116; the kernel's enum ib_cm_sidr_status):");
        for (SidrStatus st : SidrStatus.values()) l.add(String.format("  %d  IB_SIDR_%-20s %s", st.value, st.name(), st.words));
        l.add("  the kernel's CM sends 0, 1 (no listener) and 2 (rdma_reject, or a destroyed request); rdma_cm reports any but 0"
                + " as RDMA_CM_EVENT_UNREACHABLE with the status");
        return l;
    }

    private static List<String> reasons() {
        List<String> l = new ArrayList<>();
        l.add("REJ reasons (IBTA table 107; the kernel's words, ibcm_reject_msg):");
        for (RejReason r : RejReason.values()) l.add(String.format("  %2d  %-28s IB_CM_REJ_%s", r.value, r.words, r.name()));
        l.add("  over RoCE the kernel's CM sends 4, 8, 10 and 28; softrnic explain 'REJ N' says when");
        return l;
    }

    private static List<String> mad() {
        StringBuilder f = new StringBuilder("  fields: ");
        for (MadField x : Mad.HEADER_FIELDS) f.append(x.name()).append(" (").append(x.bits()).append("), ");
        f.append("then the class's data to byte ").append(Mad.SIZE);
        return List.of("MAD: management datagram, " + Mad.SIZE + " bytes, the payload of a UD SEND to QP1",
                "  what:   the CM's messages travel in MADs of management class 0x07, class version 2, method 0x03 (Send)",
                "  when:   each CM message is one MAD; a lost one is sent again on its sender's timer, no ACK is involved",
                f.toString());
    }

    private static List<String> qp1() {
        return List.of("QP1, the GSI (general services interface)",
                "  what:   the UD QP every port has for management datagrams: the CM's REQ, REP, RTU, DREQ ... come and go there",
                "  when:   always: the kernel's MAD layer makes it; rxe takes only Q_Key 0x80010000 and P_Key 0xFFFF on it",
                "  fields: BTH (DestQP 1), DETH (Q_Key 0x80010000, SrcQP 1), then the 256-byte MAD");
    }
}
