package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.softrnic.nic.cc.DcqcnParameters;
import org.softrnic.nic.cc.NotificationPoint;
import org.softrnic.nic.cc.ReactionPoint;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.frame.Ecn;

/**
 * DCQCN's reaction point in the engine: a CNP for a QP cuts its rate, its requester paces at that rate, and the
 * timers bring the rate back to the line once the CNPs stop.
 */
class ReactionPointTest {
    private static final double LINE = 10_000; // Mb/s

    /** a sends to b over a link that marks every ECT packet CE; b answers with CNPs. */
    private static Pair congested(DcqcnParameters rp, NotificationPoint np) {
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 7, a -> a.ahAttr = new AddressVector(a.ahAttr.dgid(), 0, 0, 64, Ecn.ECT0.bits));
        p.fabric.faults(p.a.nic, p.b.nic, new LinkFaults(0, 0, 0, 1_000, 0, 1.0));
        p.b.nic.notificationPoint(np);
        if (rp != null) p.a.nic.reactionPoint(rp, LINE);
        return p;
    }

    /** Virtual nanoseconds a 1 MiB WRITE from a to b takes, from post to completion. */
    private static long writeMiB(Pair p) {
        p.a.fill(0, 1 << 20, 5);
        long t0 = p.fabric.clock().nanoTime();
        p.a.post(p.write(1, 0, 0, 1 << 20));
        p.fabric.run(t0 + 1_000_000_000L, () -> p.a.scq.size() > 0); // not until idle: the rate would be back at the line
        assertEquals(WcStatus.SUCCESS, p.a.sendCompletions().getFirst().status);
        return p.fabric.clock().nanoTime() - t0;
    }

    @Test
    void aCnpCutsTheRateAndTheRequesterPacesAtIt() {
        Pair p = congested(DcqcnParameters.firmware(), NotificationPoint.firmware());
        long took = writeMiB(p);
        long handled = p.a.nic.counters().get(Counter.RP_CNP_HANDLED);
        assertTrue(handled > 0, "CNPs reached a's reaction point");
        assertEquals(p.b.nic.counters().get(Counter.NP_CNP_SENT), handled, "every CNP b sent was handled");
        assertEquals(0, p.a.nic.counters().get(Counter.RP_CNP_IGNORED));
        ReactionPoint.RateState s = p.a.nic.rateState(p.a.qp.qpn());
        assertTrue(s.currentRateMbps() < LINE / 2 + 10, "cut at least to half: " + s);
        assertEquals(handled, s.cnpsHandled());
        // 1 MiB in 1024 packets of 1 KiB payload and 44 + 38 bytes of headers and framing, at no more than the line
        long atLine = (long) ((1 << 20) / 1024 * (1024 + 44 + 38) * 8_000.0 / LINE);
        assertTrue(took > atLine, "paced: " + took + " ns, the line rate alone needs " + atLine);

        Pair unpaced = congested(null, NotificationPoint.firmware());
        assertTrue(writeMiB(unpaced) < atLine / 10, "without a reaction point the simulated link has no rate of its own");
        assertEquals(unpaced.b.nic.counters().get(Counter.NP_CNP_SENT), unpaced.a.nic.counters().get(Counter.RP_CNP_IGNORED));
        assertNull(unpaced.a.nic.rateState(unpaced.a.qp.qpn()));
    }

    @Test
    void theTimersBringTheRateBackToTheLineOnceCnpsStop() {
        Pair p = congested(DcqcnParameters.firmware(), NotificationPoint.firmware());
        writeMiB(p);
        int qpn = p.a.qp.qpn();
        double cut = p.a.nic.rateState(qpn).currentRateMbps();
        p.fabric.faults(p.a.nic, p.b.nic, LinkFaults.NONE);
        long t = p.fabric.clock().nanoTime();
        p.fabric.run(t + 1_000_000);
        double after1ms = p.a.nic.rateState(qpn).currentRateMbps();
        assertTrue(after1ms > cut, "the increase timer (rpg_time_reset 300 µs) raised it: " + cut + " -> " + after1ms);
        p.fabric.run(t + 100_000_000);
        ReactionPoint.RateState s = p.a.nic.rateState(qpn);
        assertEquals(LINE, s.currentRateMbps(), "back at the line rate");
        assertTrue(s.alpha() < 1, "α decayed to 0 without CNPs: " + s.alpha());
        assertEquals(Long.MAX_VALUE, p.a.nic.nextDeadline(), "at the line rate, with nothing in flight, no timer is left");
    }

    /** T4's paper half: with N = 50 µs and marks each µs for 1 ms, CNPs at 0, 50, ..., 1000 µs, the last for marks owed. */
    @Test
    void thePapersNotificationPointOwesOneCnpForMarksInsideItsInterval() {
        Pair p = congested(null, NotificationPoint.paper());
        byte[] write = NotificationPointTest.markedWrite(p);
        long t0 = p.fabric.clock().nanoTime();
        for (int us = 0; us < 1000; us++) {
            p.fabric.run(t0 + us * 1_000L);
            p.fabric.clock().advanceTo(t0 + us * 1_000L);
            p.b.nic.receive(org.softrnic.wire.PacketBuffer.wrap(write.clone()), 0, write.length);
        }
        p.fabric.run(t0 + 2_000_000);
        assertEquals(21, p.b.nic.counters().get(Counter.NP_CNP_SENT));
    }
}
