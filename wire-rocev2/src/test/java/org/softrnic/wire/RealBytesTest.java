package org.softrnic.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.FrameView;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.AethType;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.icrc.Icrc;
import org.softrnic.wire.packet.RocePacket;

/** Bytes rxe put on the wire (netns_minipeer.pcap frames 45 and 46) next to the records they must give. */
class RealBytesTest {
    /** rxe's RC ACK: DestQP 0x123, PSN 680949, syndrome 0x1f, MSN 1. */
    static final byte[] RXE_ACK = HexFormat.of().parseHex(
            "26e1384b98ab52540012340108004500"
            + "0030bf6940004011f6edc0000201c000"
            + "0264d35312b7001c00001100ffff0000"
            + "0123000a63f51f00000134d0d1a2");

    /** The hand-built peer's RC SEND ONLY, 64 bytes of 0x7b, AckReq set. */
    static final byte[] PEER_SEND = HexFormat.of().parseHex(
            "525400123401" + "26e1384b98ab" + "0800" + "4500006c42434000401173d8c0000264c0000201"
            + "c34f12b700580000" + "0400ffff00000011800a63f5" + "7b".repeat(64) + "29e1c28d");

    @Test
    void rxeAckDecodesToItsRecord() {
        DecodedFrame d = new FrameCodec().decodeEthernet(RXE_ACK);
        assertTrue(d.icrcOk(), d::errorMessage);
        assertEquals(new Ethernet(0x26e1384b98abL, 0x525400123401L, -1, 0x0800), d.ethernet());
        Ipv4 ip = (Ipv4) d.ip();
        assertEquals("192.0.2.1", ip.src().getHostAddress());
        assertEquals("192.0.2.100", ip.dst().getHostAddress());
        assertEquals(0xbf69, ip.id());
        assertTrue(ip.df());
        assertEquals(64, ip.ttl());
        assertEquals(0, ip.dscp());
        assertEquals(0xd353, d.udp().sport());
        assertEquals(4791, d.udp().dport());
        assertEquals(0, d.udp().checksum());
        RocePacket p = d.packet();
        assertEquals(new Bth(Opcode.RC_ACKNOWLEDGE, false, false, 0, 0, 0xffff, false, false, 0x123, false, 680949),
                p.bth());
        assertEquals(new Aeth(0x1f, 1), p.aeth());
        assertEquals(AethType.ACK, p.aeth().type());
        assertEquals("ACK credits=invalid", p.aeth().describe());
        assertEquals("34d0d1a2", DecodedFrame.icrcHex(p.icrc()));
        assertArrayEquals(RXE_ACK, new FrameCodec().encode(d.toRoceFrame()));
    }

    @Test
    void zeroCopyViewReadsTheSameFields() {
        FrameView v = new FrameView();
        assertNull(v.wrapAndVerify(PacketBuffer.wrap(PEER_SEND), 0, PEER_SEND.length, true));
        assertTrue(v.isRoce());
        assertEquals(Opcode.RC_SEND_ONLY, v.roce.opcode());
        assertEquals(0x11, v.roce.bth().dqpn());
        assertTrue(v.roce.bth().ackReq());
        assertEquals(0x0a63f5, v.roce.bth().psn());
        assertEquals(64, v.roce.payloadLength());
        assertEquals(14 + 20 + 8 + 12, v.roce.payloadOffset());
        assertEquals(0x4243, v.ipv4().id());
        assertEquals(0xc34f, v.udp().sport());
    }

    @Test
    void everyCoveredByteChangesTheIcrcAndMaskedBytesDoNot() {
        Icrc icrc = new Icrc();
        int ipOff = 14;
        int roceOff = ipOff + 20 + 8;
        int roceLen = PEER_SEND.length - roceOff;
        int original = icrc.compute(PacketBuffer.wrap(PEER_SEND), ipOff, 4, roceOff, roceLen);
        for (int i = ipOff; i < PEER_SEND.length - 4; i++) {
            byte[] b = PEER_SEND.clone();
            b[i] ^= 0x01;
            int rel = i - ipOff;
            // IPv4 TOS, TTL, checksum; UDP checksum; BTH byte 4
            boolean masked = rel == 1 || rel == 8 || rel == 10 || rel == 11 || rel == 26 || rel == 27 || rel == 32;
            int changed = icrc.compute(PacketBuffer.wrap(b), ipOff, 4, roceOff, roceLen);
            assertEquals(masked, changed == original, "byte " + i);
        }
    }

    @Test
    void changedBytesAreReported() {
        byte[] b = PEER_SEND.clone();
        b[b.length - 10] ^= 0x40; // payload byte
        DecodedFrame d = new FrameCodec().decodeEthernet(b);
        assertEquals(ParseError.ICRC_MISMATCH, d.error());
        assertEquals("29e1c28d", DecodedFrame.icrcHex(d.icrcFound()));
        assertFalse(d.icrcOk());
        assertTrue(d.errorMessage().startsWith("ICRC mismatch: expected "));

        byte[] t = Arrays.copyOf(PEER_SEND, 14 + 20 + 8 + 10);
        assertEquals(ParseError.BAD_IP_LENGTH, new FrameCodec().decodeEthernet(t).error());
    }
}
