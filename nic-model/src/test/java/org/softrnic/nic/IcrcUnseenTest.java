package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.FrameView;

/**
 * On a link where no one outside the process sees the packets, the ICRC costs nothing: it is neither stamped
 * nor checked, unless a tap reads the packets, which then carry the ICRC they would carry on a wire.
 */
class IcrcUnseenTest {
    private static int icrc(byte[] ipPacket) {
        int n = ipPacket.length;
        return (ipPacket[n - 4] & 0xff) | (ipPacket[n - 3] & 0xff) << 8 | (ipPacket[n - 2] & 0xff) << 16 | (ipPacket[n - 1] & 0xff) << 24;
    }

    @Test
    void noIcrcIsComputedOrCheckedWhereNoOneSeesIt() {
        Pair p = Pair.rcInProcess();
        p.write64k();
        Counters b = p.b.nic.counters();
        assertTrue(b.get(Counter.RCVD_PKTS) >= 64, b.toString());
        assertEquals(0, b.get(Counter.RCVD_ICRC_VERIFIED), "nothing checked");
        assertEquals(0, b.get(Counter.DROP_BAD_ICRC));
        for (var packet : p.fabric.trace()) assertEquals(0, icrc(packet.bytes()), "nothing stamped");
    }

    @Test
    void aTapOnEitherSideSeesTheIcrcAWireWouldCarry() {
        Pair p = Pair.rcInProcess();
        List<byte[]> received = new ArrayList<>();
        List<byte[]> sent = new ArrayList<>();
        PacketSink in = (buf, off, len) -> received.add(buf.segment.asSlice(off, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        PacketSink out = (buf, off, len) -> sent.add(buf.segment.asSlice(off, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        p.b.nic.tap(in, (buf, off, len) -> true);
        p.a.nic.tap((buf, off, len) -> true, out);
        p.write64k();
        assertTrue(received.size() >= 64 && sent.size() >= 64, received.size() + " received, " + sent.size() + " sent");
        FrameView v = new FrameView();
        for (List<byte[]> packets : List.of(received, sent)) {
            for (byte[] packet : packets) {
                assertNull(v.wrapIp(PacketBuffer.wrap(packet), 0, packet.length));
                assertTrue(v.isRoce());
                assertNull(v.verifyIcrc(), "the ICRC verifies");
            }
        }
        assertEquals(0, p.b.nic.counters().get(Counter.RCVD_ICRC_VERIFIED), "the device itself still checks nothing");
    }
}
