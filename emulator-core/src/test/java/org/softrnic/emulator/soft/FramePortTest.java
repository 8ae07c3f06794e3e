package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.verbs.Mtu;
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
            writeAndCheck(p, 16, 65536);
            for (SoftRnic d : new SoftRnic[] {p.devA, p.devB}) {
                Map<String, Long> c = d.counters();
                assertTrue(c.get("rcvd_icrc_verified") > 0, c.toString());
                assertEquals(0L, c.get("drop_bad_icrc"));
                assertEquals(0L, c.get("rcvd_seq_err") + c.get("completer_retry_err"), "nothing was lost: " + c);
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
