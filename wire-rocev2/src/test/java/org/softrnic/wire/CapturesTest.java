package org.softrnic.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.pcap.CaptureDecoder;
import org.softrnic.wire.pcap.CapturedFrame;
import org.softrnic.wire.pcap.PcapReader;

/** Real rxe traffic (shared/captures, copied into test resources): every packet verifies and re-encodes exactly. */
class CapturesTest {
    static List<CapturedFrame> load(String name) throws IOException {
        try (InputStream in = CapturesTest.class.getResourceAsStream("/captures/" + name)) {
            assertNotNull(in, name);
            return PcapReader.read(in.readAllBytes(), name);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rc_pingpong.pcap", "ud_pingpong.pcap", "write_bw.pcap", "send_bw.pcap"})
    void everyRocePacketVerifiesAndReencodesByteIdentical(String file) throws IOException {
        CaptureDecoder decoder = new CaptureDecoder();
        FrameCodec codec = new FrameCodec();
        int roce = 0;
        Set<Opcode> seen = EnumSet.noneOf(Opcode.class);
        for (CapturedFrame f : load(file)) {
            DecodedFrame d = decoder.decode(f);
            if (!d.roce()) continue;
            roce++;
            assertTrue(d.icrcOk(), () -> file + " frame " + f.number() + ": " + d.errorMessage());
            assertEquals(d.icrcExpected(), d.icrcFound());
            seen.add(d.packet().opcode());
            assertArrayEquals(f.data(), codec.encode(d.toRoceFrame()), file + " frame " + f.number());
        }
        assertTrue(roce > 100, file + " has only " + roce + " RoCEv2 packets");
        assertFalse(seen.isEmpty());
    }

    @Test
    void captureOpcodesMatchTheirReadme() throws IOException {
        assertEquals(EnumSet.of(Opcode.RC_SEND_ONLY, Opcode.RC_SEND_FIRST, Opcode.RC_SEND_MIDDLE, Opcode.RC_SEND_LAST,
                Opcode.RC_ACKNOWLEDGE), opcodes("rc_pingpong.pcap"));
        assertEquals(EnumSet.of(Opcode.UD_SEND_ONLY), opcodes("ud_pingpong.pcap"));
        assertEquals(EnumSet.of(Opcode.RC_RDMA_WRITE_ONLY, Opcode.RC_RDMA_WRITE_FIRST, Opcode.RC_RDMA_WRITE_MIDDLE,
                Opcode.RC_RDMA_WRITE_LAST, Opcode.RC_ACKNOWLEDGE), opcodes("write_bw.pcap"));
    }

    private static Set<Opcode> opcodes(String file) throws IOException {
        CaptureDecoder decoder = new CaptureDecoder();
        Set<Opcode> seen = EnumSet.noneOf(Opcode.class);
        for (CapturedFrame f : load(file)) {
            DecodedFrame d = decoder.decode(f);
            if (d.packet() != null) seen.add(d.packet().opcode());
        }
        return seen;
    }

    @Test
    void minipeerCaptureHasTheJunkDatagramAndTheBadIcrc() throws IOException {
        CaptureDecoder decoder = new CaptureDecoder();
        List<CapturedFrame> frames = load("netns_minipeer.pcap");
        DecodedFrame junk = decoder.decode(frames.get(39));
        assertEquals(40, frames.get(39).number());
        assertTrue(junk.roce());
        assertEquals(ParseError.TRUNCATED, junk.error());
        assertNull(junk.packet());

        DecodedFrame bad = decoder.decode(frames.get(40));
        assertEquals(ParseError.ICRC_MISMATCH, bad.error());
        assertNotNull(bad.packet());
        assertEquals(Opcode.RC_SEND_ONLY, bad.packet().opcode());
        assertNotEquals(bad.icrcExpected(), bad.icrcFound());
        assertTrue(bad.errorMessage().contains(DecodedFrame.icrcHex(bad.icrcExpected())));
        assertTrue(bad.errorMessage().contains(DecodedFrame.icrcHex(bad.icrcFound())));

        int ok = 0;
        for (CapturedFrame f : frames) {
            if (f.number() == 40 || f.number() == 41) continue;
            DecodedFrame d = decoder.decode(f);
            if (!d.roce()) continue;
            assertTrue(d.icrcOk(), () -> "frame " + f.number() + ": " + d.errorMessage());
            ok++;
        }
        assertEquals(4, ok, "correct SEND ONLY, rxe's ACK and SEND ONLY, the peer's ACK");
    }

    @Test
    void infoCaptureHasNoRoce() throws IOException {
        CaptureDecoder decoder = new CaptureDecoder();
        for (CapturedFrame f : load("info.pcap")) {
            assertFalse(decoder.decode(f).roce());
        }
    }
}
