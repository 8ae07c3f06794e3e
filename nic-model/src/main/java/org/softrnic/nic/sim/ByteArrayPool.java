package org.softrnic.nic.sim;

import java.util.ArrayDeque;

/**
 * Byte arrays for packets in flight, reused: one free list per power of two from 64 B to 16 KiB, the array last
 * given back handed out first, while it is still in the cache. A fabric that copies every packet it carries
 * would otherwise allocate (and zero) a fresh array per packet. Each list keeps at most {@link #KEPT} arrays,
 * so a burst of many packets in flight does not stay on the heap after it.
 */
final class ByteArrayPool {
    private static final int SMALLEST = 6; // 64 B
    private static final int LARGEST = 14; // 16 KiB
    static final int KEPT = 1024;
    @SuppressWarnings("unchecked")
    private final ArrayDeque<byte[]>[] free = new ArrayDeque[LARGEST - SMALLEST + 1];

    ByteArrayPool() {
        for (int i = 0; i < free.length; i++) free[i] = new ArrayDeque<>();
    }

    /** An array of at least {@code length} bytes (its content is what it last held). */
    byte[] take(int length) {
        int c = sizeClass(length);
        if (c < 0) return new byte[length];
        byte[] a = free[c].pollLast();
        return a != null ? a : new byte[1 << (c + SMALLEST)];
    }

    /** Gives an array from {@link #take} back; one of another size, or one too many, is left to the GC. */
    void give(byte[] a) {
        int c = sizeClass(a.length);
        if (c >= 0 && a.length == 1 << (c + SMALLEST) && free[c].size() < KEPT) free[c].addLast(a);
    }

    /** Arrays kept for reuse, over every size. */
    int kept() {
        int n = 0;
        for (ArrayDeque<byte[]> f : free) n += f.size();
        return n;
    }

    private static int sizeClass(int length) {
        int bits = 32 - Integer.numberOfLeadingZeros(Math.max(1, length - 1));
        int c = Math.max(bits, SMALLEST) - SMALLEST;
        return bits > LARGEST ? -1 : c;
    }
}
