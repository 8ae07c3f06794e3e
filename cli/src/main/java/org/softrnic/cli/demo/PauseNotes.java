package org.softrnic.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.softrnic.nic.sim.SimFabric;

/**
 * The pause frames a switch sent during a demo, each written under the last packet that left before it reached its
 * node: a ladder has a lane for A and one for B, and the switch between them speaks in these lines.
 */
final class PauseNotes {
    private PauseNotes() {
    }

    /** {@code under}, one entry per step (null for none; lines apart by newlines), with the pauses added. */
    static List<String> under(List<WireStep> steps, List<SimFabric.Pause> pauses, List<String> under) {
        List<String> lines = new ArrayList<>(under != null ? under : java.util.Collections.nCopies(steps.size(), (String) null));
        long t0 = steps.isEmpty() ? 0 : steps.getFirst().sentAt();
        for (SimFabric.Pause p : pauses) {
            int at = 0;
            for (int i = 0; i < steps.size(); i++) if (steps.get(i).sentAt() < p.arrivesAt()) at = i; // before what it lets go
            String what = p.quanta() == 0 ? String.format(Locale.ROOT, "PFC: %s resumes %s's priority %d", p.from(), p.to(), p.priority())
                    : String.format(Locale.ROOT, "PFC: %s pauses %s's priority %d for %d quanta", p.from(), p.to(), p.priority(), p.quanta());
            String line = String.format(Locale.ROOT, "%s (it arrives at %.3f us)", what, (p.arrivesAt() - t0) / 1000.0);
            lines.set(at, lines.get(at) == null ? line : lines.get(at) + "\n" + line);
        }
        return lines;
    }
}
