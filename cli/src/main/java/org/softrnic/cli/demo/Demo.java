package org.softrnic.cli.demo;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plays one scenario on a fresh stage and tells it: the ladder of packets, then the completions each side
 * polled, then the counters that moved. Everything comes from one seed, so the same options print the same.
 */
final class Demo {
    /** What a played scenario left behind, for the ladder and the exports. */
    record Played(Scenario scenario, DemoOptions options, List<WireStep> steps, List<String> paths, List<DemoRig.Seen> completions,
                  List<DemoRig.Event> events, List<String> notes,
                  List<String> refusals, Map<String, Map<String, Long>> counters) {}

    private Demo() {
    }

    static Played play(Scenario s, DemoOptions o) {
        int size = o.sizeOr(s.defaultSize);
        try (DemoRig rig = new DemoRig(o.seed(), o.mtu(), 2 * Math.max(size, 65536), s.cqe, s.startPsn(), s == Scenario.CNP, s == Scenario.PFC)) {
            if (o.loss() > 0) rig.loss(o.loss());
            int drop = o.drop() > 0 ? o.drop() : s.defaultDrop;
            if (drop > 0) {
                AtomicInteger n = new AtomicInteger();
                rig.simulation().dropWhen(p -> n.incrementAndGet() == drop);
            }
            StatePaths paths = o.states() ? new StatePaths(rig) : null;
            s.script.play(new Scenario.Stage(rig), o, size);
            List<WireStep> steps = WireStep.of(rig.simulation().trace(), new String[] {"A", "B"});
            List<String> under = paths == null ? null : paths.perPacket(rig.simulation().trace());
            if (!rig.simulation().pauses().isEmpty()) under = PauseNotes.under(steps, rig.simulation().pauses(), under);
            if (!rig.faults.isEmpty()) under = PauseNotes.timed(steps, rig.faults, under);
            return new Played(s, o, steps, under, List.copyOf(rig.completions), List.copyOf(rig.events), List.copyOf(rig.notes),
                    refusals(rig),
                    Map.of("A", moved(rig.a.device().counters()), "B", moved(rig.b.device().counters())));
        }
    }

    /** Each side's refusals, in its soft RNIC's words, named by the side. */
    private static List<String> refusals(DemoRig rig) {
        List<String> all = new java.util.ArrayList<>();
        for (DemoRig.Side s : new DemoRig.Side[] {rig.a, rig.b}) for (String r : s.device().refusals()) all.add(s.name() + "  " + r);
        return all;
    }

    private static Map<String, Long> moved(Map<String, Long> all) {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        all.forEach((k, v) -> {
            if (v != 0) m.put(k, v);
        });
        return m;
    }

    static void print(Played p, PrintWriter out, boolean color) {
        Scenario s = p.scenario();
        out.printf("%s: %s%n", s.id, s.headline(p));
        // a UD QP has no path: its messages are bounded by the port's MTU
        out.printf("%s, %s MTU %d, seed %d%s%n%n", s.transport(), s.transport().equals("UD") ? "port" : "path", p.options().mtu().bytes, p.options().seed(),
                p.options().loss() > 0 ? String.format(", %.1f %% loss", p.options().loss() * 100) : "");
        LadderText ladder = new LadderText(out, color, "A");
        ladder.header("A " + DemoRig.A_IP, "B " + DemoRig.B_IP);
        ladder.steps(p.steps(), p.paths());
        out.println();
        out.println("completions:");
        if (p.completions().isEmpty()) out.println("  none");
        for (DemoRig.Seen c : p.completions()) {
            out.printf("  %s  %-22s %-18s wr_id %d  %d bytes%s%n", c.side(), c.wc().status.ibvName(), c.wc().opcode,
                    c.wc().wrId, c.wc().byteLen, (c.wc().wcFlags & org.softrnic.verbs.WorkCompletion.WC_WITH_IMM) != 0
                            ? String.format("  imm 0x%08x", c.wc().immData) : "");
        }
        if (!p.events().isEmpty()) {
            out.println("asynchronous events:");
            for (DemoRig.Event e : p.events()) {
                out.printf("  %s  %s: %s%n", e.side(), e.type().ibvName(), org.softrnic.cli.explain.EventText.meaning(e.type()));
            }
        }
        if (!p.refusals().isEmpty()) {
            out.println("why, in the refusing soft RNIC's words (no RDMA tool can tell this):");
            for (String r : p.refusals()) out.println("  " + r);
        }
        for (String n : p.notes()) out.println(n);
        out.println("counters that moved:");
        for (String side : new String[] {"A", "B"}) {
            StringBuilder sb = new StringBuilder();
            p.counters().get(side).forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
            out.printf("  %s%s%n", side, sb.isEmpty() ? " (none)" : sb);
        }
        out.flush();
    }
}
