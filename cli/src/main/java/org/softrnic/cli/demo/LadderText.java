package org.softrnic.cli.demo;

import java.io.PrintWriter;
import java.util.List;
import org.softrnic.wire.packet.RocePacket;

/**
 * The ladder diagram in text: time runs down, A on the left and B on the right, one arrow per packet with
 * its opcode, PSN and size, the key header fields under it, and a line of explanation beside it. A lost
 * packet's arrow stops in the middle with an X. ANSI colour only when asked for. A capture's ladder
 * ({@link #rows}) draws a run of packets alike as one row with its count, and says each explanation once.
 */
final class LadderText {
    static final int LANE = 66;
    /** The longest label an arrow holds with its lead, a dash and its head inside the lane. */
    private static final int LABEL_ROOM = LANE - 8;
    private final PrintWriter out;
    private final boolean color;
    /** The sender drawn on the left: its packets point right. */
    private final String left;
    /** Told what the lines show, or null. */
    private final org.softrnic.cli.decode.Legend legend;

    LadderText(PrintWriter out, boolean color, String left) {
        this(out, color, left, null);
    }

    LadderText(PrintWriter out, boolean color, String left, org.softrnic.cli.decode.Legend legend) {
        this.out = out;
        this.color = color;
        this.left = left;
        this.legend = legend;
    }

    /** Colour only on a terminal, unless --no-color or NO_COLOR (no-color.org) says otherwise. */
    static boolean colorWanted(boolean noColor) {
        return !noColor && !org.softrnic.cli.Main.colorRefused(System.getenv()) && System.console() != null && System.console().isTerminal();
    }

    void header(String leftLabel, String rightLabel) {
        line(String.format("%12s  %-" + (LANE + 2) + "s%s", "time (us)", leftLabel, rightLabel));
    }

    void steps(List<WireStep> steps) {
        steps(steps, null);
    }

    /** With {@code paths} (one per step, null for none), each packet's receiver states are drawn under it. */
    void steps(List<WireStep> steps, List<String> paths) {
        long t0 = steps.isEmpty() ? 0 : steps.getFirst().sentAt();
        for (int i = 0; i < steps.size(); i++) {
            WireStep s = steps.get(i);
            row(LadderRow.of(s), t0, StepNotes.of(s));
            String path = paths == null ? null : paths.get(i);
            if (path != null) for (String l : path.split("\n")) line(String.format("%12s  |%s|  %s", "", " ".repeat(LANE), l));
        }
    }

    /**
     * A capture's rows. What a packet does is said the first time a packet of its kind appears; later rows say
     * only what happened to theirs (sent again, refused), if anything.
     */
    void rows(List<LadderRow> rows) {
        long t0 = rows.isEmpty() ? 0 : rows.getFirst().first().sentAt();
        java.util.Set<String> told = new java.util.HashSet<>();
        for (LadderRow r : rows) {
            WireStep s = r.first();
            boolean first = s.packet() == null || told.add(s.from() + "/" + LadderRow.unnumbered(s, StepNotes.explanation(s)));
            row(r, t0, r.forRun(first ? StepNotes.of(s) : StepNotes.events(s)));
        }
    }

    private void row(LadderRow r, long t0, String note) {
        WireStep s = r.first();
        RocePacket p = s.packet();
        String size = "IP " + s.bytes().length + " B";
        String label = p == null ? (s.refused() != null ? "malformed RoCEv2" + r.times() + "  " + size : "not RoCE" + r.times())
                : name(p) + r.times() + "  " + r.psns() + "  " + size;
        String fields = p == null ? "" : r.count() > 1 ? HeaderFields.span(p, r.last().packet()) : HeaderFields.of(p);
        if (r.count() > 1 && label.length() > LABEL_ROOM) {
            // a long run's PSN range leaves no room for the size in the arrow: it goes under it
            label = label.substring(0, label.length() - size.length() - 2);
            fields = size + " each" + (fields.isEmpty() ? "" : "  " + fields);
        }
        boolean right = s.from().equals(left);
        String arrow = arrow(label, right, s.dropped(), s.refused() != null);
        String paint = s.dropped() || s.refused() != null ? "31" : s.again() != null ? "33" : p != null && p.aeth() != null && p.aeth().type() != org.softrnic.wire.header.AethType.ACK ? "35" : "36";
        String time = String.format("%12.3f  |%s|", (s.sentAt() - t0) / 1000.0, color ? "\u001b[" + paint + "m" + arrow + "\u001b[0m" : arrow);
        line(note.isEmpty() ? time : time + "  " + note);
        for (String f : wrap(fields, LANE - 4)) {
            line(String.format("%12s  |%s|", "", right ? pad("   " + f, LANE) : padLeft(f + "   ", LANE)));
        }
    }

    private void line(String text) {
        out.println(text);
        if (legend != null) legend.scan(text);
    }

    /**
     * The header fields in lines that keep a space from both lanes, filled greedily and broken between
     * fields, never inside one; a header carried over to the next line is indented.
     */
    static List<String> wrap(String fields, int width) {
        List<String> lines = new java.util.ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String header : fields.isEmpty() ? new String[0] : fields.split("  ")) {
            String[] words = header.split(" ");
            for (int w = 0; w < words.length; w++) {
                String word = words[w];
                boolean first = w == 0;
                String gap = line.isEmpty() ? "" : first ? "  " : " ";
                if (!line.isEmpty() && line.length() + gap.length() + word.length() > width) {
                    lines.add(line.toString());
                    line.setLength(0);
                    gap = first ? "" : "  ";
                }
                line.append(gap).append(word);
            }
        }
        if (!line.isEmpty()) lines.add(line.toString());
        return lines;
    }

    /** Opcodes without their transport prefix: the lane says RC or UD once, at the top. */
    static String name(RocePacket p) {
        var cm = CmStep.message(p);
        if (cm != null) return "CM " + cm + " (SEND_ONLY to QP1)";
        String n = p.bth().opcode().name();
        return n.substring(n.indexOf('_') + 1);
    }

    /** A lost packet's arrow stops halfway; one the receiver refused reaches it and ends in X. */
    static String arrow(String label, boolean right, boolean dropped, boolean refused) {
        String mid = " " + label + " ";
        if (dropped) {
            String part = right ? "----" + mid + "---X" : "X---" + mid + "----";
            return right ? pad(part, LANE) : padLeft(part, LANE);
        }
        int dashes = LANE - mid.length() - 1;
        int lead = 4;
        String head = refused ? "X" : right ? ">" : "<";
        return right ? "-".repeat(lead) + mid + "-".repeat(Math.max(1, dashes - lead)) + head
                : head + "-".repeat(Math.max(1, dashes - lead)) + mid + "-".repeat(lead);
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s.substring(0, width) : s + " ".repeat(width - s.length());
    }

    private static String padLeft(String s, int width) {
        return s.length() >= width ? s.substring(s.length() - width) : " ".repeat(width - s.length()) + s;
    }
}
