package org.softrnic.nic.transport;

import java.util.ArrayList;
import java.util.List;

/**
 * A device's QP context memory, as an RNIC keeps its QP contexts: a record per QP, the records side by side in
 * slot order. A Java object lies where its allocation and the collector put it, its fields in the order the JVM
 * chooses: a role's few hot fields then span two or three lines among other fields, and the next QP's lie
 * elsewhere. Here the responder's hot fields fill one 64-byte record ({@link RespLine}), on one line or two (a
 * heap array is not aligned to a line), so with thousands of QPs taking turns a request brings in that record;
 * QPs made one after the other get neighbouring slots, so serving them in turn reads memory in order, which the
 * core's prefetcher streams (a QP reset takes a new slot, and a freed slot is the next one handed out). The blocks
 * are heap arrays read through byte-array views: off the heap, each access also checked alignment and the arena's
 * liveness, which cost some 35 ns a request at 100 QPs. A block may move with the collector, whole. The table
 * grows by blocks, so a context keeps its block and offset for life.
 */
final class QpLines {
    static final int LINE = 64;
    /** The lines of one QP: the responder's. */
    static final int PER_QP = LINE;
    /** QPs a block holds. */
    static final int BLOCK_QPS = 256;
    private final List<byte[]> blocks = new ArrayList<>();
    /** Free slots, each a block index times {@link #BLOCK_QPS} plus the slot in it. */
    private int[] free = new int[0];
    private int freeCount;

    /** A free slot, its lines zeroed. */
    int allocate() {
        if (freeCount == 0) grow();
        int slot = free[--freeCount];
        java.util.Arrays.fill(block(slot), offset(slot), offset(slot) + PER_QP, (byte) 0);
        return slot;
    }

    void release(int slot) {
        free[freeCount++] = slot;
    }

    /** The block that holds {@code slot}'s lines. */
    byte[] block(int slot) {
        return blocks.get(slot / BLOCK_QPS);
    }

    /** Where in its block {@code slot}'s lines start. */
    static int offset(int slot) {
        return (slot % BLOCK_QPS) * PER_QP;
    }

    private void grow() {
        int first = blocks.size() * BLOCK_QPS;
        blocks.add(new byte[BLOCK_QPS * PER_QP]);
        free = java.util.Arrays.copyOf(free, first + BLOCK_QPS);
        for (int i = first + BLOCK_QPS - 1; i >= first; i--) free[freeCount++] = i; // the lowest first
    }
}
