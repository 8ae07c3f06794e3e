package org.softrnic.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.softrnic.wire.packet.RocePacket;

/**
 * One row of a ladder: a packet, or a run of packets alike drawn once with how many there were. Packets are alike
 * when they go the same way with the same opcode, size and fields, and the same note, but for what counts up from
 * one to the next: PSN, time, va and MSN. A capture's bulk transfer (a WRITE's MIDDLE packets, a row of ACKs) then
 * takes one row.
 */
record LadderRow(WireStep first, WireStep last, int count) {
    static LadderRow of(WireStep s) {
        return new LadderRow(s, s, 1);
    }

    /** The rows of {@code steps}: runs of packets alike as one row each when {@code collapse}, else a row a packet. */
    static List<LadderRow> of(List<WireStep> steps, boolean collapse) {
        List<LadderRow> rows = new ArrayList<>();
        for (WireStep s : steps) {
            LadderRow last = rows.isEmpty() ? null : rows.getLast();
            if (collapse && last != null && alike(last.last(), s)) rows.set(rows.size() - 1, new LadderRow(last.first(), s, last.count() + 1));
            else rows.add(of(s));
        }
        return rows;
    }

    /** How many packets the row stands for, as its label says it: " ×37", nothing for one. */
    String times() {
        return count > 1 ? " \u00d7" + count : "";
    }

    /** "PSN 5", or for a run "PSN 5-41" (first and last; a run that wraps at 2^24 ends below its start). */
    String psns() {
        int a = first.packet() == null ? -1 : first.packet().bth().psn();
        int b = last.packet() == null ? -1 : last.packet().bth().psn();
        return a == b ? "PSN " + a : "PSN " + a + "-" + b;
    }

    private static boolean alike(WireStep a, WireStep b) {
        RocePacket p = a.packet();
        RocePacket q = b.packet();
        if (!a.from().equals(b.from()) || a.bytes().length != b.bytes().length || a.dropped() != b.dropped()) return false;
        if (p == null || q == null) return p == q && Objects.equals(a.refused(), b.refused());
        return p.bth().opcode() == q.bth().opcode() && HeaderFields.steady(p).equals(HeaderFields.steady(q))
                && unnumbered(a, StepNotes.of(a)).equals(unnumbered(b, StepNotes.of(b)));
    }

    /**
     * A note written for the run's first packet, told of the run: where it names that packet's PSN (an ACK's "up to
     * PSN n"), the last packet's, which is where the run leaves things.
     */
    String forRun(String note) {
        if (count == 1 || first.packet() == null || last.packet() == null) return note;
        return note.replaceAll("PSN " + first.packet().bth().psn() + "\\b", "PSN " + last.packet().bth().psn());
    }

    /** {@code text} with the packet's own PSN left out: an ACK's note names the PSN it acknowledges. */
    static String unnumbered(WireStep s, String text) {
        return s.packet() == null ? text : text.replaceAll("PSN " + s.packet().bth().psn() + "\\b", "PSN #");
    }
}
