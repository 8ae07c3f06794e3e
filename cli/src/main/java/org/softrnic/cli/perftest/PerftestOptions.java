package org.softrnic.cli.perftest;

import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.SendOpcode;

/** One run's settings, after the defaults and dependencies perftest's parser applies (force_dependecies). */
record PerftestOptions(PerftestTest test, String server, int port, int size, int iters, int gidIndex, int txDepth,
                       String device, int waitSeconds, Mtu mtu, AtomicType atomic, int cqMod, int qps, boolean all,
                       int duration, int margin, boolean verify, int timeout, boolean rdmaCm) {
    /** The same options, naming the device that was opened (the provider may have chosen it). */
    PerftestOptions withDevice(String name) {
        return new PerftestOptions(test, server, port, size, iters, gidIndex, txDepth, name, waitSeconds, mtu, atomic, cqMod, qps, all,
                duration, margin, verify, timeout, rdmaCm);
    }

    /** sysconf(_SC_PAGESIZE): the C side takes the larger of both, so softrnic sends the usual value. */
    static final int CYCLE_BUFFER = 4096;
    /** The L1 cache line both sides agree on. */
    static final int CACHE_LINE = 64;
    /** Receives a SEND test's receiver keeps posted. */
    static final int RX_DEPTH = 512;
    /** Above this size, CQ moderation is off unless asked for (MSG_SIZE_CQ_MOD_LIMIT). */
    static final int CQ_MOD_LIMIT = 8192;
    static final int DEFAULT_CQ_MOD = 100;
    /** -a runs every power of two from 2 to this (MAX_SIZE), and buffers are laid out for it. */
    static final int MAX_SIZE = 1 << 23;

    /** -A: ib_atomic_bw's operation and the operands it sends. */
    enum AtomicType {
        FETCH_AND_ADD(SendOpcode.ATOMIC_FETCH_AND_ADD, 1, 0),
        CMP_AND_SWAP(SendOpcode.ATOMIC_CMP_AND_SWP, 0, 0);

        final SendOpcode opcode;
        final long compareAdd;
        final long swap;

        AtomicType(SendOpcode opcode, long compareAdd, long swap) {
            this.opcode = opcode;
            this.compareAdd = compareAdd;
            this.swap = swap;
        }
    }

    boolean client() {
        return server != null;
    }

    /** One QP's share of each half of the region (BUFF_SIZE): its source area, and the area its peer targets. */
    int buffSize() {
        return (Math.max(all ? MAX_SIZE : size, CYCLE_BUFFER) + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
    }

    /** The sizes to run: one, or with -a every power of two from 2 to MAX_SIZE. */
    int[] sizes() {
        if (!all) return new int[] {size};
        int[] s = new int[23];
        for (int i = 0; i < s.length; i++) s[i] = 2 << i;
        return s;
    }

    boolean timed() {
        return duration > 0;
    }

    DurationClock clock() {
        return new DurationClock(duration, margin);
    }
}
