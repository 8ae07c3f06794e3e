package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;

/**
 * Two soft RNICs whose frame ports face each other on one qemu-style socket link: they find each other by ARP,
 * every RoCE packet's ICRC is checked on arrival, and with loss=5 % at one end RC still moves every byte, by
 * retransmitting.
 */
class FramePortTest {
    @Test
    void rcOverAFrameLinkMovesEveryByteWithEveryIcrcChecked() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.FRAMES, FaultConfig.NONE, Mtu.MTU_1024)) {
            // One small WRITE first: the TCP link is accepted and ARP answered while it crosses. Until then a
            // frame port holds 64 frames for an unresolved peer, as the kernel's unres_qlen, and drops the oldest,
            // so on a slow machine a burst sent before the answer loses some (CI saw 65) and RC resends them.
            writeAndCheck(p, 1, 64);
            Map<String, Long> beforeA = p.devA.counters();
            Map<String, Long> beforeB = p.devB.counters();
            writeAndCheck(p, 16, 65536);
            for (SoftRnic d : new SoftRnic[] {p.devA, p.devB}) {
                Map<String, Long> before = d == p.devA ? beforeA : beforeB;
                Map<String, Long> c = d.counters();
                assertTrue(c.get("rcvd_icrc_verified") > before.get("rcvd_icrc_verified"), c.toString());
                assertEquals(0L, c.get("drop_bad_icrc"));
                for (String k : new String[] {"link_dropped", "rcvd_seq_err", "completer_retry_err"})
                    assertEquals(before.get(k), c.get(k), "nothing was lost once the peer was known (" + k + "): " + c);
            }
        }
    }

    @Test
    void lossAtTheFramePortIsRecoveredByRetransmission() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.FRAMES_LOSSY, FaultConfig.NONE, Mtu.MTU_1024)) {
            writeAndCheck(p, 40, 16384);
            Map<String, Long> a = p.devA.counters();
            Map<String, Long> b = p.devB.counters();
            assertTrue(a.get("link_dropped") > 0, "A's port dropped packets: " + a);
            assertTrue(a.get("rcvd_seq_err") + a.get("completer_retry_err") > 0, "A went back and sent again: " + a);
            assertTrue(b.get("out_of_seq_request") + b.get("duplicate_request") > 0, "B saw the gap or the repeat: " + b);
        }
    }

    /**
     * rxe's check_addr on the frame path: B's second QP expects its peer at 10.9.0.3, so A's packets to it, from
     * 10.9.0.1, are dropped and counted (drop_wrong_peer), write nothing, and end A's WRITE in
     * IBV_WC_RETRY_EXC_ERR; the pair next to it carries its data as before.
     */
    @Test
    void aQpTakesNothingFromAnAddressThatIsNotItsPeer() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.FRAMES, FaultConfig.NONE, Mtu.MTU_1024)) {
            QueuePair qa = p.keep(p.pdA.createQp(QpInitAttr.rc(p.cqA, new QpCaps(4, 4, 1, 1, 0))));
            QueuePair qb = p.keep(p.pdB.createQp(QpInitAttr.rc(p.cqB, new QpCaps(4, 4, 1, 1, 0))));
            QpAttr toB = p.connect(p.b, qb, Mtu.MTU_1024);
            toB.timeout = 8; // about 1 ms: the WRITE gives up soon
            toB.retryCnt = 1;
            qa.modifyToRts(toB);
            QpAttr toElsewhere = QpAttr.rcConnect(Gid.parse("10.9.0.3"), qa.qpn(), Mtu.MTU_1024);
            qb.modifyToRts(toElsewhere);
            MemorySegment b = p.memB();
            b.asSlice(0, 4096).fill((byte) 0x5a);
            p.memA().asSlice(0, 4096).fill((byte) 1);
            SendWr wr = new SendWr(1).sge(p.mrA.addr(), 4096, p.mrA.lkey());
            wr.opcode = SendOpcode.RDMA_WRITE;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.remoteAddr = p.mrB.addr();
            wr.rkey = p.mrB.rkey();
            qa.postSend(wr);
            WorkCompletion wc = ApiPair.await(p.cqA, 1).getFirst();
            assertEquals(WcStatus.RETRY_EXC_ERR, wc.status, wc.toString());
            // with a 1 ms timeout A may give up before its packets have crossed the link: B counts them as they come
            long until = System.nanoTime() + 5_000_000_000L;
            while (p.devB.counters().get("drop_wrong_peer") == 0 && System.nanoTime() < until) Thread.sleep(5);
            assertTrue(p.devB.counters().get("drop_wrong_peer") > 0, p.devB.counters().toString());
            for (int i = 0; i < 4096; i++) assertEquals((byte) 0x5a, b.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " written");
            writeAndCheck(p, 4, 4096);
        }
    }

    /** {@code n} signalled WRITEs of {@code size} random bytes from A to B, each to its own place; B's memory must match. */
    private static void writeAndCheck(ApiPair p, int n, int size) {
        MemorySegment a = p.memA();
        MemorySegment b = p.memB();
        byte[] data = new byte[n * size];
        new Random(11).nextBytes(data);
        MemorySegment.copy(data, 0, a, ValueLayout.JAVA_BYTE, 0, data.length);
        SendWr wr = new SendWr(1);
        wr.opcode = SendOpcode.RDMA_WRITE;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.rkey = p.mrB.rkey();
        for (int i = 0; i < n; i++) {
            wr.sge(p.mrA.addr() + (long) i * size, size, p.mrA.lkey());
            wr.remoteAddr = p.mrB.addr() + (long) i * size;
            wr.wrId = i;
            p.qpA.postSend(wr);
        }
        for (int i = 0; i < n; i++) ApiPair.awaitOk(p.cqA);
        assertEquals(-1L, a.asSlice(0, data.length).mismatch(b.asSlice(0, data.length)), "B holds exactly what A wrote");
    }
}
