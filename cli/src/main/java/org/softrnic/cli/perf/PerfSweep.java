package org.softrnic.cli.perf;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.softrnic.emulator.perf.PerfOptions;
import org.softrnic.emulator.perf.PerfResult;

/**
 * perftest's {@code -a}: one run per message size, 2 B to 8 MiB by powers of two, on each link given, printed as
 * perftest prints it (the header once, a row a size). A run that fails ends its link's rows with the reason.
 * Unlike perftest's -a, which connects once, each size is a run of its own on new devices: one size's queues and
 * retransmissions cannot spill into the next.
 */
final class PerfSweep {
    /** A first run per link, not shown: the JIT compiles the data path before the smallest sizes are measured. */
    static final int WARM_UP_SIZE = 4096;
    /** perftest's -a: sizes 2^1 .. 2^23 bytes. */
    static final int MIN_LOG2 = 1;
    static final int MAX_LOG2 = 23;

    /** One link's rows: the results in size order, and the error that stopped it, if any. */
    record Line(String link, List<PerfResult> results, String error) {}

    private PerfSweep() {
    }

    static List<Integer> sizes() {
        List<Integer> s = new ArrayList<>();
        for (int k = MIN_LOG2; k <= MAX_LOG2; k++) s.add(1 << k);
        return s;
    }

    /**
     * Runs every size on every link; {@code options} makes a run's options from its link and size, {@code run} runs
     * one. Rows are printed as they come (a table, or JSON Lines), so a long sweep shows its progress.
     */
    static List<Line> run(List<String> links, BiFunction<String, Integer, PerfOptions> options,
                          Function<PerfOptions, PerfResult> run, PrintWriter out, boolean json) {
        List<Line> lines = new ArrayList<>();
        for (String link : links) {
            if (!json) {
                out.printf(" Link            : %s%n", link);
                PerfCommand.columns(out);
                out.flush();
            }
            lines.add(line(link, options, run, out, json));
        }
        return lines;
    }

    /** One link's warm-up, then its sizes in order until one fails. */
    private static Line line(String link, BiFunction<String, Integer, PerfOptions> options, Function<PerfOptions, PerfResult> run,
                             PrintWriter out, boolean json) {
        List<PerfResult> results = new ArrayList<>();
        PerfResult warm = run.apply(options.apply(link, WARM_UP_SIZE));
        if (warm.error() != null) return new Line(link, results, "warming up with " + WARM_UP_SIZE + " B: " + warm.error());
        for (int size : sizes()) {
            PerfResult r = run.apply(options.apply(link, size));
            if (r.error() != null) return new Line(link, results, size + " B: " + r.error());
            results.add(r);
            if (json) out.println(PerfCommand.jsonLine(r));
            else PerfCommand.row(out, r);
            out.flush();
        }
        return new Line(link, results, null);
    }
}
