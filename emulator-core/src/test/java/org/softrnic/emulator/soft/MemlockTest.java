package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.ConfigFiles;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.VerbsException;

/**
 * What registration costs on hardware, on the soft provider: the locked-memory limit, as the kernel applies RLIMIT_MEMLOCK
 * to ibv_reg_mr (whole pages count, past the limit the registration fails with ENOMEM and says what to do, and a
 * deregistration gives its pages back), and reg_cost's time.
 */
class MemlockTest {
    @Test
    void pastTheLimitIbvRegMrFailsWithEnomemAndSaysUlimit() {
        SoftRnicConfig config = ConfigFiles.parseYaml("name: memlock\ngids: [10.7.0.1]\nlimits:\n  memlock_bytes: 1048576\n");
        try (SoftFabric fabric = SoftFabric.virtual(1); Arena arena = Arena.ofShared()) {
            SoftRnic dev = fabric.add(config);
            try (var ctx = dev.open(); var pd = ctx.allocPd()) {
                MemorySegment half = arena.allocate(512 * 1024, 4096);
                MemorySegment more = arena.allocate(600 * 1024, 4096);
                MemoryRegion first = pd.regMr(half, Access.LOCAL_WRITE);
                assertEquals(512 * 1024, dev.lockedBytes());
                VerbsException e = assertThrows(VerbsException.class, () -> pd.regMr(more, Access.LOCAL_WRITE));
                assertEquals(Errno.ENOMEM, e.errno());
                assertTrue(e.getMessage().contains("ibv_reg_mr") && e.getMessage().contains("ulimit -l")
                        && e.getMessage().contains("past the locked-memory limit of 1048576 bytes with 524288 locked already"), e.getMessage());
                assertEquals(512 * 1024, dev.lockedBytes(), "a refused registration locks nothing");
                // one byte into a page pins the whole page, as ib_umem_get counts
                MemoryRegion tiny = pd.regMr(arena.allocate(4096, 4096).asSlice(100, 1), Access.LOCAL_WRITE);
                assertEquals(512 * 1024 + 4096, dev.lockedBytes());
                tiny.close();
                first.close();
                assertEquals(0, dev.lockedBytes(), "deregistration gives the pages back");
                try (MemoryRegion now = pd.regMr(more, Access.LOCAL_WRITE)) {
                    assertEquals(600 * 1024, dev.lockedBytes());
                }
            }
            dev.close();
        }
    }

    @Test
    void withoutALimitNothingIsRefused() {
        try (SoftFabric fabric = SoftFabric.virtual(1); Arena arena = Arena.ofShared()) {
            SoftRnic dev = fabric.add(SoftRnicConfig.builder().name("nolimit").gid("10.7.0.2").build());
            try (var ctx = dev.open(); var pd = ctx.allocPd(); var mr = pd.regMr(arena.allocate(64 << 20, 4096), Access.LOCAL_WRITE)) {
                assertEquals(64 << 20, dev.lockedBytes());
            }
            dev.close();
        }
    }

    /** reg_cost charges each registration its call and its pages, and each deregistration its own, in wall-clock time. */
    @Test
    void regCostChargesTheCallAndThePages() {
        var cost = new org.softrnic.emulator.config.RegCostConfig(200_000L, 1_000L, 100_000L, 0L);
        try (SoftFabric fabric = SoftFabric.virtual(1); Arena arena = Arena.ofShared()) {
            SoftRnic dev = fabric.add(SoftRnicConfig.builder().name("cost").gid("10.7.0.3").regCost(cost).build());
            try (var ctx = dev.open(); var pd = ctx.allocPd()) {
                MemorySegment buf = arena.allocate(256 * 4096, 4096);
                long t0 = System.nanoTime();
                MemoryRegion mr = pd.regMr(buf, Access.LOCAL_WRITE);
                long reg = System.nanoTime() - t0;
                t0 = System.nanoTime();
                mr.close();
                long dereg = System.nanoTime() - t0;
                assertTrue(reg >= 200_000 + 256 * 1_000, "a call and 256 pages charged: " + reg + " ns");
                assertTrue(dereg >= 100_000, "deregistration charged: " + dereg + " ns");
            }
            dev.close();
        }
        var bad = assertThrows(org.softrnic.emulator.config.ConfigException.class,
                () -> ConfigFiles.parseYaml("gids: [10.7.0.4]\nreg_cost: {call_ns: -1}\n"));
        assertTrue(bad.getMessage().contains("reg_cost: a cost cannot be negative"), bad.getMessage());
    }
}
