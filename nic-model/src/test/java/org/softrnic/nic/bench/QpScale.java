package org.softrnic.nic.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import org.softrnic.nic.Nic;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.transport.LayoutProbe;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendWr;

/**
 * How a soft RNIC scales with RC QPs: the heap a connected QP costs before and after it has carried
 * traffic (both idle when measured), and the aggregate 4 KiB RDMA WRITE rate when the work is spread round-robin
 * over 1, 100 and 10 000 QPs (one thread, no I/O), with the time per message split between posting and the
 * link's pump, and the pump's between the two devices: a, whose QPs were posted to just before (ACKs to the
 * completer), and b, whose QPs last saw a packet a whole round of QPs ago (requests to the responder). The
 * QPs have perftest's default depth: 128 send and 128 receive WRs.
 *
 * <p>The three device pairs are made first, each measured for its heap by full collections, so their objects lie
 * where that collector's compaction put them. The timing then takes turns: {@link #ROUNDS} rounds, each giving every
 * pair a slice, the order reversed every other round. This machine's speed drifts by a third over seconds when
 * its neighbours are busy; taking turns puts the same drift in every row, so the ratio compares the QP counts, not
 * the moments they ran at. The spread of the per-round ratios is printed beside it.
 */
public final class QpScale {
    private static final int SIZE = 4096;
    private static final QpCaps CAPS = new QpCaps(128, 128, 1, 1, 0);
    private static final int[] COUNTS = {1, 100, 10_000};
    /**
     * Whether the QPs take turns in an order of their own (a fixed shuffle), not in the order they were made: then
     * neither their state nor their packets come as a stream, and only the receive warmer's overlapped misses help.
     */
    private static boolean shuffled;
    /** Even: the median is the mean of the middle two. */
    private static final int ROUNDS = 10;

    public static void main(String[] args) {
        java.util.List<String> flags = java.util.Arrays.asList(args);
        double seconds = flags.contains("--quick") ? 0.5 : 2.0;
        shuffled = flags.contains("--shuffled");
        System.out.printf("nic-model, RC QPs on one device pair, %d B WRITEs round-robin%s, one thread, no I/O; collectors %s; heap on %s:%n",
                SIZE, shuffled ? " in a shuffled order" : "", collectors(), pages());
        int only = flags.indexOf("--only");
        if (only >= 0 && only + 1 < args.length) {
            // one row alone, for a profiler
            Row row = new Row(Integer.parseInt(args[only + 1]), 5.0);
            row.time(10.0);
            row.print();
            return;
        }
        Row[] rows = new Row[COUNTS.length];
        for (int i = 0; i < rows.length; i++) rows[i] = new Row(COUNTS[i], seconds / 4);
        double[] ratios = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            double[] rate = new double[rows.length];
            for (int k = 0; k < rows.length; k++) {
                int i = round % 2 == 0 ? k : rows.length - 1 - k;
                rate[i] = rows[i].time(seconds / ROUNDS);
            }
            ratios[round] = rate[2] / rate[1];
        }
        System.out.printf("%8s %20s %20s %14s %14s %12s %10s %10s %10s %10s %10s%n", "QPs", "heap/new QP [B]", "heap/used QP [B]", "messages/s",
                "packets/s", "MB/s", "post [ns]", "pump [ns]", "in a [ns]", "in b [ns]", "warm b [ns]");
        for (Row r : rows) r.print();
        java.util.Arrays.sort(ratios);
        System.out.printf("messages/s at 10 000 QPs / at 100 QPs, same run: %.2f (%d rounds taking turns: median %.2f, %.2f-%.2f)%n",
                rows[2].rate() / rows[1].rate(), ROUNDS, (ratios[ROUNDS / 2 - 1] + ratios[ROUNDS / 2]) / 2, ratios[0], ratios[ROUNDS - 1]);
        System.out.printf("QP contexts at 10 000 QPs, neighbours in creation order (%s young collections while they were made): %s%n",
                rows[2].youngDuringSetup < 0 ? "?" : rows[2].youngDuringSetup, rows[2].layout);
        // 100 QPs' state fits the core's own cache; 10 000 QPs' (both devices) does not
        System.out.println(MemoryLadder.line((int) (seconds * 5_000_000), 1, 4, 8, 16, 64));
        for (Row r : rows) Reference.reachabilityFence(r); // the devices hold the QPs measured
    }

    /** One QP count's device pair, its heap figures, and the sums of its timed slices. */
    private static final class Row {
        final int n;
        final Loopback link;
        final QueuePair[] qa;
        final SendWr write;
        final long perQpNew;
        final long perQpUsed;
        /** Young collections while the QPs were made, and where they left the contexts ({@link LayoutProbe}). */
        final long youngDuringSetup;
        final String layout;
        /** Sums over the timed slices: {messages, packets, posting, pumping, in a, in b, warming in b} and the nanoseconds. */
        final long[] sums = new long[7];
        long nanos;

        /** A pair with {@code n} QPs a side, driven {@code warmup} seconds before its second heap reading. */
        Row(int n, double warmup) {
            this.n = n;
            link = Loopback.devices(1024);
            Nic a = link.a;
            Nic b = link.b;
            ProtectionDomain pda = a.allocPd();
            ProtectionDomain pdb = b.allocPd();
            MemoryRegion mra = a.regMr(pda, Arena.ofAuto().allocate(SIZE, 8), Access.LOCAL_WRITE | Access.REMOTE_ANY);
            MemorySegment target = Arena.ofAuto().allocate(SIZE, 8);
            MemoryRegion mrb = b.regMr(pdb, target, Access.LOCAL_WRITE | Access.REMOTE_ANY);
            CompletionQueue cqa = a.createCq(1024);
            CompletionQueue cqb = b.createCq(1024);

            long before = usedHeap();
            long young0 = youngCollections();
            qa = new QueuePair[n];
            QueuePair[] qb = new QueuePair[n];
            for (int i = 0; i < n; i++) {
                qa[i] = a.createQp(pda, QpType.RC, cqa, cqa, null, CAPS, false);
                qb[i] = b.createQp(pdb, QpType.RC, cqb, cqb, null, CAPS, false);
            }
            for (int i = 0; i < n; i++) {
                Loopback.connect(a, qa[i], "192.0.2.2", qb[i].qpn());
                Loopback.connect(b, qb[i], "192.0.2.1", qa[i].qpn());
            }
            youngDuringSetup = young0 < 0 ? -1 : youngCollections() - young0;
            perQpNew = (usedHeap() - before) / (2L * n);
            write = Loopback.write(mra, SIZE, mrb);
            drive(a, qa, write, link, warmup); // warm-up: every QP's send queue makes the slots it uses
            perQpUsed = (usedHeap() - before) / (2L * n);
            layout = "a " + LayoutProbe.contexts(a, qa) + ", b " + LayoutProbe.contexts(b, qb) + "; the QP objects themselves: a "
                    + LayoutProbe.handles(qa) + ", b " + LayoutProbe.handles(qb);
            // the layout is read in creation order; the timed slices then serve the QPs in a shuffled one
            if (shuffled) java.util.Collections.shuffle(java.util.Arrays.asList(qa), new java.util.Random(1));
        }

        /** One timed slice; returns its messages/s. */
        double time(double seconds) {
            long t0 = System.nanoTime();
            long[] drove = drive(link.a, qa, write, link, seconds);
            long t = System.nanoTime() - t0;
            for (int i = 0; i < sums.length; i++) sums[i] += drove[i];
            nanos += t;
            return drove[0] / (t / 1e9);
        }

        double rate() {
            return sums[0] / (nanos / 1e9);
        }

        void print() {
            double s = nanos / 1e9;
            double m = sums[0];
            System.out.printf("%8d %20s %20s %14.0f %14.0f %12.1f %10.0f %10.0f %10.0f %10.0f %10.0f%n", n, heap(n, perQpNew), heap(n, perQpUsed),
                    m / s, sums[1] / s, m * SIZE / s / 1e6, sums[2] / m, sums[3] / m, sums[4] / m, sums[5] / m, sums[6] / m);
        }
    }

    /**
     * Posts one WRITE per QP in turn, pumping the link every 64 posts; returns {messages, packets, nanoseconds
     * posting (the requester builds each packet), nanoseconds pumping (the responder, its ACK, the completer),
     * nanoseconds of the pump in device a (warming and receiving the ACKs), in device b (the requests), and of those
     * in b the warming}.
     */
    private static long[] drive(Nic a, QueuePair[] qps, SendWr write, Loopback link, double seconds) {
        long[] in0 = link.receiving.clone();
        long warm0 = link.warming[1];
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long messages = 0;
        long packets = 0;
        long posting = 0;
        long pumping = 0;
        int q = 0;
        long now = System.nanoTime();
        while (now < deadline) {
            for (int k = 0; k < 64; k++) {
                a.postSend(qps[q], write);
                q = q + 1 == qps.length ? 0 : q + 1;
            }
            long posted = System.nanoTime();
            messages += 64;
            packets += link.pump();
            posting += posted - now;
            now = System.nanoTime();
            pumping += now - posted;
        }
        long[] in = link.receiving.clone();
        return new long[] {messages, packets, posting, pumping, in[0] - in0[0], in[1] - in0[1], link.warming[1] - warm0};
    }

    /**
     * The JVM's collectors by name (G1 Young Generation, PS Scavenge, ...): where the full collections before
     * each row leave the QPs' objects changes the 10 000-QP row (docs/performance.md).
     */
    private static String collectors() {
        return String.join(", ", ManagementFactory.getGarbageCollectorMXBeans().stream().map(b -> b.getName()).toList());
    }

    /**
     * The heap's pages, so that a run under {@code -XX:+UseTransparentHugePages} says so (on this machine huge
     * pages made no steady difference: docs/performance.md).
     */
    private static String pages() {
        boolean huge = ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:+UseTransparentHugePages");
        return huge ? "transparent huge pages" : "4 KiB pages";
    }

    /**
     * Collections of the young generation so far: one that copies the QPs' objects leaves them in an order of its own
     * ({@link LayoutProbe}). The young collector's bean by its name: G1 Young Generation, PS Scavenge, Copy;
     * -1 for a collector without one of those (ZGC, Shenandoah).
     */
    private static long youngCollections() {
        var young = ManagementFactory.getGarbageCollectorMXBeans().stream().filter(b -> b.getName().matches("(?i).*(young|scavenge|copy).*")).toList();
        return young.isEmpty() ? -1 : young.stream().mapToLong(b -> b.getCollectionCount()).sum();
    }

    /** Whether every heap reading of the run settled (see {@link #usedHeap}); figures from one that did not end in ?. */
    private static boolean settled = true;

    /**
     * One QP's share is lost in the GC's noise; the figure means something from 100 QPs on. ZGC counts its heap in
     * whole 2 MiB pages, so a row's change is no page or a whole one unless it spans several: there the figure is
     * "-" below four pages (of a row's 2n QPs) and marked "~" above, good to a page over 2n.
     */
    private static String heap(int n, long perQp) {
        if (n < 100) return "-";
        if (PAGED && perQp * 2 * n < 4 * ZGC_PAGE) return "-";
        return (PAGED ? "~" : "") + perQp + (settled ? "" : "?");
    }

    private static final long ZGC_PAGE = 2 << 20;
    private static final boolean PAGED = LayoutProbe.underZgc();

    /**
     * The heap in use once full collections stop changing it. With the parallel collector the reading after
     * three collections came out about 1.4 MB higher before 100 QPs were made than after (-7 378 B a QP); read
     * until two readings 20 ms apart agree, both collectors give the same figure.
     */
    private static long usedHeap() {
        long last = Long.MAX_VALUE;
        for (int i = 0; i < 20; i++) {
            System.gc();
            long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            if (Math.abs(last - used) < 16 * 1024) return used;
            last = used;
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        settled = false;
        return last;
    }
}
