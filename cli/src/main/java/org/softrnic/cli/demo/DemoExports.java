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
        root.put("summary", p.scenario().summary);
        root.put("mtu", p.options().mtu().bytes);
        root.put("seed", p.options().seed());
        ArrayNode packets = root.putArray("packets");
        for (WireStep s : p.steps()) {
            ObjectNode n = packets.addObject();
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
        p.events().forEach(events::add);
        ObjectNode counters = root.putObject("counters");
        p.counters().forEach((side, m) -> {
            ObjectNode c = counters.putObject(side);
            m.forEach(c::put);
        });
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }

    static String svg(Demo.Played p) {
        int left = 120;
        int right = 620;
        int row = 34;
        int top = 70;
        int height = top + row * p.steps().size() + 40;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" height=\"%d\" font-family=\"monospace\" font-size=\"12\">%n", height));
        sb.append("<defs><marker id=\"head\" markerWidth=\"10\" markerHeight=\"7\" refX=\"10\" refY=\"3.5\" orient=\"auto\">"
                + "<polygon points=\"0 0, 10 3.5, 0 7\"/></marker></defs>\n");
        sb.append(String.format("<text x=\"10\" y=\"20\" font-weight=\"bold\">%s</text>%n", xml(p.scenario().id + ": " + p.scenario().summary)));
        sb.append(String.format("<text x=\"%d\" y=\"50\" text-anchor=\"middle\">A %s</text>%n", left, DemoRig.A_IP));
        sb.append(String.format("<text x=\"%d\" y=\"50\" text-anchor=\"middle\">B %s</text>%n", right, DemoRig.B_IP));
        sb.append(String.format("<line x1=\"%d\" y1=\"58\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", left, left, height - 20));
        sb.append(String.format("<line x1=\"%d\" y1=\"58\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", right, right, height - 20));
        int y = top;
        long t0 = p.steps().isEmpty() ? 0 : p.steps().getFirst().sentAt();
        for (WireStep s : p.steps()) {
            boolean toB = s.from().equals("A");
            int x1 = toB ? left : right;
            int x2 = s.dropped() ? (left + right) / 2 : toB ? right : left;
            String colour = s.dropped() ? "#c00" : s.again() != null ? "#b70" : "#036";
            String label = s.packet() == null ? "not RoCE"
                    : LadderText.name(s.packet()) + "  PSN " + s.packet().bth().psn() + "  " + s.bytes().length + " B";
            sb.append(String.format("<text x=\"10\" y=\"%d\">%.3f us</text>%n", y + 4, (s.sentAt() - t0) / 1000.0));
            sb.append(String.format("<line class=\"packet\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
                    x1, y, x2, y + row - 14, colour, s.dropped() ? "" : " marker-end=\"url(#head)\""));
            if (s.dropped()) sb.append(String.format("<text x=\"%d\" y=\"%d\" fill=\"#c00\" font-weight=\"bold\">X</text>%n", x2 - 4, y + row - 10));
            sb.append(String.format("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"%s\">%s</text>%n", (left + right) / 2, y + 4,
                    colour, xml(label)));
            sb.append(String.format("<text x=\"%d\" y=\"%d\" fill=\"#444\">%s</text>%n", right + 20, y + 10, xml(StepNotes.of(s))));
            y += row;
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
