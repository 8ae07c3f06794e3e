package org.softrnic.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.softrnic.nic.sim.SimFabric;

/**
 * Lines a ladder writes between its packets, for what happens off the wire at a known time: the pause frames a
 * switch sent (a ladder has a lane for A and one for B, and the switch between them speaks in these lines), and the
 * page faults a NIC took. Each goes under the last packet that left before it.
 */
final class PauseNotes {
    private PauseNotes() {
    }

    /** A line and when it happened, on the fabric's clock. */
    record Timed(long atNanos, String line) {}

    /** {@code under}, one entry per step (null for none; lines apart by newlines), with the pauses added. */
    static List<String> under(List<WireStep> steps, List<SimFabric.Pause> pauses, List<String> under) {
        long t0 = steps.isEmpty() ? 0 : steps.getFirst().sentAt();
        List<Timed> lines = new ArrayList<>();
        for (SimFabric.Pause p : pauses) {
            String what = p.quanta() == 0 ? String.format(Locale.ROOT, "PFC: %s resumes %s's priority %d", p.from(), p.to(), p.priority())
                    : String.format(Locale.ROOT, "PFC: %s pauses %s's priority %d for %d quanta", p.from(), p.to(), p.priority(), p.quanta());
            lines.add(new Timed(p.arrivesAt(), String.format(Locale.ROOT, "%s (it arrives at %.3f us)", what, (p.arrivesAt() - t0) / 1000.0)));
        }
        return timed(steps, lines, under);
    }

    /** {@code under} with each of {@code lines} added under the last step sent before it. */
    static List<String> timed(List<WireStep> steps, List<Timed> lines, List<String> under) {
        List<String> out = new ArrayList<>(under != null ? under : java.util.Collections.nCopies(steps.size(), (String) null));
        for (Timed t : lines) {
            int at = 0;
            for (int i = 0; i < steps.size(); i++) if (steps.get(i).sentAt() < t.atNanos()) at = i; // before what it lets go
            out.set(at, out.get(at) == null ? t.line() : out.get(at) + "\n" + t.line());
        }
        return out;
    }
}
