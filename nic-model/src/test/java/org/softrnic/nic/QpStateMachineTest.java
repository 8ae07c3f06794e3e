package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.time.VirtualClock;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpTransitions;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.VerbsException;

/**
 * Every modify_qp transition, legal and illegal, for RC, UC and UD: the exact required mask succeeds; any
 * required attribute left out, or any attribute the transition does not take, fails with EINVAL.
 */
class QpStateMachineTest {
    final Nic nic = new Nic(NicConfig.of("t", Gid.parse("192.0.2.1"), 1), new VirtualClock(), (b, o, l) -> true);

    QpAttr attrs(QpState to) {
        QpAttr a = new QpAttr();
        a.qpState = to;
        a.curQpState = QpState.RTS;
        a.qpAccessFlags = Access.REMOTE_WRITE | Access.LOCAL_WRITE;
        a.qkey = 0x1234;
        a.ahAttr = AddressVector.to(Gid.parse("192.0.2.2"));
        a.pathMtu = Mtu.MTU_1024;
        a.destQpNum = 0x99;
        a.timeout = 14;
        a.retryCnt = 7;
        a.rnrRetry = 7;
        a.maxRdAtomic = 1;
        a.maxDestRdAtomic = 1;
        a.minRnrTimer = 12;
        return a;
    }

    QpAttr attrs(QpState from, QpState to) {
        QpAttr a = attrs(to);
        a.curQpState = from;
        return a;
    }

    /** A fresh QP walked along legal transitions into {@code state}; null when modify cannot reach it. */
    QueuePair qpIn(QpType type, QpState state) {
        var pd = nic.allocPd();
        var cq = nic.createCq(16);
        QueuePair qp = nic.createQp(pd, type, cq, cq, null, QpCaps.of(8, 8), false);
        List<QpState> path = switch (state) {
            case RESET -> List.of();
            case INIT -> List.of(QpState.INIT);
            case RTR -> List.of(QpState.INIT, QpState.RTR);
            case RTS -> List.of(QpState.INIT, QpState.RTR, QpState.RTS);
            case SQD -> List.of(QpState.INIT, QpState.RTR, QpState.RTS, QpState.SQD);
            case ERR -> List.of(QpState.ERR);
            case SQE -> null;
        };
        if (path == null) return null;
        QpState cur = QpState.RESET;
        for (QpState next : path) {
            var rule = QpTransitions.rule(cur, next, type);
            nic.modifyQp(qp, attrs(next), QpAttrMask.STATE | rule.required());
            cur = next;
        }
        assertEquals(state, qp.state());
        return qp;
    }

    @Test
    void everyTransitionChecksItsAttributeMask() {
        int legal = 0;
        int illegal = 0;
        for (QpType type : QpType.values()) {
            for (QpState from : QpState.values()) {
                for (QpState to : QpState.values()) {
                    if (qpIn(type, from) == null) continue; // SQE: reached only through a send-queue error
                    var rule = QpTransitions.rule(from, to, type);
                    if (rule == null) {
                        QueuePair qp = qpIn(type, from);
                        VerbsException e = assertThrows(VerbsException.class,
                                () -> nic.modifyQp(qp, attrs(from, to), QpAttrMask.STATE), type + " " + from + "->" + to);
                        assertEquals(Errno.EINVAL, e.errno());
                        assertTrue(e.getMessage().contains("illegal transition"), e.getMessage());
                        assertEquals(from, qp.state(), "a refused modify changes nothing");
                        illegal++;
                        continue;
                    }
                    // exactly the required attributes
                    QueuePair ok = qpIn(type, from);
                    nic.modifyQp(ok, attrs(from, to), QpAttrMask.STATE | rule.required());
                    assertEquals(to, ok.state());
                    legal++;
                    // each required attribute left out
                    for (int bit : bits(rule.required())) {
                        QueuePair qp = qpIn(type, from);
                        VerbsException e = assertThrows(VerbsException.class,
                                () -> nic.modifyQp(qp, attrs(from, to), (QpAttrMask.STATE | rule.required()) & ~bit));
                        assertTrue(e.getMessage().contains("requires " + QpAttrMask.describe(bit)), e.getMessage());
                    }
                    // each optional attribute accepted, each other one refused
                    for (int bit : bits(0x1ffffe & ~QpAttrMask.STATE & ~rule.required())) {
                        QueuePair qp = qpIn(type, from);
                        int mask = QpAttrMask.STATE | rule.required() | bit;
                        if ((rule.optional() & bit) != 0) {
                            nic.modifyQp(qp, attrs(from, to), mask);
                            assertEquals(to, qp.state());
                        } else {
                            assertThrows(VerbsException.class, () -> nic.modifyQp(qp, attrs(from, to), mask),
                                    type + " " + from + "->" + to + " + " + QpAttrMask.describe(bit));
                        }
                    }
                }
            }
        }
        assertTrue(legal > 40 && illegal > 40, legal + " legal, " + illegal + " illegal");
    }

    static List<Integer> bits(int mask) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < 31; i++) if ((mask & 1 << i) != 0) out.add(1 << i);
        return out;
    }

    @Test
    void tableMatchesTheManPageForTheRcConnectSequence() {
        assertEquals(QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS,
                QpTransitions.rule(QpState.RESET, QpState.INIT, QpType.RC).required());
        assertEquals(QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN | QpAttrMask.RQ_PSN
                | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER,
                QpTransitions.rule(QpState.INIT, QpState.RTR, QpType.RC).required());
        assertEquals(QpAttrMask.SQ_PSN | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY
                | QpAttrMask.MAX_QP_RD_ATOMIC, QpTransitions.rule(QpState.RTR, QpState.RTS, QpType.RC).required());
        assertEquals(QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY,
                QpTransitions.rule(QpState.RESET, QpState.INIT, QpType.UD).required());
        assertNull(QpTransitions.rule(QpState.SQE, QpState.RTS, QpType.RC), "RC has no SQE state");
        assertNotNull(QpTransitions.rule(QpState.SQE, QpState.RTS, QpType.UD));
    }

    @Test
    void currentStateMustMatchAndIsOnlyForLaterStates() {
        QueuePair qp = qpIn(QpType.RC, QpState.INIT);
        QpAttr a = attrs(QpState.INIT);
        a.curQpState = QpState.INIT;
        VerbsException e = assertThrows(VerbsException.class, () -> nic.modifyQp(qp, a, QpAttrMask.STATE | QpAttrMask.CUR_STATE));
        assertTrue(e.getMessage().contains("IBV_QP_CUR_STATE is allowed only from RTR"), e.getMessage());
        QueuePair rts = qpIn(QpType.RC, QpState.RTS);
        QpAttr wrong = attrs(QpState.RTS);
        wrong.curQpState = QpState.SQD;
        assertThrows(VerbsException.class, () -> nic.modifyQp(rts, wrong, QpAttrMask.STATE | QpAttrMask.CUR_STATE));
    }

    @Test
    void attributeValuesAreRangeChecked() {
        QueuePair qp = qpIn(QpType.RC, QpState.RTR);
        QpAttr a = attrs(QpState.RTS);
        a.retryCnt = 8;
        int mask = QpAttrMask.STATE | QpTransitions.rule(QpState.RTR, QpState.RTS, QpType.RC).required();
        assertTrue(assertThrows(VerbsException.class, () -> nic.modifyQp(qp, a, mask)).getMessage().contains("retry_cnt"));
        a.retryCnt = 7;
        a.maxRdAtomic = 1000;
        assertThrows(VerbsException.class, () -> nic.modifyQp(qp, a, mask));
        a.maxRdAtomic = 1;
        a.timeout = 32;
        assertThrows(VerbsException.class, () -> nic.modifyQp(qp, a, mask));
        assertEquals(QpState.RTR, qp.state());
    }
}
