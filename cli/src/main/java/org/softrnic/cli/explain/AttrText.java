package org.softrnic.cli.explain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpTransitions;
import org.softrnic.verbs.QpType;

/**
 * What each IBV_QP_* attribute mask bit sets (ibv_modify_qp(3)), and, from the NIC's own transition table, the
 * transitions that require or accept it for each QP type.
 */
final class AttrText {
    private static final QpType[] TYPES = {QpType.RC, QpType.UC, QpType.UD};
    /** Bit to what it sets, in enum ibv_qp_attr_mask order. */
    private static final Map<Integer, String> MEANING = new LinkedHashMap<>();

    static {
        MEANING.put(QpAttrMask.STATE, "qp_state: the state to move to");
        MEANING.put(QpAttrMask.CUR_STATE, "cur_qp_state: the state the caller believes the QP is in");
        MEANING.put(QpAttrMask.EN_SQD_ASYNC_NOTIFY,
                "en_sqd_async_notify: raise IBV_EVENT_SQ_DRAINED once the send queue is drained in SQD");
        MEANING.put(QpAttrMask.ACCESS_FLAGS,
                "qp_access_flags: which incoming operations the QP allows (IBV_ACCESS_REMOTE_WRITE, _READ, _ATOMIC)");
        MEANING.put(QpAttrMask.PKEY_INDEX, "pkey_index: the port's P_Key table entry the QP sends and accepts");
        MEANING.put(QpAttrMask.PORT, "port_num: the port the QP uses");
        MEANING.put(QpAttrMask.QKEY, "qkey: the Q_Key of a UD QP, checked against every incoming DETH");
        MEANING.put(QpAttrMask.AV, "ah_attr: the address vector of the peer (GID, hop limit, traffic class, SL)");
        MEANING.put(QpAttrMask.PATH_MTU, "path_mtu: the largest payload per packet on the path (256 to 4096 bytes)");
        MEANING.put(QpAttrMask.TIMEOUT, "timeout: the local ACK timeout, 4.096 us * 2^timeout (0 waits forever)");
        MEANING.put(QpAttrMask.RETRY_CNT, "retry_cnt: how often to send again after an ACK timeout (0-7)");
        MEANING.put(QpAttrMask.RNR_RETRY, "rnr_retry: how often to send again after an RNR NAK (0-6, 7 = forever)");
        MEANING.put(QpAttrMask.RQ_PSN, "rq_psn: the first PSN the QP expects from its peer");
        MEANING.put(QpAttrMask.MAX_QP_RD_ATOMIC,
                "max_rd_atomic: RDMA READs and atomics this QP may have outstanding as requester");
        MEANING.put(QpAttrMask.ALT_PATH,
                "alt_ah_attr, alt_pkey_index, alt_port_num, alt_timeout: the alternate path for path migration");
        MEANING.put(QpAttrMask.MIN_RNR_TIMER,
                "min_rnr_timer: the RNR timer code this QP sends in its RNR NAKs as responder");
        MEANING.put(QpAttrMask.SQ_PSN, "sq_psn: the first PSN the QP sends");
        MEANING.put(QpAttrMask.MAX_DEST_RD_ATOMIC,
                "max_dest_rd_atomic: incoming RDMA READs and atomics this QP handles at once as responder");
        MEANING.put(QpAttrMask.PATH_MIG_STATE, "path_mig_state: the path migration state (MIGRATED, REARM, ARMED)");
        MEANING.put(QpAttrMask.CAP, "cap: the QP's queue sizes");
        MEANING.put(QpAttrMask.DEST_QPN, "dest_qp_num: the QP number of the peer");
    }

    private AttrText() {
    }

    /** Every attribute's IBV_QP_* name (shell completion). */
    static List<String> names() {
        return MEANING.keySet().stream().map(QpAttrMask::describe).toList();
    }

    /** "IBV_QP_AV"; with {@code bare}, also "AV". Null if it names no attribute. */
    static List<String> of(String u, boolean bare) {
        String name = u.startsWith("IBV_QP_") ? u : bare ? "IBV_QP_" + u : null;
        if (name == null) return null;
        for (Map.Entry<Integer, String> e : MEANING.entrySet()) {
            int bit = e.getKey();
            if (!QpAttrMask.describe(bit).equals(name)) continue;
            List<String> l = new ArrayList<>();
            l.add(String.format("%s (ibv_qp_attr_mask 0x%x): %s", name, bit, e.getValue()));
            if (bit == QpAttrMask.STATE) {
                l.add("  required: in every ibv_modify_qp that changes the state; without it the call changes attributes"
                        + " in the current state (e.g. RTS -> RTS)");
                return l;
            }
            l.add("  required: " + where(bit, true));
            l.add("  optional: " + where(bit, false));
            return l;
        }
        return null;
    }

    /** The transitions whose rule requires (or accepts) the bit, each with the QP types it applies to. */
    private static String where(int bit, boolean required) {
        List<String> parts = new ArrayList<>();
        for (QpState from : QpState.values()) {
            for (QpState to : QpState.values()) {
                List<String> types = new ArrayList<>();
                for (QpType type : TYPES) {
                    QpTransitions.Rule r = QpTransitions.rule(from, to, type);
                    if (r != null && ((required ? r.required() : r.optional()) & bit) != 0) types.add(type.name());
                }
                if (!types.isEmpty()) parts.add(from + " -> " + to + " (" + String.join(", ", types) + ")");
            }
        }
        return parts.isEmpty() ? "in no transition" : String.join("; ", parts);
    }
}
