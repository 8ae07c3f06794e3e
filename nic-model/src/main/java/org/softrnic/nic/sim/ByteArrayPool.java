package org.softrnic.nic.sim;

import java.util.ArrayDeque;

/**
 * Byte arrays for packets in flight, reused: one free list per size (64, 128 and 256 B, then every multiple of
 * 512 B up to 16 KiB, so that a full MTU-4096 packet of about 4.2 KB takes 4.5 KiB, not 8), the array last given
 * back handed out first, while it is still in the cache. A fabric that copies every packet it carries would
 * otherwise allocate (and zero) a fresh array per packet. Each list keeps at most {@link #KEPT} arrays, so that a
 * burst of many packets in flight does not stay on the heap after it; a switched fabric keeps
 * {@link #KEPT_SWITCHED}, since its queues hold tens of thousands of packets, and a smaller pool would allocate
 * each time they fill again.
 */
final class ByteArrayPool {
    private static final int SMALL = 3; // 64, 128, 256
    private static final int STEP = 512;
    private static final int LARGEST = 16384;
    static final int KEPT = 1024;
    static final int KEPT_SWITCHED = 1 << 16;
    private int limit = KEPT;

    /** Keeps up to {@code arrays} per size from now on. */
    void keep(int arrays) {
        limit = arrays;
    }

    int limit() {
        return limit;
    }
    @SuppressWarnings("unchecked")
    private final ArrayDeque<byte[]>[] free = new ArrayDeque[SMALL + LARGEST / STEP];

    ByteArrayPool() {
        for (int i = 0; i < free.length; i++) free[i] = new ArrayDeque<>();
    }

    /** An array of at least {@code length} bytes (its content is what it last held). */
    byte[] take(int length) {
        int c = sizeClass(length);
        if (c < 0) return new byte[length];
        byte[] a = free[c].pollLast();
        return a != null ? a : new byte[capacity(c)];
    }

    /** Gives an array from {@link #take} back; one of another size, or one too many, is left to the GC. */
    void give(byte[] a) {
        int c = sizeClass(a.length);
        if (c >= 0 && capacity(c) == a.length && free[c].size() < limit) free[c].addLast(a);
    }

    /** Arrays kept for reuse, over every size. */
    int kept() {
        int n = 0;
        for (ArrayDeque<byte[]> f : free) n += f.size();
        return n;
    }

    private static int sizeClass(int length) {
        if (length <= 64) return 0;
        if (length <= 128) return 1;
        if (length <= 256) return 2;
        return length <= LARGEST ? SMALL + (length - 1) / STEP : -1;
    }

    private static int capacity(int c) {
        return c < SMALL ? 64 << c : (c - SMALL + 1) * STEP;
    }
}
