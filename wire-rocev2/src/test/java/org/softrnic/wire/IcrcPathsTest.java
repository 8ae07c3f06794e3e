package org.softrnic.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.icrc.Icrc;
import org.softrnic.wire.testing.RandomFrames.Link;
import org.softrnic.wire.testing.RandomFrames;

/** The in-place ICRC (headroom before IP) and the scratch-copy ICRC agree, and neither changes the packet. */
class IcrcPathsTest {
    @Test
    void inPlaceAndScratchAgreeAndLeaveThePacketAlone() {
        Icrc icrc = new Icrc();
        qt().withExamples(1000).forAll(arbitrary().enumValues(Opcode.class),
                arbitrary().pick(Link.ETHERNET_IPV4, Link.ETHERNET_IPV6, Link.VLAN_IPV4), longs().all())
                .checkAssert((op, link, seed) -> {
                    RoceFrame f = RandomFrames.frame(new Random(seed), op, link, 300);
                    byte[] frame = new FrameCodec().encode(f);
                    byte[] before = frame.clone();
                    int ip = f.ethernet().length();
                    int roce = ip + f.ip().headerLength() + 8;
                    int roceLen = frame.length - roce;
                    int inPlace = icrc.compute(PacketBuffer.wrap(frame), ip, f.ip().version(), roce, roceLen);
                    assertArrayEquals(before, frame, "in-place masking was undone");
                    byte[] raw = Arrays.copyOfRange(frame, ip, frame.length);
                    int scratch = icrc.compute(PacketBuffer.wrap(raw), 0, f.ip().version(), roce - ip, roceLen);
                    assertEquals(scratch, inPlace);
                    assertEquals(f.roce().withIcrc(inPlace).icrc(), Be.u32le(PacketBuffer.wrap(frame).segment, frame.length - 4));
                });
    }
}
