package org.softrnic.nic.bench;

import java.util.SplittableRandom;

/**
 * The machine's memory latency by working-set size: a dependent load chased through a random cycle of
 * cache lines, so no prefetcher helps. It tells what a cache miss on a QP's state costs on the machine the
 * benchmark ran on, beside the rates it measured. Past the TLB's reach (4 KiB pages) each load also walks the
 * page tables, as a miss on a QP's scattered objects does.
 */
final class MemoryLadder {
    private static final int LINE_INTS = 16; // 64-byte lines

    private MemoryLadder() {
    }

    /** Nanoseconds per load over a working set of {@code mib} MiB. */
    static double nanosPerLoad(int mib, int steps) {
        int lines = mib * (1 << 20) / 64;
        int[] next = new int[lines * LINE_INTS];
        int[] order = new int[lines];
        for (int i = 0; i < lines; i++) order[i] = i;
        SplittableRandom random = new SplittableRandom(1);
        for (int i = lines - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < lines; i++) next[order[i] * LINE_INTS] = order[(i + 1) % lines] * LINE_INTS;
        int p = 0;
        for (int i = 0; i < lines; i++) p = next[p]; // warm: every line once
        long t0 = System.nanoTime();
        for (int i = 0; i < steps; i++) p = next[p];
        double ns = (System.nanoTime() - t0) / (double) steps;
        if (p == -1) System.out.print(""); // keeps the chase
        return ns;
    }

    /** One line: the latency at each size, over {@code steps} loads each. */
    static String line(int steps, int... mibs) {
        nanosPerLoad(1, steps); // compiled before the first figure counts
        StringBuilder b = new StringBuilder("memory latency, a dependent load over a random working set:");
        for (int mib : mibs) b.append(String.format(" %d MiB %.0f ns;", mib, nanosPerLoad(mib, steps)));
        return b.substring(0, b.length() - 1);
    }
}
