package org.softrnic.emulator.perf;

import java.util.Arrays;

/**
 * Completion latency, from posting a work request to polling its completion, in microseconds; perftest's
 * latency columns. With one request outstanding per QP this is the round trip; with more it includes queueing.
 */
public record Latency(double minUsec, double typicalUsec, double p99Usec, double p999Usec, double maxUsec, long samples) {
    /** Summarises the first {@code n} samples (nanoseconds); sorts them in place. */
    static Latency of(long[] nanos, int n) {
        if (n == 0) return null;
        Arrays.sort(nanos, 0, n);
        return new Latency(nanos[0] / 1e3, nanos[n / 2] / 1e3, nanos[rank(n, 0.99)] / 1e3, nanos[rank(n, 0.999)] / 1e3,
                nanos[n - 1] / 1e3, n);
    }

    private static int rank(int n, double q) {
        return Math.min(n - 1, (int) Math.ceil(q * n) - 1);
    }
}
