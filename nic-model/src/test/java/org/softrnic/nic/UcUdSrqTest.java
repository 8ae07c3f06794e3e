package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.SharedReceiveQueue;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/** UC (no ACKs, drop a broken message), UD (Q_Key, GRH, MTU) and SRQ (sharing, limit event). */
class UcUdSrqTest {
    // A UC SEND of 3 packets loses its MIDDLE; the next SEND's FIRST shows the gap while the first message is
    // unfinished. As rxe's do_class_d1e_error: without an SRQ (class D1) the receive is put back as it was and
    // that FIRST is dropped, so the second message is lost too; the third lands in the first receive.
    @Test
    void ucDeliversWithoutAcksAndPutsBackTheReceiveOfABrokenMessage() {
        Pair p = new Pair(QpType.UC, Mtu.MTU_1024, 3, a -> { });
        AtomicInteger n = new AtomicInteger();
        p.fabric.dropWhen(pk -> pk.from() == 0 && n.incrementAndGet() == 2); // 2nd packet of the first SEND
        for (int m = 0; m < 3; m++) p.a.fill(m * 4096L, 3000, 4 + m);
        p.b.postRecv(1, 0, 4096);
        p.b.postRecv(2, 4096, 4096);
        for (int m = 0; m < 3; m++) p.a.post(p.a.wr(1 + m, SendOpcode.SEND, m * 4096L, 3000));
        p.run();
        assertEquals(3, p.a.sendCompletions().stream().filter(c -> c.status == WcStatus.SUCCESS).count(),
                "UC completes sends once they are on the wire");
        List<WorkCompletion> r = p.b.recvCompletions();
        assertEquals(1, r.size(), "only the third message arrives: " + r);
        assertEquals(1, r.getFirst().wrId, "in the receive the broken message had, put back");
        assertEquals(WcStatus.SUCCESS, r.getFirst().status);
        assertEquals(3000, r.getFirst().byteLen);
        assertEquals(0, p.b.nic.counters().get(Counter.SENT_PKTS), "UC never acknowledges");
        assertEquals(4, p.b.nic.counters().get(Counter.DROP_UC_SEQUENCE), "the first message's LAST, the second's three packets");
        RcBasicsTest.assertSameBytes(p.a.mem, 2 * 4096L, p.b.mem, 0, 3000);
        assertEquals(QpState.RTS, p.b.qp.state());
    }

    // The same with an SRQ (class E): the broken message's receive completes IBV_WC_REM_INV_REQ_ERR, the second
    // message is lost as in rxe, and the QP takes up again at the third (rxe keeps the unfinished opcode and
    // drops every later message; softrnic does not, see docs/engine.md's table of differences).
    @Test
    void ucOnAnSrqCompletesTheReceiveOfABrokenMessageInErrorAndGoesOn() {
        Pair p = new Pair(QpType.UC, Mtu.MTU_1024, 3, a -> { });
        SharedReceiveQueue srq = p.b.nic.createSrq(p.b.pd, 16, 1, 0);
        QueuePair qb = p.b.nic.createQp(p.b.pd, QpType.UC, p.b.scq, p.b.rcq, srq, QpCaps.of(8, 8), false);
        QueuePair qa = p.a.nic.createQp(p.a.pd, QpType.UC, p.a.scq, p.a.rcq, null, QpCaps.of(8, 8), false);
        connectPair(p, qa, qb, QpType.UC);
        AtomicInteger n = new AtomicInteger();
        p.fabric.dropWhen(pk -> pk.from() == 0 && n.incrementAndGet() == 2);
        for (int m = 0; m < 3; m++) p.a.fill(m * 4096L, 3000, 4 + m);
        p.b.postSrqRecv(srq, 100, 0, 4096);
        p.b.postSrqRecv(srq, 101, 4096, 4096);
        p.a.qp = qa;
        for (int m = 0; m < 3; m++) p.a.post(p.a.wr(1 + m, SendOpcode.SEND, m * 4096L, 3000));
        p.run();
        List<WorkCompletion> r = p.b.recvCompletions();
        assertEquals(List.of(100L, 101L), r.stream().map(c -> c.wrId).toList(), "receives " + r);
        assertEquals(WcStatus.REM_INV_REQ_ERR, r.get(0).status);
        assertEquals(WcStatus.SUCCESS, r.get(1).status);
        assertEquals(3000, r.get(1).byteLen);
        RcBasicsTest.assertSameBytes(p.a.mem, 2 * 4096L, p.b.mem, 4096, 3000);
        assertEquals(QpState.RTS, qb.state(), "a UC receive error leaves the QP as it is");
        assertTrue(p.b.nic.drainEvents().isEmpty(), "and raises no event");
    }

    @Test
    void ucSendQueueErrorGoesToSqeWhereReceivesGoOnUntilBackToRts() {
        Pair p = new Pair(QpType.UC, Mtu.MTU_1024, 3, a -> { });
        SendWr bad = p.a.wr(1, SendOpcode.SEND, 0, 64);
        bad.sgList[0].lkey ^= 1;
        p.a.post(bad);
        p.a.post(p.a.wr(2, SendOpcode.SEND, 0, 64));
        p.run();
        List<WorkCompletion> s = p.a.sendCompletions();
        assertEquals(WcStatus.LOC_PROT_ERR, s.get(0).status);
        assertEquals(WcStatus.WR_FLUSH_ERR, s.get(1).status);
        assertEquals(org.softrnic.verbs.QpState.SQE, p.a.qp.state());
        // the receive side of an SQE QP still works
        p.a.postRecv(7, 0, 64);
        p.b.post(p.b.wr(3, SendOpcode.SEND, 0, 64));
        p.run();
        assertEquals(7, p.a.recvCompletions().getFirst().wrId);
        // and modify_qp brings the send queue back
        org.softrnic.verbs.QpAttr attr = new org.softrnic.verbs.QpAttr();
        attr.qpState = org.softrnic.verbs.QpState.RTS;
        p.a.nic.modifyQp(p.a.qp, attr, org.softrnic.verbs.QpAttrMask.STATE);
        p.b.postRecv(8, 0, 64);
        p.a.post(p.a.wr(4, SendOpcode.SEND, 0, 64));
        p.run();
        assertEquals(WcStatus.SUCCESS, p.a.sendCompletions().getFirst().status);
        assertEquals(8, p.b.recvCompletions().getFirst().wrId);
    }

    static SendWr udSend(Pair p, long id, int len, int qkey) {
        SendWr w = p.a.wr(id, SendOpcode.SEND_WITH_IMM, 0, len);
        w.immData = 77;
        w.ah = Handles.ah(AddressVector.to(Pair.GID_B));
        w.remoteQpn = p.b.qp.qpn();
        w.remoteQkey = qkey;
        return w;
    }

    @Test
    void udPutsTheGrhInFrontOfThePayloadAndChecksTheQkey() {
        Pair p = new Pair(QpType.UD, Mtu.MTU_1024, 4, a -> { });
        p.a.fill(0, 500, 9);
        p.b.postRecv(1, 0, 2048);
        p.b.postRecv(2, 4096, 2048);
        p.a.post(udSend(p, 1, 500, 0x11111111));
        p.a.post(udSend(p, 2, 500, 0x22222222)); // wrong Q_Key: dropped at B
        p.run();
        assertEquals(2, p.a.sendCompletions().size());
        List<WorkCompletion> r = p.b.recvCompletions();
        assertEquals(1, r.size());
        WorkCompletion wc = r.getFirst();
        assertEquals(540, wc.byteLen, "40-byte GRH area plus payload");
        assertEquals(p.a.qp.qpn(), wc.srcQp);
        assertTrue((wc.wcFlags & WorkCompletion.WC_GRH) != 0 && (wc.wcFlags & WorkCompletion.WC_WITH_IMM) != 0);
        assertEquals(0x45, p.b.mem.get(ValueLayout.JAVA_BYTE, 20) & 0xff, "IPv4 header in the GRH's last 20 bytes");
        assertEquals(0, p.b.mem.get(ValueLayout.JAVA_BYTE, 0), "first 20 bytes zero for IPv4");
        RcBasicsTest.assertSameBytes(p.a.mem, 0, p.b.mem, 40, 500);
        assertEquals(1, p.b.nic.counters().get(Counter.DROP_BAD_QKEY));
    }

    @Test
    void udLargerThanTheMtuCompletesWithoutAPacket() {
        // C10-93.1.1 (and rxe's "fake a successful UD send"): no packet, no error; the next datagram goes out
        Pair p = new Pair(QpType.UD, Mtu.MTU_1024, 4, a -> { });
        p.b.postRecv(7, 0, 8192);
        p.a.post(udSend(p, 1, 5000, 0x11111111));
        p.a.post(udSend(p, 2, 100, 0x11111111));
        p.run();
        var sends = p.a.sendCompletions();
        assertEquals(2, sends.size(), sends.toString());
        assertEquals(WcStatus.SUCCESS, sends.get(0).status);
        assertEquals(WcStatus.SUCCESS, sends.get(1).status);
        assertEquals(1, p.fabric.trace().size(), "only the second datagram is on the wire");
        assertEquals(1, p.a.nic.counters().get(Counter.UD_SEND_TOO_LONG));
        var recvs = p.b.recvCompletions();
        assertEquals(1, recvs.size());
        assertEquals(40 + 100, recvs.getFirst().byteLen);
    }

    @Test
    void srqFeedsSeveralQpsAndRaisesItsLimitEventOnce() {
        Pair p = Pair.rc();
        SharedReceiveQueue srq = p.b.nic.createSrq(p.b.pd, 16, 1, 0);
        QueuePair q1 = p.b.nic.createQp(p.b.pd, QpType.RC, p.b.scq, p.b.rcq, srq, QpCaps.of(8, 8), false);
        QueuePair q2 = p.b.nic.createQp(p.b.pd, QpType.RC, p.b.scq, p.b.rcq, srq, QpCaps.of(8, 8), false);
        QueuePair s1 = p.a.nic.createQp(p.a.pd, QpType.RC, p.a.scq, p.a.rcq, null, QpCaps.of(8, 8), false);
        QueuePair s2 = p.a.nic.createQp(p.a.pd, QpType.RC, p.a.scq, p.a.rcq, null, QpCaps.of(8, 8), false);
        connectPair(p, s1, q1);
        connectPair(p, s2, q2);
        for (int i = 0; i < 6; i++) p.b.postSrqRecv(srq, 100 + i, i * 256L, 256);
        p.b.nic.modifySrq(srq, 4);
        p.a.qp = s1;
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 100));
        p.a.qp = s2;
        p.a.post(p.a.wr(2, SendOpcode.SEND, 0, 100));
        p.a.post(p.a.wr(3, SendOpcode.SEND, 0, 100));
        p.run();
        List<WorkCompletion> r = p.b.recvCompletions();
        assertEquals(List.of(100L, 101L, 102L), r.stream().map(c -> c.wrId).toList());
        assertEquals(List.of(q1.qpn(), q2.qpn(), q2.qpn()), r.stream().map(c -> c.qpNum).toList());
        long limits = p.b.nic.drainEvents().stream().filter(e -> e.type() == AsyncEvent.Type.SRQ_LIMIT_REACHED).count();
        assertEquals(1, limits, "raised once, when the level fell below 4, then disarmed");
        RecvWr own = new RecvWr();
        own.numSge = 1;
        assertThrows(VerbsException.class, () -> p.b.nic.postRecv(q1, own), "a QP on an SRQ has no receive queue");
    }

    static void connectPair(Pair p, QueuePair sa, QueuePair sb) {
        connectPair(p, sa, sb, QpType.RC);
    }

    static void connectPair(Pair p, QueuePair sa, QueuePair sb, QpType type) {
        Pair.Side a = p.a;
        Pair.Side b = p.b;
        QueuePair oldA = a.qp;
        QueuePair oldB = b.qp;
        a.qp = sa;
        b.qp = sb;
        Pair.connect(a, b, Pair.GID_B, type, Mtu.MTU_1024, 5, 9, x -> { });
        Pair.connect(b, a, Pair.GID_A, type, Mtu.MTU_1024, 9, 5, x -> { });
        a.qp = oldA;
        b.qp = oldB;
    }
}
