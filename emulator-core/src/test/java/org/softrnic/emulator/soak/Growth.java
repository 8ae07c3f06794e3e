package org.softrnic.emulator.soak;

import java.util.List;

/**
 * The soak's growth rule, per process: the largest heap after GC in the run's second half may exceed the
 * first half's largest by at most a quarter or 4 MiB, whichever is more, and the resident set by at most
 * 32 MiB (JIT and arenas settle in the first minutes). A leak of a few hundred bytes a round breaks it
 * within the hour.
 */
final class Growth {
    private static final long HEAP_SLACK = 4L << 20, RSS_SLACK = 32L << 20;

    private Growth() {
    }

    /** Null when nothing grew; else what did. */
    static String check(List<Sample[]> series) {
        if (series.size() < 2) return null;
        for (int p = 0; p < 2; p++) {
            long[] heap = halves(series, p, true), rss = halves(series, p, false);
            String who = p == 0 ? "requester" : "responder";
            if (heap[1] > heap[0] + Math.max(HEAP_SLACK, heap[0] / 4)) {
                return who + "'s heap after GC grew from " + Sample.mib(heap[0]) + " to " + Sample.mib(heap[1]);
            }
            if (rss[0] > 0 && rss[1] > rss[0] + RSS_SLACK) return who + "'s RSS grew from " + Sample.mib(rss[0]) + " to " + Sample.mib(rss[1]);
        }
        return null;
    }

    static String describe(List<Sample[]> series) {
        if (series.isEmpty()) return "no samples";
        StringBuilder b = new StringBuilder();
        for (int p = 0; p < 2; p++) {
            long[] heap = halves(series, p, true), rss = halves(series, p, false);
            b.append(p == 0 ? "requester" : "; responder").append(" heap max ").append(Sample.mib(heap[0])).append(" then ")
                    .append(Sample.mib(heap[1])).append(", rss max ").append(Sample.mib(rss[0])).append(" then ").append(Sample.mib(rss[1]));
        }
        return b.toString();
    }

    /** The largest value in the first half of the samples and in the second. */
    private static long[] halves(List<Sample[]> series, int process, boolean heap) {
        long[] max = {0, 0};
        int half = series.size() / 2;
        for (int i = 0; i < series.size(); i++) {
            Sample s = series.get(i)[process];
            int h = i < half ? 0 : 1;
            max[h] = Math.max(max[h], heap ? s.heapAfterGc() : s.rss());
        }
        return max;
    }
}
