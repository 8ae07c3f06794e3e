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
    private final IntMap<MemoryWindow> windows = new IntMap<>();

    /** The device's own regions draw from another stream: an application's keys stay what its seed gives. */
    private final SplittableRandom kernelRandom;

    public KeyTable(long seed) {
        this.random = new SplittableRandom(seed);
        this.kernelRandom = new SplittableRandom(seed ^ 0x6a09e667f3bcc909L);
    }

    /** A fresh key not in use as an lkey or rkey. */
    public int newKey() {
        return newKey(random);
    }

    /** A fresh key for a region of the device's own (QP1's buffers). */
    public int newKernelKey() {
        return newKey(kernelRandom);
    }

    private int newKey(SplittableRandom random) {
        while (true) {
            int k = random.nextInt();
            if (k != 0 && !byLkey.containsKey(k) && !byRkey.containsKey(k) && !windows.containsKey(k)) return k;
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

    /** A fast-register region changed its key (ib_update_fast_reg_key): re-file it. */
    public void rekey(MemoryRegion mr, int oldLkey, int oldRkey) {
        byLkey.remove(oldLkey);
        if (oldRkey != 0) byRkey.remove(oldRkey);
        add(mr);
    }

    public void addWindow(MemoryWindow mw) {
        windows.put(mw.rkey(), mw);
    }

    public void removeWindow(MemoryWindow mw) {
        windows.remove(mw.rkey());
    }

    /** A window's rkey changes at each type 2 bind (ibv_inc_rkey): re-file it under the new key. */
    public void rekeyWindow(MemoryWindow mw, int oldRkey) {
        windows.remove(oldRkey);
        windows.put(mw.rkey(), mw);
    }

    public MemoryWindow windowByRkey(int rkey) {
        return rkey == 0 ? null : windows.get(rkey);
    }

    /** Whether {@code rkey} is free to become a window's new key. */
    public boolean rkeyFree(int rkey) {
        return rkey != 0 && !byLkey.containsKey(rkey) && !byRkey.containsKey(rkey) && !windows.containsKey(rkey);
    }

    public int size() {
        return byLkey.size();
    }
}
