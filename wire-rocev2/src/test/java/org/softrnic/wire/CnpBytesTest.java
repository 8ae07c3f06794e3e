package org.softrnic.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.packet.RocePacket;

/**
 * RoCEv2 CNPs as NICs put them on the wire (opcode 0x81, BECN, the QP to throttle, PSN 0, 16 reserved bytes):
 * a ConnectX-4 Lx capture (scapy's test/contrib/roce.uts) and the Mellanox KB example (as libconntrack-cm's
 * test_cnp.cpp reproduces it; the KB's own printed ICRC, e42dad81, is wrong). Both decode to their records and
 * encode back byte for byte, ICRC included.
 */
class CnpBytesTest {
    /** ConnectX-4 Lx: TOS 0xC2 (DSCP 48, ECT(0)), 10.0.17.1 -> 10.0.18.1, UDP source port 0, DestQP 0x118. */
    static final byte[] CX4_LX = HexFormat.of().parseHex("45c2003c718c400040119161" + "0a0011010a001201"
            + "000012b700280000" + "8100ffff4000011800000000" + "00".repeat(16) + "82fd002a");

    /** The KB example: TOS 0x89 (DSCP 34, ECT(1)), TTL 32, UDP source port 56238, DestQP 0xD2. */
    static final byte[] KB = HexFormat.of().parseHex("4589003C98C640002011692716161608" + "16161607DBAE12B7002800008100FFFF"
            + "400000D2000000000000000000000000" + "0000000000000000DAFC1BEF");

    @Test
    void aConnectX4CnpDecodesAndEncodesBackByteForByte() {
        DecodedFrame d = new FrameCodec().decodeIp(CX4_LX, 0);
        assertTrue(d.icrcOk(), d::errorMessage);
        Ipv4 ip = (Ipv4) d.ip();
        assertEquals(48, ip.dscp());
        assertEquals(2, ip.ecn(), "ECT(0)");
        RocePacket p = d.packet();
        assertEquals(new Bth(Opcode.CNP, false, false, 0, 0, 0xffff, false, true, 0x118, false, 0), p.bth());
        assertEquals(0, p.payloadLength());
        assertEquals("82fd002a", DecodedFrame.icrcHex(p.icrc()));
        assertEquals(60, CX4_LX.length, "IP 60 B: 20 + UDP 8 + BTH 12 + 16 reserved + ICRC 4");
        assertArrayEquals(CX4_LX, new FrameCodec().encode(d.toRoceFrame()));
    }

    /** What a device sends: its QP's template (TOS 0 here), then the CNP's own DSCP 48 and ECT(0) over it. */
    @Test
    void theFrameWriterBuildsTheConnectX4CnpFromAQpTemplate() throws Exception {
        var src = (java.net.Inet4Address) java.net.InetAddress.getByName("10.0.17.1");
        var dst = (java.net.Inet4Address) java.net.InetAddress.getByName("10.0.18.1");
        org.softrnic.wire.frame.FrameTemplate qp = org.softrnic.wire.frame.FrameTemplate.of(null, Ipv4.roce(src, dst, 0, 0, 0),
                org.softrnic.wire.frame.Udp.roce(0));
        byte[] out = new byte[128];
        PacketBuffer buf = PacketBuffer.wrap(out);
        java.util.Arrays.fill(out, (byte) 0x5a); // a reused buffer: the 16 reserved bytes must come out zero
        org.softrnic.wire.frame.FrameWriter w = new org.softrnic.wire.frame.FrameWriter().begin(buf, 8, qp, Opcode.CNP);
        w.trafficClass(0xc2);
        w.bth().pkey(0xffff).ecn(false, true).dqpn(0x118).psn(0);
        int len = w.finish(0, 0x718c);
        assertArrayEquals(CX4_LX, java.util.Arrays.copyOfRange(out, 8, 8 + len));
    }

    @Test
    void theKbExampleCarriesTheIcrcRecomputedFromItsBytes() {
        DecodedFrame d = new FrameCodec().decodeIp(KB, 0);
        assertTrue(d.icrcOk(), d::errorMessage);
        assertEquals(0xd2, d.packet().bth().dqpn());
        assertTrue(d.packet().bth().becn());
        assertEquals("dafc1bef", DecodedFrame.icrcHex(d.packet().icrc()));
        assertArrayEquals(KB, new FrameCodec().encode(d.toRoceFrame()));
    }
}
