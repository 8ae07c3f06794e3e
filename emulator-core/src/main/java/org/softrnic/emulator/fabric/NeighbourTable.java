package org.softrnic.emulator.fabric;

/**
 * A frame port's neighbours: IP address (IPv4 as IPv4-mapped IPv6, so both families share one table) to
 * MAC, with entries that are still being resolved (MAC unknown) and when each was last asked for. Open
 * addressing over fixed arrays: a lookup allocates nothing. Full means no new neighbours; a link has few.
 */
final class NeighbourTable {
    static final long V4_MAPPED = 0xffffL << 32;
    static final long UNKNOWN = -1;
    private static final int CAPACITY = 1024;

    private final long[] hi = new long[CAPACITY];
    private final long[] lo = new long[CAPACITY];
    private final long[] mac = new long[CAPACITY];
    private final long[] asked = new long[CAPACITY];
    private final boolean[] used = new boolean[CAPACITY];
    private int size;

    static long v4(int address) {
        return V4_MAPPED | Integer.toUnsignedLong(address);
    }

    static boolean isV4(long hi, long lo) {
        return hi == 0 && (lo & 0xffff_ffff_0000_0000L) == V4_MAPPED;
    }

    /** The slot of the address, added as unresolved if new; -1 if the table is full. */
    int slot(long h, long l) {
        int i = start(h, l);
        for (int n = 0; n < CAPACITY; n++, i = (i + 1) & (CAPACITY - 1)) {
            if (!used[i]) {
                if (size == CAPACITY - 1) return -1; // keep one free, so that a search always ends
                used[i] = true;
                hi[i] = h;
                lo[i] = l;
                mac[i] = UNKNOWN;
                asked[i] = Long.MIN_VALUE;
                size++;
                return i;
            }
            if (hi[i] == h && lo[i] == l) return i;
        }
        return -1;
    }

    private static int start(long h, long l) {
        long x = (h * 0x9e37_79b9_7f4a_7c15L) ^ (l * 0xc2b2_ae3d_27d4_eb4fL);
        return (int) (x ^ (x >>> 29)) & (CAPACITY - 1);
    }

    long mac(int slot) {
        return mac[slot];
    }

    /** Records the address's MAC; returns its slot, or -1 if the table is full. */
    int learn(long h, long l, long m) {
        int s = slot(h, l);
        if (s >= 0) mac[s] = m;
        return s;
    }

    /** True if a request for this slot's address may go out now (at most one a second, as the kernel). */
    boolean mayAsk(int slot, long now) {
        if (asked[slot] != Long.MIN_VALUE && now - asked[slot] < 1_000_000_000L) return false;
        asked[slot] = now;
        return true;
    }

    long hi(int slot) {
        return hi[slot];
    }

    long lo(int slot) {
        return lo[slot];
    }
}
