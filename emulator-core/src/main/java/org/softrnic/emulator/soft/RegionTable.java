package org.softrnic.emulator.soft;

import java.util.concurrent.atomic.AtomicReferenceArray;
import org.softrnic.nic.mem.MemoryRegion;

/**
 * A device's regions by lkey, for threads that post without the device lock: a lookup takes no lock and
 * allocates nothing, a registration (under the device lock) costs O(1), not a copy of every region, so
 * 10 000 QPs each with its region register in linear time. Open addressing over a power-of-two array of
 * volatile slots; a removed region leaves a tombstone; a full enough table is rebuilt and published whole.
 */
final class RegionTable {
    private static final Object TOMBSTONE = new Object();

    private volatile AtomicReferenceArray<Object> slots = new AtomicReferenceArray<>(64);
    /** Live regions plus tombstones: what a probe may walk over. Written under the device lock only. */
    private int used;
    private int live;

    MemoryRegion get(int lkey) {
        AtomicReferenceArray<Object> s = slots;
        int mask = s.length() - 1;
        for (int i = mix(lkey) & mask, n = 0; n <= mask; i = (i + 1) & mask, n++) {
            Object o = s.get(i);
            if (o == null) return null;
            if (o != TOMBSTONE && ((MemoryRegion) o).lkey() == lkey) return (MemoryRegion) o;
        }
        return null;
    }

    /** Called under the device lock. */
    void put(MemoryRegion mr) {
        if ((used + 1) * 2 > slots.length()) rebuild(Math.max(64, Integer.highestOneBit(Math.max(1, live + 1) * 4)));
        AtomicReferenceArray<Object> s = slots;
        int mask = s.length() - 1;
        int i = mix(mr.lkey()) & mask;
        while (s.get(i) != null && s.get(i) != TOMBSTONE) i = (i + 1) & mask;
        if (s.get(i) == null) used++;
        s.set(i, mr);
        live++;
    }

    /** Called under the device lock. */
    void remove(MemoryRegion mr) {
        AtomicReferenceArray<Object> s = slots;
        int mask = s.length() - 1;
        for (int i = mix(mr.lkey()) & mask, n = 0; n <= mask; i = (i + 1) & mask, n++) {
            Object o = s.get(i);
            if (o == null) return;
            if (o == mr) {
                s.set(i, TOMBSTONE);
                live--;
                return;
            }
        }
    }

    /** A new array with the live regions only, published at once: readers see the old one or the new one. */
    private void rebuild(int capacity) {
        AtomicReferenceArray<Object> old = slots;
        AtomicReferenceArray<Object> s = new AtomicReferenceArray<>(capacity);
        int mask = capacity - 1;
        for (int j = 0; j < old.length(); j++) {
            Object o = old.get(j);
            if (o == null || o == TOMBSTONE) continue;
            int i = mix(((MemoryRegion) o).lkey()) & mask;
            while (s.get(i) != null) i = (i + 1) & mask;
            s.set(i, o);
        }
        used = live;
        slots = s;
    }

    /** Keys are random 32-bit values with an 8-bit key part in the low byte; spread them over the table. */
    private static int mix(int key) {
        int h = key * 0x9e3779b9;
        return h ^ (h >>> 16);
    }
}
