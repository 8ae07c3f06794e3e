package org.softrnic.cli.decode;

import java.io.PrintWriter;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.pcap.CapturedFrame;

/**
 * Layer by layer, one line per layer; with explain, one line per field with its meaning. A frame that is not RoCEv2
 * gets one line naming it ({@link OtherTraffic}), and the tools' exchange message it carries. The layers and
 * abbreviations shown go to the legend.
 */
public final class TextFrameWriter {
    private final PrintWriter out;
    private final boolean explain;
    private final Legend legend;

    public TextFrameWriter(PrintWriter out, boolean explain, Legend legend) {
        this.out = out;
        this.explain = explain;
        this.legend = legend;
    }

    /** What the frame's check found, in words: "ICRC ok", the first failed check, or how much a snaplen kept. */
    public static String verdict(DecodedFrame d, int captured, int length) {
        if (d.icrcOk()) return "ICRC ok";
        if (d.error() == org.softrnic.wire.ParseError.CAPTURE_CUT || (captured < length && d.error() == org.softrnic.wire.ParseError.TRUNCATED)) {
            return "captured " + captured + " of " + length + " bytes (snaplen): "
                    + (d.packet() != null ? "ICRC not checked" : "the RoCE headers are cut");
        }
        return d.errorMessage();
    }

    /** With {@code ip}, the packet from its IP header on: on an ICRC mismatch, explain draws what the ICRC covers. */
    public void write(CapturedFrame f, long relativeNanos, DecodedFrame d, byte[] ip) {
        int number = f.number();
        int length = f.originalLength();
        int captured = f.data().length;
        String time = String.format("%.6f", relativeNanos / 1e9);
        if (!d.roce()) {
            other(f, number, time, length, d);
            return;
        }
        String verdict = verdict(d, captured, length);
        String name = d.packet() == null ? "" : "  " + d.packet().opcode().name();
        out.printf("frame %d  %s  %d bytes  RoCEv2%s  %s%n", number, time, length, name, verdict);
        for (Layer l : FrameLayers.of(d)) layer(l);
        if (explain && d.packet() != null && d.error() != org.softrnic.wire.ParseError.CAPTURE_CUT) {
            out.printf("  icrc verdict: %s. The ICRC is CRC-32 over 8 bytes of 0xff, the IP header with %s set to"
                    + " ones, the UDP header with its checksum set to ones, the BTH with byte 4 (FECN/BECN) set to"
                    + " ones, and everything after the BTH; it is stored little-endian.%n",
                    d.icrcOk() ? "matches (" + DecodedFrame.icrcHex(d.icrcExpected()) + ")"
                            : "MISMATCH, computed " + DecodedFrame.icrcHex(d.icrcExpected()) + " but the packet carries "
                            + DecodedFrame.icrcHex(d.icrcFound()),
                    d.ip().version() == 4 ? "TOS, TTL and header checksum" : "traffic class, flow label and hop limit");
            if (!d.icrcOk() && ip != null) IcrcCoverage.rows(ip, d).forEach(out::println);
        }
    }

    /** Named in one line; --explain adds its layers, and a message of the tools' exchange is always shown. */
    private void other(CapturedFrame f, int number, String time, int length, DecodedFrame d) {
        OtherTraffic.Named n = OtherTraffic.of(f);
        out.printf("frame %d  %s  %d bytes  %s%s%n", number, time, length, n.summary(),
                d.error() == null ? "" : "  (" + d.errorMessage() + ")");
        for (Layer l : n.layers()) {
            boolean message = l.name().equals("oob") && l.fields().getFirst().value() != null;
            if (explain || message) {
                layer(l);
            } else if (!l.name().equals("eth") && !l.name().equals("ip")) {
                DecodeLegend.saw(legend, l, false); // named in the line: ARP, TCP, ICMPv6 ...
            }
        }
    }

    private void layer(Layer l) {
        DecodeLegend.saw(legend, l, !explain);
        if (explain) {
            out.printf("  %s%n", l.name());
            for (Field f : l.fields()) {
                out.printf("    %-18s %-20s %s%n", f.key(), f.text(), f.meaning());
            }
        } else if (l.scalar()) {
            out.printf("  %-12s %s%n", l.name(), l.fields().getFirst().text());
        } else {
            StringBuilder sb = new StringBuilder();
            for (Field f : l.fields()) sb.append(' ').append(f.key()).append('=').append(f.text());
            out.printf("  %-12s%s%n", l.name(), sb);
        }
    }
}
