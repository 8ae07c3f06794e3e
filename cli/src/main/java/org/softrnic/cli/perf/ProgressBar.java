package org.softrnic.cli.perf;

import java.io.PrintWriter;
import org.softrnic.emulator.perf.PerfProgress;

/**
 * A one-line progress bar on the terminal, redrawn in place with a carriage return and erased at the end.
 * It stays hidden for the first second, so short runs print nothing extra.
 */
final class ProgressBar implements PerfProgress {
    private static final long SHOW_AFTER_NANOS = 1_000_000_000L;
    private static final int WIDTH = 40;

    private final PrintWriter err;
    private int drawnLength;

    ProgressBar(PrintWriter err) {
        this.err = err;
    }

    /** A bar when both ends of the run's output are a terminal; nothing when they are piped or redirected. */
    static PerfProgress forTerminal(PrintWriter err) {
        java.io.Console console = System.console();
        return console != null && console.isTerminal() ? new ProgressBar(err) : PerfProgress.NONE;
    }

    @Override
    public void update(long done, long total, long elapsedNanos) {
        if (elapsedNanos < SHOW_AFTER_NANOS) return;
        String line = render(done, total, elapsedNanos);
        err.print('\r' + line);
        err.flush();
        drawnLength = line.length();
    }

    @Override
    public void finish() {
        if (drawnLength == 0) return;
        err.print('\r' + " ".repeat(drawnLength) + '\r');
        err.flush();
    }

    /** {@code [#########               ]  23%   4600/20000 iterations   12 s} */
    static String render(long done, long total, long elapsedNanos) {
        long clamped = Math.max(0, Math.min(done, total));
        int filled = total <= 0 ? WIDTH : (int) (clamped * WIDTH / total);
        int percent = total <= 0 ? 100 : (int) (clamped * 100 / total);
        String count = String.valueOf(total);
        return "[" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] "
                + String.format("%3d%%  %" + count.length() + "d/%s iterations  %3d s", percent, clamped, count,
                        elapsedNanos / 1_000_000_000L);
    }
}
