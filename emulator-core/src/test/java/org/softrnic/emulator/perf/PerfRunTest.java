package org.softrnic.emulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.softrnic.verbs.Mtu;

/** `softrnic perf` on the in-process fabric: every operation verifies, loss is survived, seeds replay. */
class PerfRunTest {
    static PerfOptions opts(PerfOp op, int size, double loss, long seed) {
        return new PerfOptions(op, "inproc", size, 200, 2, Mtu.MTU_1024, loss, seed, true, 32);
    }

    @Test
    void everyOperationCompletesAndVerifies() {
        for (PerfOp op : PerfOp.values()) {
            PerfResult r = PerfRun.run(opts(op, 5000, 0, 1));
            assertNull(r.error(), op + ": " + r.error());
            assertEquals(400, r.iterations());
            assertEquals(Boolean.TRUE, r.verified(), op + " verified");
            assertTrue(r.bwAverageMBps() > 0 && r.msgRateMpps() > 0);
            assertEquals(0, r.retryEpisodes());
        }
    }

    @Test
    void lossIsRecoveredAndTheSameSeedReplaysTheSameTraffic() {
        PerfResult a = PerfRun.run(opts(PerfOp.WRITE, 3000, 0.05, 7));
        PerfResult b = PerfRun.run(opts(PerfOp.WRITE, 3000, 0.05, 7));
        assertNull(a.error());
        assertEquals(Boolean.TRUE, a.verified());
        assertTrue(a.dropped() > 0 && a.retryEpisodes() > 0, "5 % loss made the link drop and the QPs retry");
        assertEquals(a.packets(), b.packets(), "the seed replays the run packet for packet");
        assertEquals(a.dropped(), b.dropped());
        assertTrue(PerfRun.run(opts(PerfOp.WRITE, 3000, 0.05, 8)).packets() != a.packets(), "another seed, another run");
    }

    @Test
    void everyOperationVerifiesOverUdpLoopback() {
        int port = 20000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(20000);
        for (PerfOp op : PerfOp.values()) {
            PerfResult r = PerfRun.run(new PerfOptions(op, "udp:127.0.0.1:" + port, 5000, 200, 2, Mtu.MTU_1024, 0, 1,
                    true, 32));
            assertNull(r.error(), op + ": " + r.error());
            assertEquals(Boolean.TRUE, r.verified(), op + " over UDP");
            assertTrue(r.link().startsWith("udp 127.0.0.1 <-> 127.0.0.2"), r.link());
            Latency l = r.latency();
            assertEquals(r.iterations(), l.samples(), "one latency sample per completion");
            assertTrue(0 < l.minUsec() && l.minUsec() <= l.typicalUsec() && l.typicalUsec() <= l.p99Usec()
                    && l.p99Usec() <= l.p999Usec() && l.p999Usec() <= l.maxUsec(), l.toString());
        }
    }

    /** --loss over UDP drops what each device sends before its socket (the in-process fault model); RC recovers. */
    @Test
    void lossOverUdpIsRecovered() {
        int port = 20000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(20000);
        PerfResult r = PerfRun.run(new PerfOptions(PerfOp.WRITE, "udp:127.0.0.1:" + port, 16384, 200, 2, Mtu.MTU_1024, 0.05, 7,
                true, 32));
        assertNull(r.error(), r.error());
        assertEquals(Boolean.TRUE, r.verified());
        assertTrue(r.dropped() > 0 && r.retryEpisodes() > 0, "5 % loss made the link drop and the QPs retry: " + r.dropped());
    }

    /** Both ends on ::1 (IPv6 has one loopback address); the IPv6 ICRC is checked exactly, so nothing is unverified. */
    @Test
    void everyOperationVerifiesOverIpv6Loopback() {
        int port = 20000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(20000);
        for (PerfOp op : PerfOp.values()) {
            PerfResult r;
            try {
                r = PerfRun.run(new PerfOptions(op, "udp:[::1]:" + port, 5000, 200, 2, Mtu.MTU_1024, 0, 1, true, 32));
            } catch (IllegalArgumentException e) {
                org.junit.jupiter.api.Assumptions.abort("no IPv6 loopback here: " + e.getMessage());
                return;
            }
            assertNull(r.error(), op + ": " + r.error());
            assertEquals(Boolean.TRUE, r.verified(), op + " over IPv6");
            assertTrue(r.link().startsWith("udp [::1] ports " + port), r.link());
            for (var counters : java.util.List.of(r.clientCounters(), r.serverCounters())) {
                assertEquals(counters.get("rcvd_pkts"), counters.get("rcvd_icrc_verified"), op.toString());
            }
        }
    }

    /** perftest's DEF_RX_SEND: receives posted ahead whatever the tx depth, bounded by the run and one CQ. */
    @Test
    void aSendRunKeepsPerftestsReceiveDepthPostedAhead() {
        assertEquals(512, new PerfOptions(PerfOp.SEND, "inproc", 64, 40000, 1, Mtu.MTU_1024, 0, 1, false, 1).rxDepth());
        assertEquals(10, new PerfOptions(PerfOp.SEND, "inproc", 64, 10, 1, Mtu.MTU_1024, 0, 1, false, 1).rxDepth());
        assertEquals(1024, new PerfOptions(PerfOp.SEND, "inproc", 64, 40000, 1, Mtu.MTU_1024, 0, 1, false, 1024).rxDepth());
        assertEquals(3, new PerfOptions(PerfOp.SEND, "inproc", 64, 40000, 10000, Mtu.MTU_1024, 0, 1, false, 1).rxDepth());
    }

    /**
     * A latency run (one SEND outstanding) between a server and a client that each drive their own device, as two
     * processes do: the server's receives are posted ahead, so no SEND meets an RNR NAK while it is between polls.
     */
    @Test
    void aSendLatencyRunBetweenTwoDevicesMeetsNoRnrNak() throws Exception {
        int port = 20000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(20000);
        int oob = port + 1;
        var listening = new java.util.concurrent.CountDownLatch(1);
        var served = new java.util.concurrent.atomic.AtomicReference<Object>();
        PerfOptions server = new PerfOptions(PerfOp.SEND, "udp:127.0.0.31:" + port, 64, 1, 1, Mtu.MTU_1024, 0, 1, false, 1);
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                served.set(PerfRun.serve(server, oob, 30, listening::countDown));
            } catch (RuntimeException e) {
                served.set(e);
                listening.countDown();
            }
        });
        assertTrue(listening.await(30, java.util.concurrent.TimeUnit.SECONDS));
        PerfResult r = PerfRun.connect(new PerfOptions(PerfOp.SEND, "udp:127.0.0.32:" + port, 64, 20000, 1, Mtu.MTU_1024, 0, 1,
                true, 1), "127.0.0.31", oob, PerfProgress.NONE);
        t.join(30_000);
        assertNull(r.error(), r.error());
        assertTrue(served.get() instanceof PerfServerReport, String.valueOf(served.get()));
        assertEquals(Boolean.TRUE, r.verified());
        assertEquals(0L, r.clientCounters().get("rcvd_rnr_err"), "RNR NAKs the client met: " + r.clientCounters());
        assertEquals(0L, r.serverCounters().get("send_rnr_err"), "RNR NAKs the server sent: " + r.serverCounters());
    }

    @Test
    void aCompletionOutOfItsQpsOrderIsNamedLostOrDoubled() {
        long wrId = (7L << 32) | 5; // QP index 7, its sixth request
        assertNull(PerfClient.sequenceError(0x11, wrId, 5));
        assertTrue(PerfClient.sequenceError(0x11, wrId, 6).startsWith("a completion doubled: QP 0x11"),
                PerfClient.sequenceError(0x11, wrId, 6));
        assertTrue(PerfClient.sequenceError(0x11, wrId, 4).startsWith("a completion lost: QP 0x11"),
                PerfClient.sequenceError(0x11, wrId, 4));
        // the index rides in 32 bits: the 2^32nd request is request 0 again
        assertNull(PerfClient.sequenceError(0x11, 7L << 32, 1L << 32));
    }

    @Test
    void latencySummaryTakesRanksFromTheSortedSamples() {
        long[] nanos = new long[1000];
        for (int i = 0; i < nanos.length; i++) nanos[i] = (nanos.length - i) * 1000L; // 1..1000 usec, reversed
        Latency l = Latency.of(nanos, nanos.length);
        assertEquals(1.0, l.minUsec());
        assertEquals(501.0, l.typicalUsec());
        assertEquals(990.0, l.p99Usec());
        assertEquals(999.0, l.p999Usec());
        assertEquals(1000.0, l.maxUsec());
        assertNull(Latency.of(nanos, 0));
    }

    @Test
    void badLinksAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PerfRun.run(new PerfOptions(PerfOp.WRITE, "udp:192.0.2.1", 10,
                1, 1, Mtu.MTU_1024, 0, 1, false, 8)));
        for (String link : new String[] {"tap:x", "udp:[::1", "udp:[::1]x", "udp:[2001:db8::1]", "udp:1:2:3",
                "udp:127.0.0.1:0", "udp:127.0.0.1:70000", "udp:localhost", "udp:127.0.0.1:", "udp:", "udp:[::1]:"}) {
            assertThrows(IllegalArgumentException.class, () -> PerfRun.run(new PerfOptions(PerfOp.WRITE, link, 10,
                    1, 1, Mtu.MTU_1024, 0, 1, false, 8)), link);
        }
    }

    @Test
    void badOptionsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> opts(PerfOp.WRITE, -1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> opts(PerfOp.WRITE, 10, 1.0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PerfOptions(PerfOp.SEND, "inproc", 10, 0, 1, Mtu.MTU_1024, 0, 1, false, 8));
    }
}
