package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.pcap.PcapWriter;
import org.softrnic.wire.testing.RandomFrames.Link;
import org.softrnic.wire.testing.RandomFrames;

/**
 * The ICRC softrnic writes for IPv4, IPv6 and 802.1Q frames is accepted by an independent implementation
 * (Python's zlib), which the real rxe captures cannot show for IPv6 since they hold only IPv4.
 */
class IcrcReferenceTest {
    @Test
    void independentImplementationAcceptsEveryIcrcWeWrite() throws Exception {
        Tools.require("python3");
        Path dir = Files.createDirectories(Path.of("target", "icrc-reference").toAbsolutePath());
        Path script = dir.resolve("icrc_reference.py");
        try (InputStream in = getClass().getResourceAsStream("/icrc_reference.py")) {
            Files.write(script, in.readAllBytes());
        }
        Path pcap = dir.resolve("frames.pcap");
        Random r = new Random(4791);
        FrameCodec codec = new FrameCodec();
        int written = 0;
        try (PcapWriter w = PcapWriter.create(pcap)) {
            for (Link link : List.of(Link.ETHERNET_IPV4, Link.ETHERNET_IPV6, Link.VLAN_IPV4)) {
                for (Opcode op : Opcode.values()) {
                    w.write(written++, codec.encode(RandomFrames.frame(r, op, link, 1500)));
                }
            }
        }
        String out = Tools.run(List.of("python3", script.toString(), pcap.toString()), dir);
        List<String> lines = out.strip().lines().toList();
        assertEquals(written, lines.size(), out);
        for (String line : lines) {
            assertEquals("ok", line.split(" ")[1], line);
        }
    }
}
