package org.softrnic.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.testing.RandomFrames.Link;
import org.softrnic.wire.testing.RandomFrames;

/** Each typed parse error, from a valid frame with one thing broken. */
class MalformedInputTest {
    static final int IP = 0, UDP = 20, BTH = 28;

    static byte[] frame(Opcode op, int payload) {
        Random r = new Random(op.value * 31L + payload);
        RoceFrame f = RandomFrames.frame(r, op, Link.RAW_IPV4, 0);
        RoceFrame sized = new RoceFrame(null, f.ip(), f.udp(), withPayload(f, payload), null);
        return new FrameCodec().encode(sized);
    }

    static org.softrnic.wire.packet.RocePacket withPayload(RoceFrame f, int n) {
        var p = f.roce();
        var b = p.bth();
        int pad = p.opcode().payload ? org.softrnic.wire.packet.RocePacket.padFor(n) : 0;
        var bth = new org.softrnic.wire.header.Bth(b.opcode(), b.se(), b.migReq(), pad, 0, b.pkey(), b.fecn(),
                b.becn(), b.dqpn(), b.ackReq(), b.psn());
        return new org.softrnic.wire.packet.RocePacket(bth, p.rdeth(), p.deth(), p.feth(), p.reth(), p.atomicEth(),
                p.aeth(), p.atomicAckEth(), p.immDt(), p.ieth(), p.opcode().payload ? new byte[n] : null, 0);
    }

    /** Breaks a valid SEND frame, then repairs lengths, IP checksum and ICRC so only the intended fault remains. */
    static ParseError broken(Opcode op, int payload, Consumer<byte[]> damage) {
        byte[] b = frame(op, payload);
        damage.accept(b);
        return new FrameCodec().decodeIp(b, 0).error();
    }

    static void setLength(byte[] b, int newLen) {
        b[2] = (byte) (newLen >>> 8);
        b[3] = (byte) newLen;
        b[UDP + 4] = (byte) ((newLen - 20) >>> 8);
        b[UDP + 5] = (byte) (newLen - 20);
        fixIpChecksum(b);
    }

    static void fixIpChecksum(byte[] b) {
        b[10] = b[11] = 0;
        long sum = 0;
        for (int i = 0; i < 20; i += 2) sum += (b[i] & 0xff) << 8 | (b[i + 1] & 0xff);
        while (sum >>> 16 != 0) sum = (sum & 0xffff) + (sum >>> 16);
        int c = ~(int) sum & 0xffff;
        b[10] = (byte) (c >>> 8);
        b[11] = (byte) c;
    }

    @Test
    void eachLayerNamesItsProblem() {
        assertNull(broken(Opcode.RC_SEND_ONLY, 16, b -> { }));
        assertEquals(ParseError.ICRC_MISMATCH, broken(Opcode.RC_SEND_ONLY, 16, b -> b[BTH + 12] ^= 1));
        assertEquals(ParseError.BAD_IP_CHECKSUM, broken(Opcode.RC_SEND_ONLY, 16, b -> b[8] ^= 1));
        assertEquals(ParseError.BAD_IP_VERSION, broken(Opcode.RC_SEND_ONLY, 16, b -> b[0] = 0x55));
        assertEquals(ParseError.BAD_IP_HEADER_LENGTH, broken(Opcode.RC_SEND_ONLY, 16, b -> b[0] = 0x44));
        assertEquals(ParseError.IP_FRAGMENT, broken(Opcode.RC_SEND_ONLY, 16, b -> { b[6] |= 0x20; fixIpChecksum(b); }));
        assertEquals(ParseError.BAD_IP_LENGTH, broken(Opcode.RC_SEND_ONLY, 16, b -> { b[2] = 0x7f; fixIpChecksum(b); }));
        assertEquals(ParseError.BAD_UDP_LENGTH, broken(Opcode.RC_SEND_ONLY, 16, b -> b[UDP + 5] ^= 4));
        assertEquals(ParseError.BAD_UDP_CHECKSUM, broken(Opcode.RC_SEND_ONLY, 16, b -> b[UDP + 7] = 1));
        assertEquals(ParseError.RESERVED_OPCODE, broken(Opcode.RC_SEND_ONLY, 16, b -> b[BTH] = 0x15));
        assertEquals(ParseError.RESERVED_OPCODE, broken(Opcode.RC_SEND_ONLY, 16, b -> b[BTH] = (byte) 0xa0));
        assertEquals(ParseError.UNKNOWN_OPCODE, broken(Opcode.RC_SEND_ONLY, 16, b -> b[BTH] = (byte) 0xc5));
        assertEquals(ParseError.BAD_TVER, broken(Opcode.RC_SEND_ONLY, 16, b -> b[BTH + 1] |= 1));
        assertEquals(ParseError.BAD_PAD, broken(Opcode.RC_SEND_ONLY, 0, b -> b[BTH + 1] |= 0x30));
        assertEquals(ParseError.BAD_PAD, broken(Opcode.RC_SEND_ONLY, 8, b -> setLength(b, b.length - 1)));
        assertEquals(ParseError.BAD_PAD, broken(Opcode.RC_ACKNOWLEDGE, 0, b -> b[BTH + 1] |= 0x10));
        // an ACK (BTH+AETH+ICRC = 20 bytes) relabelled as RDMA WRITE FIRST, which needs a 16-byte RETH
        assertEquals(ParseError.MISSING_HEADERS, broken(Opcode.RC_ACKNOWLEDGE, 0, b -> b[BTH] = 0x06));
        // a SEND ONLY with 8 payload bytes relabelled as ACK leaves 4 bytes after the AETH, where an ACK has none
        assertEquals(ParseError.LENGTH_MISMATCH, broken(Opcode.RC_SEND_ONLY, 8, b -> b[BTH] = 0x11));
        assertEquals(ParseError.LENGTH_MISMATCH, broken(Opcode.RC_SEND_ONLY, 16, b -> b[BTH] = 0x1d));
        assertEquals(ParseError.TRUNCATED, new FrameCodec().decodeIp(Arrays.copyOf(frame(Opcode.RC_SEND_ONLY, 0), 10), 0).error());
    }

    @Test
    void shortTransportPacketIsTruncated() {
        byte[] b = frame(Opcode.RC_ACKNOWLEDGE, 0);
        byte[] cut = Arrays.copyOf(b, BTH + 14);
        setLength(cut, cut.length);
        DecodedFrame d = new FrameCodec().decodeIp(cut, 0);
        assertEquals(ParseError.TRUNCATED, d.error());
        assertFalse(d.icrcOk());
    }

    @Test
    void everyTruncationOfEveryOpcodeIsTyped() {
        for (Opcode op : Opcode.values()) {
            byte[] b = frame(op, 40);
            for (int len = 0; len < b.length; len++) {
                byte[] cut = Arrays.copyOf(b, len);
                DecodedFrame d = new FrameCodec().decodeIp(cut, 0);
                assertFalse(d.icrcOk(), op + " cut to " + len);
                if (len >= BTH) {
                    setLength(cut, len);
                    DecodedFrame fixed = new FrameCodec().decodeIp(cut, 0);
                    assertFalse(fixed.icrcOk() && len < b.length, op + " relabelled at " + len);
                }
            }
        }
    }
}
