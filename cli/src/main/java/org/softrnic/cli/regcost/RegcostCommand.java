package org.softrnic.cli.regcost;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.emulator.config.RegCostConfig;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftFabric;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MrCache;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.RdmaContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "regcost", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure what registering memory costs: ibv_reg_mr and ibv_dereg_mr of buffers from 4 KiB up, the median"
                + " of --iters calls each, and a registration cache's hit. On a real device (--provider ibverbs) that is the kernel"
                + " pinning pages and the NIC making a key; on the soft RNIC it is what --reg-cost charges (nothing by default)."},
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic regcost", "  softrnic regcost --reg-cost 20000,200", "  softrnic regcost --provider ibverbs -d rxe0 --max-size 268435456"})
public final class RegcostCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--provider", paramLabel = "NAME", defaultValue = "soft", description = "soft (default) or ibverbs")
    String provider;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "ibverbs: the device (default: the first listed)")
    String device;

    @Option(names = "--max-size", paramLabel = "B", defaultValue = "67108864", description = "the largest buffer, a power of two"
            + " from 4 KiB (default ${DEFAULT-VALUE})")
    long maxSize;

    @Option(names = "--iters", paramLabel = "N", defaultValue = "20", description = "calls per size; the median is shown (default ${DEFAULT-VALUE})")
    int iters;

    @Option(names = "--reg-cost", paramLabel = "CALL_NS,PAGE_NS[,DEREG_CALL_NS,DEREG_PAGE_NS]",
            description = "soft: what each call and each 4 KiB page costs (reg_cost in a device's configuration)")
    String regCost;

    @Override
    public Integer call() throws Exception {
        if (iters < 1 || iters > 100_000) throw new UserError("--iters must be 1..100000, not " + iters);
        if (maxSize < 4096 || Long.bitCount(maxSize) != 1 || maxSize > (1L << 34)) {
            throw new UserError("--max-size must be a power of two from 4096 to 16 GiB, not " + maxSize);
        }
        PrintWriter out = spec.commandLine().getOut();
        return switch (provider) {
            case "soft" -> {
                RegCostConfig cost = cost();
                try (SoftFabric fabric = SoftFabric.virtual(1)) {
                    SoftRnic dev = fabric.add(SoftRnicConfig.builder().name("softrnic0").gid("10.0.0.1").regCost(cost).build());
                    try (RdmaContext ctx = dev.open()) {
                        measure(ctx, "softrnic0 (soft" + (cost.charges() ? ", reg_cost " + regCost : ", no reg_cost") + ")", out);
                    }
                    dev.close();
                }
                yield 0;
            }
            case "ibverbs" -> {
                if (regCost != null) throw new UserError("--reg-cost charges the soft RNIC; a real device's cost is what this measures");
                try (RdmaContext ctx = org.softrnic.cli.oob.ToolDevice.chosen(device).open()) {
                    measure(ctx, ctx.device().name() + " (ibverbs)", out);
                }
                yield 0;
            }
            default -> throw new UserError("--provider must be soft or ibverbs, not '" + provider + "'");
        };
    }

    private RegCostConfig cost() {
        return regCost == null ? RegCostConfig.NONE : RegCostOption.parse(regCost, true);
    }

    private void measure(RdmaContext ctx, String what, PrintWriter out) {
        out.printf(Locale.ROOT, "ibv_reg_mr and ibv_dereg_mr on %s, the median of %d calls each:%n", what, iters);
        out.printf(Locale.ROOT, "%12s  %12s  %12s  %16s%n", "size", "reg (us)", "dereg (us)", "reg per page (ns)");
        double reg4k = 0;
        try (ProtectionDomain pd = ctx.allocPd()) {
            for (long size = 4096; size <= maxSize; size <<= 1) reg4k = row(pd, size, reg4k, out);
            try (Arena arena = Arena.ofShared(); MrCache cache = new MrCache(pd, 1 << 20)) {
                MemorySegment buf = arena.allocate(65536, 4096);
                for (int i = 0; i < 20_000; i++) cache.get(buf, Access.LOCAL_WRITE).close(); // compiled, as in a long run
                long[] hit = new long[Math.max(iters, 1000)];
                for (int i = 0; i < hit.length; i++) {
                    long t0 = System.nanoTime();
                    cache.get(buf, Access.LOCAL_WRITE).close();
                    hit[i] = System.nanoTime() - t0;
                }
                out.printf(Locale.ROOT, "a registration cache's hit (MrCache get and release, 64 KiB): %.2f us, median of %d%n",
                        median(hit) / 1000.0, hit.length);
            }
        }
    }

    /** One size's row; its median registration time in µs, the 4 KiB one the rows after it count pages from. */
    private double row(ProtectionDomain pd, long size, double reg4k, PrintWriter out) {
        try (Arena arena = Arena.ofShared()) { // one size at a time: at most --max-size resident
            MemorySegment buf = arena.allocate(size, 4096);
            buf.fill((byte) 1); // the pages exist before the first registration: the kernel pins, it does not fault them in
            long[] reg = new long[iters];
            long[] dereg = new long[iters];
            for (int i = 0; i < iters; i++) {
                long t0 = System.nanoTime();
                MemoryRegion mr = pd.regMr(buf, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
                long t1 = System.nanoTime();
                mr.close();
                reg[i] = t1 - t0;
                dereg[i] = System.nanoTime() - t1;
            }
            double r = median(reg) / 1000.0;
            long pages = size / 4096;
            out.printf(Locale.ROOT, "%12s  %12.1f  %12.1f  %16s%n", human(size), r, median(dereg) / 1000.0,
                    pages == 1 ? "-" : String.format(Locale.ROOT, "%.1f", (r - reg4k) * 1000 / (pages - 1)));
            return size == 4096 ? r : reg4k;
        }
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }

    private static String human(long bytes) {
        List<String> units = new ArrayList<>(List.of("B", "KiB", "MiB", "GiB"));
        int u = 0;
        double v = bytes;
        while (v >= 1024 && u < units.size() - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.0f %s", v, units.get(u));
    }
}
