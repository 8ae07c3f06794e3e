package org.softrnic.verbs;

import static org.softrnic.verbs.QpAttrMask.ACCESS_FLAGS;
import static org.softrnic.verbs.QpAttrMask.ALT_PATH;
import static org.softrnic.verbs.QpAttrMask.AV;
import static org.softrnic.verbs.QpAttrMask.CUR_STATE;
import static org.softrnic.verbs.QpAttrMask.DEST_QPN;
import static org.softrnic.verbs.QpAttrMask.EN_SQD_ASYNC_NOTIFY;
import static org.softrnic.verbs.QpAttrMask.MAX_DEST_RD_ATOMIC;
import static org.softrnic.verbs.QpAttrMask.MAX_QP_RD_ATOMIC;
import static org.softrnic.verbs.QpAttrMask.MIN_RNR_TIMER;
import static org.softrnic.verbs.QpAttrMask.PATH_MIG_STATE;
import static org.softrnic.verbs.QpAttrMask.PATH_MTU;
import static org.softrnic.verbs.QpAttrMask.PKEY_INDEX;
import static org.softrnic.verbs.QpAttrMask.PORT;
import static org.softrnic.verbs.QpAttrMask.QKEY;
import static org.softrnic.verbs.QpAttrMask.RETRY_CNT;
import static org.softrnic.verbs.QpAttrMask.RNR_RETRY;
import static org.softrnic.verbs.QpAttrMask.RQ_PSN;
import static org.softrnic.verbs.QpAttrMask.SQ_PSN;
import static org.softrnic.verbs.QpAttrMask.STATE;
import static org.softrnic.verbs.QpAttrMask.TIMEOUT;
import static org.softrnic.verbs.QpState.ERR;
import static org.softrnic.verbs.QpState.INIT;
import static org.softrnic.verbs.QpState.RESET;
import static org.softrnic.verbs.QpState.RTR;
import static org.softrnic.verbs.QpState.RTS;
import static org.softrnic.verbs.QpState.SQD;
import static org.softrnic.verbs.QpState.SQE;

import java.util.EnumMap;
import java.util.Map;

/**
 * The legal QP state transitions and, for each QP type, the attributes each one requires and allows:
 * the table of the ibv_modify_qp man page and of the kernel's qp_state_table (IBTA 10.3.1, table 92).
 * Any transition to RESET or ERR is legal with IBV_QP_STATE alone.
 */
public final class QpTransitions {
    /** Required and optional attribute masks of one transition for one QP type (IBV_QP_STATE excluded). */
    public record Rule(int required, int optional) {}

    private static final Map<QpState, Map<QpState, Map<QpType, Rule>>> TABLE = new EnumMap<>(QpState.class);

    private static void row(QpState from, QpState to, Rule rc, Rule uc, Rule ud) {
        Map<QpType, Rule> m = new EnumMap<>(QpType.class);
        if (rc != null) m.put(QpType.RC, rc);
        if (uc != null) m.put(QpType.UC, uc);
        if (ud != null) m.put(QpType.UD, ud);
        TABLE.computeIfAbsent(from, k -> new EnumMap<>(QpState.class)).put(to, m);
    }

    private static Rule r(int required, int optional) {
        return new Rule(required, optional);
    }

    private static final Rule BARE = new Rule(0, 0);

    static {
        for (QpState from : QpState.values()) {
            row(from, RESET, BARE, BARE, BARE);
            row(from, ERR, BARE, BARE, BARE);
        }
        row(RESET, INIT, r(PKEY_INDEX | PORT | ACCESS_FLAGS, 0), r(PKEY_INDEX | PORT | ACCESS_FLAGS, 0),
                r(PKEY_INDEX | PORT | QKEY, 0));
        row(INIT, INIT, r(0, PKEY_INDEX | PORT | ACCESS_FLAGS), r(0, PKEY_INDEX | PORT | ACCESS_FLAGS),
                r(0, PKEY_INDEX | PORT | QKEY));
        row(INIT, RTR,
                r(AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER, ALT_PATH | ACCESS_FLAGS | PKEY_INDEX),
                r(AV | PATH_MTU | DEST_QPN | RQ_PSN, ALT_PATH | ACCESS_FLAGS | PKEY_INDEX),
                r(0, PKEY_INDEX | QKEY));
        row(RTR, RTS,
                r(SQ_PSN | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC,
                        CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE),
                r(SQ_PSN, CUR_STATE | ALT_PATH | ACCESS_FLAGS | PATH_MIG_STATE),
                r(SQ_PSN, CUR_STATE | QKEY));
        row(RTS, RTS, r(0, CUR_STATE | ACCESS_FLAGS | ALT_PATH | PATH_MIG_STATE | MIN_RNR_TIMER),
                r(0, CUR_STATE | ACCESS_FLAGS | ALT_PATH | PATH_MIG_STATE), r(0, CUR_STATE | QKEY));
        row(RTS, SQD, r(0, EN_SQD_ASYNC_NOTIFY), r(0, EN_SQD_ASYNC_NOTIFY), r(0, EN_SQD_ASYNC_NOTIFY));
        row(SQD, RTS, r(0, CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE),
                r(0, CUR_STATE | ALT_PATH | ACCESS_FLAGS | PATH_MIG_STATE), r(0, CUR_STATE | QKEY));
        row(SQD, SQD,
                r(0, PORT | AV | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC | MAX_DEST_RD_ATOMIC | ALT_PATH
                        | ACCESS_FLAGS | PKEY_INDEX | MIN_RNR_TIMER | PATH_MIG_STATE),
                r(0, AV | ALT_PATH | ACCESS_FLAGS | PKEY_INDEX | PATH_MIG_STATE), r(0, PKEY_INDEX | QKEY));
        // SQE exists for UC and UD only: RC send-queue errors take the whole QP to ERR.
        row(SQE, RTS, null, r(0, CUR_STATE | ACCESS_FLAGS), r(0, CUR_STATE | QKEY));
        // The kernel allows RESET->RESET and ERR->ERR, and they are covered by the loop above.
    }

    private QpTransitions() {}

    /** The rule for this transition and QP type, or null when the transition is illegal. */
    public static Rule rule(QpState from, QpState to, QpType type) {
        Map<QpState, Map<QpType, Rule>> row = TABLE.get(from);
        if (row == null) return null;
        Map<QpType, Rule> rules = row.get(to);
        return rules == null ? null : rules.get(type);
    }

    /**
     * Checks an ibv_modify_qp attribute mask as ib_modify_qp_is_ok does.
     *
     * @return null when the mask is acceptable, else a message naming what is wrong
     */
    public static String check(QpType type, QpState current, QpState next, int mask) {
        if ((mask & CUR_STATE) != 0 && current != RTR && current != RTS && current != SQD && current != SQE) {
            return "IBV_QP_CUR_STATE is allowed only from RTR, RTS, SQD or SQE, not " + current.ibvName();
        }
        Rule rule = rule(current, next, type);
        if (rule == null) {
            return "illegal transition " + current.ibvName() + " -> " + next.ibvName() + " for " + type;
        }
        int missing = rule.required() & ~mask;
        if (missing != 0) {
            return current.ibvName() + " -> " + next.ibvName() + " for " + type + " requires "
                    + QpAttrMask.describe(missing);
        }
        int extra = mask & ~(rule.required() | rule.optional() | STATE);
        if (extra != 0) {
            return current.ibvName() + " -> " + next.ibvName() + " for " + type + " does not accept "
                    + QpAttrMask.describe(extra);
        }
        return null;
    }
}
