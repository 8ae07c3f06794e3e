package org.softrnic.cli.perftest;

/**
 * -D's timing (catch_alarm's states, read from the clock instead of SIGALRM): a warm-up of {@code margin}
 * seconds, the measured window, a cool-down of {@code margin}, then the end. Only work completed in the
 * window counts.
 */
final class DurationClock {
    enum State { START, SAMPLE, STOP_SAMPLE, END }

    private final long marginNanos;
    private final long durationNanos;
    private long start = -1;

    DurationClock(int durationSeconds, int marginSeconds) {
        this.durationNanos = durationSeconds * 1_000_000_000L;
        this.marginNanos = marginSeconds * 1_000_000_000L;
    }

    void start() {
        if (start < 0) start = System.nanoTime();
    }

    boolean started() {
        return start >= 0;
    }

    State state() {
        if (start < 0) return State.START;
        long t = System.nanoTime() - start;
        if (t < marginNanos) return State.START;
        if (t < durationNanos - marginNanos) return State.SAMPLE;
        if (t < durationNanos) return State.STOP_SAMPLE;
        return State.END;
    }

    boolean sampling() {
        return state() == State.SAMPLE;
    }

    boolean ended() {
        return state() == State.END;
    }

    /** The measured window's length in seconds. */
    double sampleSeconds() {
        return (durationNanos - 2 * marginNanos) / 1e9;
    }
}
