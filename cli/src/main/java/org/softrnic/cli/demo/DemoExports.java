package org.softrnic.cli.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.softrnic.wire.pcap.LinkType;
import org.softrnic.wire.pcap.PcapWriter;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A played scenario written out: as a capture Wireshark opens (every packet as it left its sender, lost ones
 * included, each in an Ethernet frame), as the event trace in JSON, and as the ladder in SVG.
 */
final class DemoExports {
    private static final long MAC_A = 0x0200_0a00_0001L;
    private static final long MAC_B = 0x0200_0a00_0002L;

    private DemoExports() {
    }

    static void pcap(Demo.Played p, Path file) throws IOException {
        try (OutputStream os = Files.newOutputStream(file); PcapWriter w = new PcapWriter(os, LinkType.ETHERNET)) {
            for (WireStep s : p.steps()) {
                byte[] frame = new byte[14 + s.bytes().length];
                boolean fromA = s.from().equals("A");
                mac(frame, 0, fromA ? MAC_B : MAC_A);
                mac(frame, 6, fromA ? MAC_A : MAC_B);
                frame[12] = (byte) ((s.bytes()[0] & 0xf0) == 0x60 ? 0x86 : 0x08);
                frame[13] = (byte) ((s.bytes()[0] & 0xf0) == 0x60 ? 0xdd : 0x00);
                System.arraycopy(s.bytes(), 0, frame, 14, s.bytes().length);
                w.write(s.sentAt(), frame);
            }
        }
    }

    private static void mac(byte[] f, int at, long mac) {
        for (int i = 0; i < 6; i++) f[at + i] = (byte) (mac >>> (40 - 8 * i));
    }

    static String json(Demo.Played p) {
        JsonMapper mapper = JsonMapper.builder().build();
        ObjectNode root = mapper.createObjectNode();
        root.put("scenario", p.scenario().id);
        root.put("summary", p.scenario().headline(p));
        root.put("mtu", p.options().mtu().bytes);
        root.put("seed", p.options().seed());
        ArrayNode packets = root.putArray("packets");
        for (int i = 0; i < p.steps().size(); i++) {
            WireStep s = p.steps().get(i);
            ObjectNode n = packets.addObject();
            if (p.paths() != null && p.paths().get(i) != null) n.put("states", p.paths().get(i));
            n.put("time_ns", s.sentAt());
            n.put("from", s.from());
            n.put("to", s.to());
            n.put("bytes", s.bytes().length);
            if (s.packet() != null) {
                n.put("opcode", s.packet().bth().opcode().name());
                n.put("psn", s.packet().bth().psn());
                n.put("fields", HeaderFields.of(s.packet()));
            }
            n.put("dropped", s.dropped());
            if (s.again() != null) n.put("again", s.again().name().toLowerCase(java.util.Locale.ROOT));
            n.put("note", StepNotes.of(s));
        }
        ArrayNode completions = root.putArray("completions");
        for (DemoRig.Seen c : p.completions()) {
            ObjectNode n = completions.addObject();
            n.put("side", c.side());
            n.put("status", c.wc().status.ibvName());
            n.put("opcode", c.wc().opcode.name());
            n.put("wr_id", c.wc().wrId);
            n.put("byte_len", c.wc().byteLen);
        }
        ArrayNode events = root.putArray("events");
        for (DemoRig.Event e : p.events()) {
            ObjectNode n = events.addObject();
            n.put("side", e.side());
            n.put("event", e.type().ibvName());
            n.put("meaning", org.softrnic.cli.explain.EventText.meaning(e.type()));
        }
        ArrayNode refusals = root.putArray("refusals");
        p.refusals().forEach(refusals::add);
        ArrayNode notes = root.putArray("notes");
        p.notes().forEach(notes::add);
        ObjectNode counters = root.putObject("counters");
        p.counters().forEach((side, m) -> {
            ObjectNode c = counters.putObject(side);
            m.forEach(c::put);
        });
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }

    static String svg(Demo.Played p) {
        return LadderSvg.render(p.scenario().id + ": " + p.scenario().headline(p), "A", "A " + DemoRig.A_IP, "B " + DemoRig.B_IP, p.steps());
    }

}
