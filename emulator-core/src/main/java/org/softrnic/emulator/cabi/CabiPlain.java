package org.softrnic.emulator.cabi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** The verbs that need no engine: fork support, the P_Key table of a RoCE port, and the rate conversions. */
final class CabiPlain {
    /** enum ibv_rate by value (2: IBV_RATE_2_5_GBPS to 22: IBV_RATE_600_GBPS) as Mb/s, -1 for none: rdma-core's verbs.c. */
    private static final int[] MBPS = {-1, -1, 2500, 10000, 30000, 5000, 20000, 40000, 60000, 80000, 120000, 14062, 56250, 112500,
            168750, 25781, 103125, 206250, 309375, 28125, 53125, 425000, 637500};
    /** The same as multiples of 2.5 Gb/s, for the IBTA's SDR-based rates (2 to 10). */
    private static final int[] MULT = {-1, -1, 1, 4, 12, 2, 8, 16, 24, 32, 48};

    private CabiPlain() {
    }

    /** Nothing to prepare: the device never maps memory the kernel would copy on fork (IBV_FORK_UNNEEDED's reason). */
    static int ibv_fork_init() {
        return 0;
    }

    /** IBV_FORK_UNNEEDED. */
    static int ibv_is_fork_initialized() {
        return 2;
    }

    /** Data is not guaranteed in order before the completion (0), as rxe says. */
    static int ibv_query_qp_data_in_order(MemorySegment qp, int op, int flags) {
        return 0;
    }

    /** softrnic0 is the process's only device: index 0. */
    static int ibv_get_device_index(MemorySegment device) {
        return 0;
    }

    /** A RoCE port's P_Key table holds the default P_Key, 0xffff, at index 0. */
    static int ibv_query_pkey(MemorySegment context, byte port, int index, MemorySegment pkey) {
        if (port != 1 || index != 0) return -1;
        pkey.reinterpret(2).set(ValueLayout.JAVA_SHORT, 0, (short) 0xffff);
        return 0;
    }

    static int ibv_get_pkey_index(MemorySegment context, byte port, short pkey) {
        return port == 1 && pkey == (short) 0xffff ? 0 : -1;
    }

    static int ibv_rate_to_mbps(int rate) {
        return rate >= 0 && rate < MBPS.length ? MBPS[rate] : -1;
    }

    /** The rate of {@code mbps}, or IBV_RATE_MAX (0) for none. */
    static int mbps_to_ibv_rate(int mbps) {
        for (int r = 2; r < MBPS.length; r++) if (MBPS[r] == mbps) return r;
        return 0;
    }

    static int ibv_rate_to_mult(int rate) {
        return rate >= 0 && rate < MULT.length ? MULT[rate] : -1;
    }

    static int mult_to_ibv_rate(int mult) {
        for (int r = 2; r < MULT.length; r++) if (MULT[r] == mult) return r;
        return 0;
    }
}
