package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.PacketBuffer;

/**
 * {@link Nic#warm} only reads: whatever a link hands it (packets too short or not IP, QPNs that exist or not,
 * more packets than a burst, offsets and lengths outside the buffer), it reads inside each packet's length,
 * throws nothing and changes nothing a packet could, and the device then receives as before.
 */
class WarmTest {
    @Test
    void warmingAnyBytesChangesNothing() {
        Pair p = Pair.rc();
        Random r = new Random(7);
        int n = Nic.BURST + 8;
        PacketBuffer[] buffers = new PacketBuffer[n];
        int[] offsets = new int[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            byte[] bytes = new byte[r.nextInt(100)];
            r.nextBytes(bytes);
            if (bytes.length > 0 && i % 4 == 0) bytes[0] = 0x45; // IPv4: the BTH's QPN is at 33-35
            if (bytes.length > 0 && i % 4 == 1) bytes[0] = 0x60; // IPv6: at 53-55
            if (bytes.length >= 36 && i % 8 == 0) {
                int qpn = p.b.qp.qpn();
                bytes[33] = (byte) (qpn >>> 16);
                bytes[34] = (byte) (qpn >>> 8);
                bytes[35] = (byte) qpn;
            }
            // each packet is exactly its segment: a read past its length would throw
            buffers[i] = PacketBuffer.wrap(bytes);
            lengths[i] = bytes.length;
        }
        Map<String, Long> before = p.b.nic.counters().snapshot();
        p.b.nic.warm(buffers, offsets, lengths, 0, n);
        p.b.nic.warm(buffers, offsets, lengths, 5, 3);
        // a link's mistakes: a negative offset, a length past the buffer, a packet further in its buffer, IHL 1
        byte[] real = new byte[64];
        real[8] = 0x41;
        real[8 + 35] = (byte) p.b.qp.qpn();
        PacketBuffer one = PacketBuffer.wrap(real);
        p.b.nic.warm(new PacketBuffer[] {one, one, one, one}, new int[] {-4, 0, 8, 60}, new int[] {40, 65, 56, 40}, 0, 4);
        assertEquals(before, p.b.nic.counters().snapshot());

        p.b.postRecv(1, 0, 64);
        p.a.fill(0, 64, 3);
        p.a.post(p.a.wr(2, SendOpcode.SEND, 0, 64));
        p.run();
        List<WorkCompletion> got = p.b.recvCompletions();
        assertEquals(1, got.size());
        assertEquals(WcStatus.SUCCESS, got.get(0).status);
        for (int i = 0; i < 64; i++) {
            assertEquals(p.a.mem.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i), p.b.mem.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i), "byte " + i);
        }
    }

    /**
     * A post to a QP the device destroyed (which the engine no longer knows) gets ibv_post_send's own error, not one
     * from the engine, and the device goes on.
     */
    @Test
    void aPostToADestroyedQpGetsThePostsOwnError() {
        Pair p = Pair.rc();
        var qa = p.a.nic.createQp(p.a.pd, org.softrnic.verbs.QpType.RC, p.a.scq, p.a.rcq, null,
                new org.softrnic.verbs.QpCaps(4, 4, 1, 1, 0), false);
        p.a.nic.destroyQp(qa);
        org.softrnic.verbs.SendWr w = p.a.wr(1, SendOpcode.RDMA_WRITE, 0, 8);
        var e = org.junit.jupiter.api.Assertions.assertThrows(org.softrnic.verbs.VerbsException.class, () -> p.a.nic.postSend(qa, w));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith("ibv_post_send"), e.getMessage());
        // the device goes on
        p.a.fill(0, 64, 5);
        p.a.post(p.write(2, 0, 0, 64));
        p.run();
        assertEquals(WcStatus.SUCCESS, p.a.sendCompletions().get(0).status);
    }
}
