package org.softrnic.nic.mem;

import java.util.SplittableRandom;

/**
 * lkeys and rkeys: random 32-bit values, never 0 and never reused while the region they name is live,
 * drawn from a seeded generator so that a simulated run replays exactly.
 */
public final class KeyTable {
    private final SplittableRandom random;
    private final IntMap<MemoryRegion> byLkey = new IntMap<>();
    private final IntMap<MemoryRegion> byRkey = new IntMap<>();

    public KeyTable(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** A fresh key not in use as an lkey or rkey. */
    public int newKey() {
        while (true) {
            int k = random.nextInt();
            if (k != 0 && !byLkey.containsKey(k) && !byRkey.containsKey(k)) return k;
        }
    }

    public void add(MemoryRegion mr) {
        byLkey.put(mr.lkey(), mr);
        if (mr.rkey() != 0) byRkey.put(mr.rkey(), mr);
    }

    public void remove(MemoryRegion mr) {
        byLkey.remove(mr.lkey());
        if (mr.rkey() != 0) byRkey.remove(mr.rkey());
    }

    public MemoryRegion byLkey(int lkey) {
        return byLkey.get(lkey);
    }

    public MemoryRegion byRkey(int rkey) {
        return rkey == 0 ? null : byRkey.get(rkey);
    }

    public int size() {
        return byLkey.size();
    }
}
