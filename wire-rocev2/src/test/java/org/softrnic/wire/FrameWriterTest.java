package org.softrnic.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.longs;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.FrameTemplate;
import org.softrnic.wire.frame.FrameWriter;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.packet.RocePacket;
import org.softrnic.wire.testing.RandomFrames;

/** The in-place hot-path writer produces exactly the bytes of the record encoder. */
class FrameWriterTest {
    @Test
    void writerMatchesRecordEncoder() {
        PacketBuffer buf = PacketBuffer.wrap(new byte[2048]);
        FrameWriter w = new FrameWriter();
        qt().withExamples(2000).forAll(arbitrary().enumValues(Opcode.class), arbitrary().enumValues(RandomFrames.Link.class),
                longs().all()).checkAssert((op, link, seed) -> {
            RoceFrame f = RandomFrames.frame(new Random(seed), op, link, 1500);
            RocePacket p = f.roce();
            buf.length(buf.capacity());
            w.begin(buf, FrameTemplate.of(f.ethernet(), f.ip(), f.udp()), op);
            p.bth().write(w.bth());
            if (p.rdeth() != null) p.rdeth().write(w.rdeth());
            if (p.deth() != null) p.deth().write(w.deth());
            if (p.feth() != null) p.feth().write(w.feth());
            if (p.reth() != null) p.reth().write(w.reth());
            if (p.atomicEth() != null) p.atomicEth().write(w.atomicEth());
            if (p.aeth() != null) p.aeth().write(w.aeth());
            if (p.atomicAckEth() != null) p.atomicAckEth().write(w.atomicAckEth());
            if (p.immDt() != null) p.immDt().write(w.immDt());
            if (p.ieth() != null) p.ieth().write(w.ieth());
            MemorySegment.copy(MemorySegment.ofArray(p.payload()), 0, buf.segment, w.payloadOffset(), p.payloadLength());
            int len = w.finish(p.payloadLength(), f.ip() instanceof Ipv4 v4 ? v4.id() : 0);
            byte[] expected = new FrameCodec().encode(f);
            assertEquals(expected.length, len);
            assertArrayEquals(expected, buf.toArray());
        });
    }
}
