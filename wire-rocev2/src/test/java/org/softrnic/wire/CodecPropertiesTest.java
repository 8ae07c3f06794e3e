package org.softrnic.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.Ipv6;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.testing.RandomFrames.Link;
import org.softrnic.wire.testing.RandomFrames;

/**
 * QuickTheories properties of the codec. A failure prints the generated value and QuickTheories' seed;
 * {@code qt().withFixedSeed(seed)} replays it.
 */
class CodecPropertiesTest {
    private static final Gen<Opcode> OPCODES = arbitrary().enumValues(Opcode.class);
    private static final Gen<Link> LINKS = arbitrary().enumValues(Link.class);
    private static final Gen<RoceFrame> FRAMES = OPCODES.zip(LINKS, longs().all(),
            (op, link, seed) -> RandomFrames.frame(new Random(seed), op, link, 300));

    @Test
    void encodeThenParseReturnsTheSameRecord() {
        qt().withExamples(3000).forAll(FRAMES).checkAssert(f -> {
            FrameCodec codec = new FrameCodec();
            byte[] wire = codec.encode(f);
            DecodedFrame d = f.ethernet() == null ? codec.decodeIp(wire, 0) : codec.decodeEthernet(wire);
            assertNull(d.error(), () -> d.errorMessage() + " for " + f);
            assertEquals(f.roce().withIcrc(d.icrcFound()), d.packet());
            assertEquals(f.ethernet(), d.ethernet());
            assertEquals(f.udp().sport(), d.udp().sport());
            assertEquals(f.ip().src(), d.ip().src());
            assertEquals(f.ip().dst(), d.ip().dst());
            assertEquals(f.ip().dscp(), d.ip().dscp());
            assertEquals(f.ip().ecn(), d.ip().ecn());
            assertEquals(f.ip().ttl(), d.ip().ttl());
            if (f.ip() instanceof Ipv4 v4) assertEquals(v4.id(), ((Ipv4) d.ip()).id());
            if (f.ip() instanceof Ipv6 v6) assertEquals(v6.flowLabel(), ((Ipv6) d.ip()).flowLabel());
            assertArrayEquals(wire, codec.encode(d.toRoceFrame()), "re-encoding the parsed record");
        });
    }

    /**
     * A single flipped bit is caught (typed error, ICRC mismatch, or no longer RoCEv2 traffic), unless it lies
     * in a field the ICRC deliberately leaves out because the network may change it: the BTH FECN/BECN byte,
     * the UDP checksum, and IPv6 traffic class, flow label and hop limit (IPv4's are caught by the header
     * checksum). Then the packet still verifies.
     */
    @Test
    void flippingAnyBitIsDetectedUnlessTheIcrcMasksThatField() {
        Gen<RoceFrame> raw = OPCODES.zip(arbitrary().pick(Link.RAW_IPV4, Link.RAW_IPV6), longs().all(),
                (op, link, seed) -> RandomFrames.frame(new Random(seed), op, link, 64));
        qt().withExamples(1500).forAll(raw, integers().allPositive()).checkAssert((f, pick) -> {
            FrameCodec codec = new FrameCodec();
            byte[] wire = codec.encode(f);
            int bit = pick % (wire.length * 8);
            wire[bit / 8] ^= (byte) (0x80 >>> (bit % 8));
            DecodedFrame d = codec.decodeIp(wire, 0);
            if (d.error() != null || !d.roce()) return;
            int ipLen = f.ip().headerLength();
            int b = bit / 8;
            boolean masked = b == ipLen + 6 || b == ipLen + 7            // UDP checksum
                    || b == ipLen + 8 + 4                                 // BTH FECN, BECN, resv6a
                    || (f.ip().version() == 6 && (b < 4 || b == 7));      // IPv6 TC, flow label, hop limit
            assertTrue(masked, () -> "bit " + bit + " (byte " + b + ") flipped undetected in " + f);
            assertTrue(d.icrcOk());
        });
    }

    @Test
    void randomBytesNeverThrow() {
        Gen<byte[]> bytes = integers().between(0, 200).zip(longs().all(), (n, seed) -> {
            byte[] b = new byte[n];
            new Random(seed).nextBytes(b);
            return b;
        });
        qt().withExamples(20000).forAll(bytes).checkAssert(b -> {
            FrameCodec codec = new FrameCodec();
            assertNotNull(codec.decodeEthernet(b));
            assertNotNull(codec.decodeIp(b, 0));
        });
    }

    /** Random bytes behind a valid IPv4/UDP/4791 prefix reach the BTH parser; they must still never throw. */
    @Test
    void randomTransportBytesNeverThrow() {
        Gen<byte[]> bytes = integers().between(0, 120).zip(longs().all(), (n, seed) -> {
            byte[] b = new byte[n];
            new Random(seed).nextBytes(b);
            return b;
        });
        qt().withExamples(20000).forAll(bytes).checkAssert(b -> {
            FrameCodec codec = new FrameCodec();
            byte[] frame = new byte[28 + b.length];
            java.lang.foreign.MemorySegment s = java.lang.foreign.MemorySegment.ofArray(frame);
            Ipv4.roce(RandomFrames.v4("192.0.2.1"), RandomFrames.v4("192.0.2.2"), 1, 0, 0).write(s, 0, frame.length);
            new org.softrnic.wire.frame.Udp(0xc000, 4791, 0, 0).write(s, 20, 8 + b.length);
            System.arraycopy(b, 0, frame, 28, b.length);
            DecodedFrame d = codec.decodeIp(frame, 0);
            assertTrue(d.roce());
            assertTrue(d.error() != null || d.icrcOk());
        });
    }
}
