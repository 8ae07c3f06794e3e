package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.MrCache;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.RdmaContext;

/** The registration cache on the soft provider: hits, covering ranges, access, LRU under a budget, freed memory. */
class MrCacheTest {
    private interface Body {
        void run(SoftRnic dev, ProtectionDomain pd, Arena arena) throws Exception;
    }

    private static void withPd(Body body) throws Exception {
        try (SoftFabric fabric = SoftFabric.virtual(1); Arena arena = Arena.ofShared()) {
            SoftRnic dev = fabric.add(SoftRnicConfig.builder().name("cache").gid("10.8.0.1").build());
            try (RdmaContext ctx = dev.open(); ProtectionDomain pd = ctx.allocPd()) {
                body.run(dev, pd, arena);
            }
            dev.close();
        }
    }

    @Test
    void aCoveringRegistrationWithTheAccessIsReused() throws Exception {
        withPd((dev, pd, arena) -> {
            MemorySegment buf = arena.allocate(64 * 1024, 4096);
            try (MrCache cache = new MrCache(pd, 1 << 20)) {
                int lkey;
                try (MrCache.Lease a = cache.get(buf, Access.LOCAL_WRITE)) {
                    lkey = a.lkey();
                    try (MrCache.Lease b = cache.get(buf.asSlice(100, 200), Access.LOCAL_WRITE)) {
                        assertEquals(lkey, b.lkey(), "a part of a cached registration: the same keys");
                    }
                }
                try (MrCache.Lease c = cache.get(buf, Access.LOCAL_WRITE)) {
                    assertEquals(lkey, c.lkey(), "released, still cached");
                }
                try (MrCache.Lease d = cache.get(buf, Access.LOCAL_WRITE | Access.REMOTE_WRITE)) {
                    assertNotEquals(lkey, d.lkey(), "more access than the cached one has: a registration of its own");
                }
                assertEquals(new MrCache.Stats(2, 2, 0, 0, 2 * 64 * 1024, 2), cache.stats());
                assertEquals(2 * 64 * 1024, dev.lockedBytes());
            }
            assertEquals(0, dev.lockedBytes(), "closing the cache deregisters what no lease holds");
        });
    }

    @Test
    void pastTheBudgetTheLeastRecentlyUsedIdleRegistrationGoes() throws Exception {
        withPd((dev, pd, arena) -> {
            MemorySegment[] bufs = {arena.allocate(4096, 4096), arena.allocate(4096, 4096), arena.allocate(4096, 4096)};
            try (MrCache cache = new MrCache(pd, 8192)) {
                for (MemorySegment b : bufs) cache.get(b, Access.LOCAL_WRITE).close();
                assertEquals(1, cache.stats().evictions());
                assertEquals(8192, dev.lockedBytes(), "the first, least recently used, was deregistered");
                cache.get(bufs[2], Access.LOCAL_WRITE).close();
                assertEquals(1, cache.stats().hits());
                cache.get(bufs[0], Access.LOCAL_WRITE).close();
                assertEquals(4, cache.stats().misses(), "the evicted one is registered again");
                MrCache.Lease held = cache.get(bufs[1], Access.LOCAL_WRITE);
                cache.get(arena.allocate(16384, 4096), Access.LOCAL_WRITE).close();
                assertEquals(4096, dev.lockedBytes(), "over budget, every idle one goes; the leased one stays");
                assertEquals(5, cache.stats().evictions());
                held.close();
            }
        });
    }

    /** Memory freed and allocated again at the same address: the old registration's keys are never handed out. */
    @Test
    void freedMemoryIsNeverServedFromTheCache() throws Exception {
        withPd((dev, pd, arena) -> {
            MemorySegment block = arena.allocate(8192, 4096);
            try (MrCache cache = new MrCache(pd, 1 << 20)) {
                int oldKey;
                try (Arena first = Arena.ofShared()) {
                    MemorySegment view = block.reinterpret(first, null);
                    try (MrCache.Lease l = cache.get(view, Access.LOCAL_WRITE)) {
                        oldKey = l.lkey();
                    }
                }
                try (Arena second = Arena.ofShared()) {
                    MemorySegment again = block.reinterpret(second, null);
                    assertEquals(block.address(), again.address(), "the same address");
                    try (MrCache.Lease l = cache.get(again, Access.LOCAL_WRITE)) {
                        assertNotEquals(oldKey, l.lkey(), "a new registration, with keys of its own");
                    }
                    assertEquals(1, cache.stats().invalidations());
                    assertEquals(8192, dev.lockedBytes(), "the freed memory's registration was deregistered");
                }
                // a registration whose memory goes while a lease holds it is deregistered when the lease closes
                Arena third = Arena.ofShared();
                MrCache.Lease held = cache.get(block.reinterpret(third, null), Access.LOCAL_WRITE);
                third.close();
                held.close();
                assertEquals(0, dev.lockedBytes());
            }
            MrCache closed = new MrCache(pd, 0);
            closed.close();
            assertThrows(IllegalStateException.class, () -> closed.get(block, Access.LOCAL_WRITE));
        });
    }

    /** A registration that starts far below what is asked still covers it, however many smaller ones start between. */
    @Test
    void aLargeRegistrationCoversPastManySmallOnes() throws Exception {
        withPd((dev, pd, arena) -> {
            MemorySegment pool = arena.allocate(128 * 4096, 4096);
            try (MrCache cache = new MrCache(pd, 64L << 20)) {
                for (int k = 0; k < 20; k++) cache.get(pool.asSlice(k * 4096L, 4096), Access.LOCAL_WRITE).close();
                int whole;
                try (MrCache.Lease l = cache.get(pool, Access.LOCAL_WRITE)) {
                    whole = l.lkey();
                }
                try (MrCache.Lease l = cache.get(pool.asSlice(100 * 4096L, 4096), Access.LOCAL_WRITE)) {
                    assertEquals(whole, l.lkey(), "the pool's registration, 100 pages below, twenty starts between");
                }
                assertEquals(21, cache.stats().misses());
            }
        });
    }

    /** Memory whose scope never closes cannot tell the cache it went: the application invalidates it. */
    @Test
    void invalidateForgetsWhatTheScopeCannotTell() throws Exception {
        withPd((dev, pd, arena) -> {
            MemorySegment global = MemorySegment.ofAddress(arena.allocate(8192, 4096).address()).reinterpret(8192);
            try (MrCache cache = new MrCache(pd, 1 << 20)) {
                int before;
                try (MrCache.Lease l = cache.get(global, Access.LOCAL_WRITE)) {
                    before = l.lkey();
                }
                cache.invalidate(global.address() + 4096, 1); // freed, in part
                try (MrCache.Lease l = cache.get(global, Access.LOCAL_WRITE)) {
                    assertNotEquals(before, l.lkey());
                }
                assertEquals(1, cache.stats().invalidations());
            }
        });
    }

    /** Refused for lack of locked memory, a miss deregisters the idle registrations and tries again. */
    @Test
    void enomemEvictsTheIdleOnesAndTriesAgain() throws Exception {
        var limits = new org.softrnic.emulator.config.LimitsConfig(null, null, null, null, null, null, null, null, null, 8192L);
        try (SoftFabric fabric = SoftFabric.virtual(1); Arena arena = Arena.ofShared()) {
            SoftRnic dev = fabric.add(SoftRnicConfig.builder().name("tight").gid("10.8.0.2").limits(limits).build());
            try (RdmaContext ctx = dev.open(); ProtectionDomain pd = ctx.allocPd(); MrCache cache = new MrCache(pd, 1 << 20)) {
                cache.get(arena.allocate(4096, 4096), Access.LOCAL_WRITE).close();
                cache.get(arena.allocate(4096, 4096), Access.LOCAL_WRITE).close();
                assertEquals(8192, dev.lockedBytes(), "two idle registrations hold the whole limit");
                try (MrCache.Lease l = cache.get(arena.allocate(4096, 4096), Access.LOCAL_WRITE)) {
                    assertEquals(4096, dev.lockedBytes(), "the idle ones went; the new one fits");
                }
                assertEquals(2, cache.stats().evictions());
            }
            dev.close();
        }
    }
}
