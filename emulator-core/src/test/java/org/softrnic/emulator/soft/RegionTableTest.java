package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.verbs.Access;

/** The lock-free lkey table: every region found by its key, none after its removal, through growth and tombstones. */
class RegionTableTest {
    @Test
    void tenThousandRegionsInAndHalfOut() {
        ProtectionDomain pd = new ProtectionDomain(1);
        MemorySegment mem = MemorySegment.ofArray(new byte[64]);
        SplittableRandom r = new SplittableRandom(3);
        Set<Integer> keys = new HashSet<>();
        List<MemoryRegion> regions = new ArrayList<>();
        RegionTable t = new RegionTable();
        while (regions.size() < 10_000) {
            int k = r.nextInt();
            if (!keys.add(k)) continue;
            MemoryRegion mr = new MemoryRegion(pd, mem, 0, Access.LOCAL_WRITE, k, 0);
            regions.add(mr);
            t.put(mr);
        }
        for (MemoryRegion mr : regions) assertSame(mr, t.get(mr.lkey()));
        for (int i = 0; i < regions.size(); i += 2) t.remove(regions.get(i));
        for (int round = 0; round < 3; round++) {
            // re-registering after removals reuses tombstones and rebuilds, never losing a live key
            for (int i = 0; i < regions.size(); i += 2) {
                if (round % 2 == 0) t.put(regions.get(i));
                else t.remove(regions.get(i));
            }
        }
        for (int i = 0; i < regions.size(); i++) {
            MemoryRegion mr = regions.get(i);
            if (i % 2 == 0) assertSame(mr, t.get(mr.lkey()));
            else assertSame(mr, t.get(mr.lkey()));
        }
        for (int i = 0; i < regions.size(); i += 2) t.remove(regions.get(i));
        for (int i = 0; i < regions.size(); i++) {
            MemoryRegion mr = regions.get(i);
            if (i % 2 == 0) assertNull(t.get(mr.lkey()), "removed");
            else assertSame(mr, t.get(mr.lkey()));
        }
        int absent;
        do absent = r.nextInt(); while (keys.contains(absent));
        assertNull(t.get(absent));
    }
}
