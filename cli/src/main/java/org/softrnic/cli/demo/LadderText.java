package org.softrnic.cli.demo;

import java.io.PrintWriter;
import java.util.List;
import org.softrnic.wire.packet.RocePacket;

/**
 * The ladder diagram in text: time runs down, A on the left and B on the right, one arrow per packet with
 * its opcode, PSN and size, the key header fields under it, and a line of explanation beside it. A lost
 * packet's arrow stops in the middle with an X. ANSI colour only when asked for.
 */
final class LadderText {
    static final int LANE = 66;
    private final PrintWriter out;
    private final boolean color;
    /** The sender drawn on the left: its packets point right. */
    private final String left;

    LadderText(PrintWriter out, boolean color, String left) {
        this.out = out;
        this.color = color;
        this.left = left;
    }

    /** Colour only on a terminal, unless --no-color or NO_COLOR (no-color.org) says otherwise. */
    static boolean colorWanted(boolean noColor) {
        return !noColor && !org.softrnic.cli.Main.colorRefused(System.getenv()) && System.console() != null && System.console().isTerminal();
    }

    void header(String leftLabel, String rightLabel) {
        out.printf("%12s  %-" + (LANE + 2) + "s%s%n", "time (us)", leftLabel, rightLabel);
    }

    void steps(List<WireStep> steps) {
        steps(steps, null);
    }

    /** With {@code paths} (one per step, null for none), each packet's receiver states are drawn under it. */
    void steps(List<WireStep> steps, List<String> paths) {
        long t0 = steps.isEmpty() ? 0 : steps.getFirst().sentAt();
        for (int i = 0; i < steps.size(); i++) {
            step(steps.get(i), t0);
            String path = paths == null ? null : paths.get(i);
            if (path != null) out.printf("%12s  |%s|  %s%n", "", " ".repeat(LANE), path);
        }
    }

    private void step(WireStep s, long t0) {
        RocePacket p = s.packet();
        String label = p == null ? (s.refused() != null ? "malformed RoCEv2  IP " + s.bytes().length + " B" : "not RoCE")
                : String.format("%s  PSN %d  IP %d B", name(p), p.bth().psn(), s.bytes().length);
        boolean right = s.from().equals(left);
        String arrow = arrow(label, right, s.dropped(), s.refused() != null);
        String paint = s.dropped() || s.refused() != null ? "31" : s.again() != null ? "33" : p != null && p.aeth() != null && p.aeth().type() != org.softrnic.wire.header.AethType.ACK ? "35" : "36";
        out.printf("%12.3f  |%s|  %s%n", (s.sentAt() - t0) / 1000.0, color ? "\u001b[" + paint + "m" + arrow + "\u001b[0m" : arrow,
                StepNotes.of(s));
        for (String fields : wrap(p == null ? "" : HeaderFields.of(p), LANE - 4)) {
            out.printf("%12s  |%s|%n", "", right ? pad("   " + fields, LANE) : padLeft(fields + "   ", LANE));
        }
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
