package org.softrnic.cli.demo;

import java.io.PrintWriter;
import java.util.Locale;
import org.softrnic.emulator.config.RegCostConfig;
import org.softrnic.emulator.perf.PerfOp;
import org.softrnic.emulator.perf.PerfOptions;
import org.softrnic.emulator.perf.PerfResult;
import org.softrnic.emulator.perf.PerfRun;
import org.softrnic.verbs.Mtu;

/**
 * {@code demo registration}: what registering each message's buffer costs against registering once or through a
 * registration cache, as a small table. The same WRITEs run three times between two soft RNICs that charge what a
 * registration costs on hardware; the figures are this machine's, measured now (perf's --reg-per-message).
 */
final class RegistrationDemo {
    /** UCX's model of a ConnectX registration (src/uct/ib/base/ib_md.c): 16 µs a call and 0.06 ns a byte, 246 ns a page. */
    static final RegCostConfig UCX_MODEL = new RegCostConfig(16_000L, 246L, 8_000L, 123L);

    private static final int ROUNDS = 3;

    private RegistrationDemo() {
    }

    static void play(PrintWriter out, int size, int iters, RegCostConfig cost) {
        out.printf(Locale.ROOT, "registration: %d RDMA WRITEs of %d bytes, the buffer registered three ways%n", iters, size);
        out.printf(Locale.ROOT, "soft RNICs charging %.1f us a registration and %d ns a page (half that to deregister)%n%n",
                cost.callNs() / 1000.0, cost.pageNs());
        out.printf("  %-46s %13s %9s%n", "how the buffer is registered", "us a message", "MB/s");
        String[][] ways = {{"once, before the loop (perftest)", "once"}, {"per message: reg at post, dereg at completion", "per-message"},
                {"through an MrCache (UCX's rcache)", "cached"}};
        // three rounds of the three ways, each row its best round: the JIT keeps compiling the data path through the first
        // runs, which would otherwise make whichever way ran first look slowest
        double[] best = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] mbps = new double[3];
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < ways.length; i++) {
                PerfOptions o = new PerfOptions(PerfOp.WRITE, "inproc", size, iters, 1, Mtu.MTU_1024, 0, 1, false, 128)
                        .withRegistration(ways[i][1], cost);
                PerfResult r = PerfRun.run(o);
                if (r.error() != null) throw new org.softrnic.cli.RunFailure("demo registration: " + r.error());
                double us = r.seconds() * 1e6 / r.iterations();
                if (us < best[i]) {
                    best[i] = us;
                    mbps[i] = r.bwAverageMBps();
                }
            }
        }
        for (int i = 0; i < ways.length; i++) {
            out.printf(Locale.ROOT, "  %-46s %13.2f %9.2f%s%n", ways[i][0], best[i], mbps[i],
                    i == 0 ? "" : String.format(Locale.ROOT, "   (x%.1f)", best[i] / best[0]));
        }
        out.println();
        out.println("A registration pins the pages and has the NIC build a translation and a key; registering per message");
        out.println("pays that each time, where a cache pays it once and looks it up after. 'softrnic explain registration'");
        out.println("says more; docs/registration.md has the measurements behind the cost.");
        out.flush();
    }
}
