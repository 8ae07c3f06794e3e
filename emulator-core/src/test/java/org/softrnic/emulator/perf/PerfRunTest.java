package org.softrnic.emulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.softrnic.nic.qp.Mtu;

/** `softrnic perf` on the in-process fabric: every operation verifies, loss is survived, seeds replay. */
class PerfRunTest {
    static PerfOptions opts(PerfOp op, int size, double loss, long seed) {
        return new PerfOptions(op, size, 200, 2, Mtu.MTU_1024, loss, seed, true, 32);
    }

    @Test
    void everyOperationCompletesAndVerifies() {
        for (PerfOp op : PerfOp.values()) {
            PerfResult r = PerfRun.run(opts(op, 5000, 0, 1));
            assertNull(r.error(), op + ": " + r.error());
            assertEquals(400, r.iterations());
            assertEquals(Boolean.TRUE, r.verified(), op + " verified");
            assertTrue(r.bwAverageMBps() > 0 && r.msgRateMpps() > 0);
            assertEquals(0, r.retransmissions());
        }
    }

    @Test
    void lossIsRecoveredAndTheSameSeedReplaysTheSameTraffic() {
        PerfResult a = PerfRun.run(opts(PerfOp.WRITE, 3000, 0.05, 7));
        PerfResult b = PerfRun.run(opts(PerfOp.WRITE, 3000, 0.05, 7));
        assertNull(a.error());
        assertEquals(Boolean.TRUE, a.verified());
        assertTrue(a.dropped() > 0 && a.retransmissions() > 0, "5 % loss made the link drop and the QPs retry");
        assertEquals(a.packets(), b.packets(), "the seed replays the run packet for packet");
        assertEquals(a.dropped(), b.dropped());
        assertTrue(PerfRun.run(opts(PerfOp.WRITE, 3000, 0.05, 8)).packets() != a.packets(), "another seed, another run");
    }

    @Test
    void badOptionsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> opts(PerfOp.WRITE, -1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> opts(PerfOp.WRITE, 10, 1.0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PerfOptions(PerfOp.SEND, 10, 0, 1, Mtu.MTU_1024, 0, 1, false, 8));
    }
}
