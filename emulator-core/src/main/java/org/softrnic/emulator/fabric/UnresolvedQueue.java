package org.softrnic.emulator.fabric;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Frames waiting for their next hop's MAC, as the kernel's neighbour table holds them (unres_qlen): copied in,
 * in order, sent once the address resolves, dropped when the queue is full (the oldest first) or when the
 * address does not resolve within {@link #EXPIRY_NANOS}. Slots are allocated once.
 */
final class UnresolvedQueue {
    static final long EXPIRY_NANOS = 3_000_000_000L;

    /** Sends a frame held here whose destination's MAC is now known. */
    @FunctionalInterface
    interface Sender {
        void send(MemorySegment frame, int length, int dst);
    }

    private final MemorySegment[] slots;
    private final int[] dst;
    private final int[] length;
    private final long[] since;
    private int count;
    private long dropped;

    UnresolvedQueue(Arena arena, int capacity, int frameBytes) {
        slots = new MemorySegment[capacity];
        dst = new int[capacity];
        length = new int[capacity];
        since = new long[capacity];
        for (int i = 0; i < capacity; i++) slots[i] = arena.allocate(frameBytes, 8);
    }

    /** Holds a copy of the frame at {@code at} for {@code to}. */
    void hold(MemorySegment s, long at, int len, int to, long now) {
        if (count == slots.length) drop(0);
        MemorySegment.copy(s, at, slots[count], 0, len);
        dst[count] = to;
        length[count] = len;
        since[count] = now;
        count++;
    }

    /** Sends, in order, every held frame for {@code to}; the rest stay. */
    void resolved(int to, Sender sender) {
        int keep = 0;
        for (int i = 0; i < count; i++) {
            if (dst[i] == to) {
                sender.send(slots[i], length[i], to);
            } else {
                move(i, keep++);
            }
        }
        count = keep;
    }

    /** Drops what waited too long. */
    void expire(long now) {
        int keep = 0;
        for (int i = 0; i < count; i++) {
            if (now - since[i] > EXPIRY_NANOS) dropped++;
            else move(i, keep++);
        }
        count = keep;
    }

    boolean isEmpty() {
        return count == 0;
    }

    long dropped() {
        return dropped;
    }

    private void drop(int i) {
        dropped++;
        for (int j = i + 1; j < count; j++) move(j, j - 1);
        count--;
    }

    /** Moves entry {@code from} to {@code to} by swapping slots, so no segment is lost or shared. */
    private void move(int from, int to) {
        if (from == to) return;
        MemorySegment s = slots[to];
        slots[to] = slots[from];
        slots[from] = s;
        dst[to] = dst[from];
        length[to] = length[from];
        since[to] = since[from];
    }
}
