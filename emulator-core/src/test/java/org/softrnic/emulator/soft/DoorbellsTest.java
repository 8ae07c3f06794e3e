package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.time.VirtualClock;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;

/** Doorbells: a post published before a ring is always answered, once; one to a QP destroyed meanwhile is counted. */
class DoorbellsTest {
    private final Nic nic = new Nic(NicConfig.of("a", Gid.parse("192.0.2.1"), 1), new VirtualClock(), (PacketSink) (b, o, l) -> true);
    private final ProtectionDomain pd = nic.allocPd();
    private final CompletionQueue cq = nic.createCq(8);
    private final Doorbells bells = new Doorbells();

    private QueuePair qp(int depth) {
        QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, null, new QpCaps(depth, depth, 1, 1, 0), false);
        nic.modifyQp(qp, init(), org.softrnic.verbs.QpAttrMask.STATE | org.softrnic.verbs.QpAttrMask.PKEY_INDEX
                | org.softrnic.verbs.QpAttrMask.PORT | org.softrnic.verbs.QpAttrMask.ACCESS_FLAGS);
        return qp;
    }

    private static org.softrnic.verbs.QpAttr init() {
        org.softrnic.verbs.QpAttr a = new org.softrnic.verbs.QpAttr();
        a.qpState = org.softrnic.verbs.QpState.INIT;
        a.portNum = 1;
        return a;
    }

    private void publishRecv(QueuePair qp, long wrId) {
        RecvWr wr = new RecvWr(1);
        wr.wrId = wrId;
        nic.writeRecv(qp, null, wr);
        qp.rq().publish();
    }

    @Test
    void aPostToAQpDestroyedOnTheWayIsCountedNotQueued() {
        QueuePair qp = qp(4);
        Doorbells.Bell bell = new Doorbells.Bell(qp, null);
        publishRecv(qp, 7);
        nic.destroyQp(qp);
        assertTrue(bells.ring(bell));
        AtomicInteger dropped = new AtomicInteger();
        bells.answer(nic, (q, n, why) -> dropped.addAndGet(n));
        assertEquals(1, dropped.get(), "the request is counted as lost, with its QP");
        assertEquals(0, qp.rq().size(), "nothing was queued");
        assertTrue(bells.ring(bell), "answered: the bell may ring again");
        bells.answer(nic, (q, n, why) -> dropped.addAndGet(n));
        assertEquals(1, dropped.get(), "counted once");
    }

    @Test
    void aPostThatAResetOvertookIsCountedNotSentAfterTheQpComesBack() {
        QueuePair qp = qp(4);
        Doorbells.Bell bell = new Doorbells.Bell(qp, null);
        RecvWr wr = new RecvWr(1);
        nic.writeRecv(qp, null, wr); // checked in INIT, then the reset runs before the poster publishes
        org.softrnic.verbs.QpAttr reset = new org.softrnic.verbs.QpAttr();
        reset.qpState = org.softrnic.verbs.QpState.RESET;
        nic.modifyQp(qp, reset, org.softrnic.verbs.QpAttrMask.STATE);
        qp.rq().publish();
        bells.ring(bell);
        java.util.List<String> why = new java.util.ArrayList<>();
        bells.answer(nic, (q, n, overtaken) -> why.add(n + " after " + overtaken));
        assertEquals(java.util.List.of("1 after ibv_modify_qp to RESET"), why);
        assertEquals(0, qp.rq().size() + qp.rq().pending(), "nothing left to take once the QP is brought back up");
    }

    @Test
    void whenAnsweringOneBellFailsTheOthersStayRung() {
        QueuePair a = qp(4);
        QueuePair b = qp(4);
        Doorbells.Bell bellA = new Doorbells.Bell(a, null);
        Doorbells.Bell bellB = new Doorbells.Bell(b, null);
        Doorbells.Bell broken = new Doorbells.Bell(null, null); // answering it throws
        publishRecv(a, 1);
        publishRecv(b, 2);
        bells.ring(bellA);
        bells.ring(bellB);
        bells.ring(broken); // on top: answered first
        org.junit.jupiter.api.Assertions.assertThrows(NullPointerException.class, () -> bells.answer(nic, (q, n, why) -> { }));
        assertFalse(bells.isEmpty(), "the bells after the failure are back on the list");
        assertEquals(2, bells.answer(nic, (q, n, why) -> { }));
        assertEquals(1, a.rq().size());
        assertEquals(1, b.rq().size());
        assertTrue(bells.ring(bellA), "answered: it rings again");
    }

    @Test
    void aBellRungTwiceIsListedOnceAndEveryPublishedRequestGoesLive() {
        QueuePair qp = qp(8);
        Doorbells.Bell bell = new Doorbells.Bell(qp, null);
        publishRecv(qp, 1);
        assertTrue(bells.ring(bell));
        publishRecv(qp, 2);
        assertFalse(bells.ring(bell), "already on the list: no second wakeup");
        assertEquals(1, bells.answer(nic, (q, n, why) -> { }));
        assertEquals(2, qp.rq().size());
        assertTrue(bells.isEmpty());
    }

    @Test
    @Timeout(120)
    void postersOnManyThreadsNeverLeaveARequestUnanswered() throws Exception {
        int threads = 4;
        int posts = 20_000;
        QueuePair[] qps = new QueuePair[threads];
        Doorbells.Bell[] bell = new Doorbells.Bell[threads];
        for (int i = 0; i < threads; i++) {
            qps[i] = qp(4); // four slots from the start: the ring never needs the device to grow it
            bell[i] = new Doorbells.Bell(qps[i], null);
        }
        Thread[] t = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            int k = i;
            t[i] = Thread.ofPlatform().start(() -> {
                for (int n = 0; n < posts; n++) {
                    while (qps[k].rq().full()) Thread.onSpinWait();
                    RecvWr wr = new RecvWr(1);
                    wr.wrId = n;
                    nic.writeRecv(qps[k], null, wr);
                    qps[k].rq().publish();
                    bells.ring(bell[k]);
                }
            });
        }
        long[] next = new long[threads];
        long end = System.nanoTime() + 60_000_000_000L;
        while (java.util.Arrays.stream(next).sum() < (long) threads * posts) {
            assertTrue(System.nanoTime() < end, "requests left unanswered: " + java.util.Arrays.toString(next));
            bells.answer(nic, (q, n, why) -> { });
            for (int i = 0; i < threads; i++) {
                var rq = qps[i].rq();
                while (!rq.isEmpty()) {
                    assertEquals(next[i]++, rq.head().wrId, "QP " + i + " in order");
                    rq.pop();
                }
            }
        }
        for (Thread x : t) x.join();
    }
}
