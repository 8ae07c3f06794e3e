package org.softrnic.nic.transport;

/**
 * A device's QP context memory, as an RNIC keeps its QP contexts: a record per QP, the records side by side in
 * slot order. A Java object lies where its allocation and the collector put it, its fields in the order the JVM
 * chooses: a role's few hot fields then span two or three lines among other fields, and the next QP's lie
 * elsewhere; a young collection copies thousands of QPs' objects in an order of its own. Here a request's hot
 * fields fill one 64-byte record ({@link RespLine}), on one line or two (a heap array is not aligned to a line),
 * and the two references it needs (PD, headers) lie in a block of references beside it; a request finds both by
 * its QPN through a table of slots. An RDMA WRITE reads no more; a SEND, a READ, an atomic, UD, the error
 * paths and every response (the completer's) go on to the QP's context object. QPs made one after the other get
 * neighbouring slots, so serving them in turn reads memory in order, which the core's prefetcher streams, whatever
 * the collector did with the objects (a QP reset takes a new slot, and a freed slot is the next one handed out).
 * The blocks are heap arrays read through byte-array views: off the heap, each access also checked alignment and
 * the arena's liveness, which cost some 35 ns a request at 100 QPs. A block may move with the collector, whole.
 * The table grows by blocks, so a context keeps its block and offset for life.
 */
final class QpLines {
    static final int LINE = 64;
    /** The lines of one QP: the responder's. */
    static final int PER_QP = LINE;
    /** QPs a block holds. */
    static final int BLOCK_QPS = 256;
    /** The references each QP's record names (its PD, its headers), slot by slot beside the bytes. */
    static final int REFS = 2;
    /** Plain arrays, not lists: a request finds its record through them, and a list's checks and casts cost there. */
    private byte[][] blocks = new byte[0][];
    private Object[][] refBlocks = new Object[0][];
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
        java.util.Arrays.fill(refs(slot), refOffset(slot), refOffset(slot) + REFS, null); // a freed PD is not kept alive
        free[freeCount++] = slot;
    }

    /** The block that holds {@code slot}'s lines. */
    byte[] block(int slot) {
        return blocks[slot / BLOCK_QPS];
    }

    /** The block of references that holds {@code slot}'s. */
    Object[] refs(int slot) {
        return refBlocks[slot / BLOCK_QPS];
    }

    /** Where in its block of references {@code slot}'s start. */
    static int refOffset(int slot) {
        return (slot % BLOCK_QPS) * REFS;
    }

    /** Where in its block {@code slot}'s lines start. */
    static int offset(int slot) {
        return (slot % BLOCK_QPS) * PER_QP;
    }

    private void grow() {
        int n = blocks.length;
        int first = n * BLOCK_QPS;
        blocks = java.util.Arrays.copyOf(blocks, n + 1);
        blocks[n] = new byte[BLOCK_QPS * PER_QP];
        refBlocks = java.util.Arrays.copyOf(refBlocks, n + 1);
        refBlocks[n] = new Object[BLOCK_QPS * REFS];
        free = java.util.Arrays.copyOf(free, first + BLOCK_QPS);
        for (int i = first + BLOCK_QPS - 1; i >= first; i--) free[freeCount++] = i; // the lowest first
    }
}
