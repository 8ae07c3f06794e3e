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
 * QPs have perftest's default depth: 128 send and 128 receive WRs. Each row is timed right after the full
 * collections that measure its heap, so its QPs' objects lie where that collector's compaction put them.
 */
public final class QpScale {
    private static final int SIZE = 4096;
    private static final QpCaps CAPS = new QpCaps(128, 128, 1, 1, 0);

    public static void main(String[] args) {
        double seconds = args.length > 0 && args[0].equals("--quick") ? 0.5 : 2.0;
        System.out.printf("nic-model, RC QPs on one device pair, %d B WRITEs round-robin, one thread, no I/O; collectors %s:%n", SIZE, collectors());
        if (args.length == 2 && args[0].equals("--only")) {
            // one row alone, for a profiler
            run(Integer.parseInt(args[1]), 10.0);
            return;
        }
        System.out.printf("%8s %20s %20s %14s %14s %12s %10s %10s %10s %10s%n", "QPs", "heap/new QP [B]", "heap/used QP [B]", "messages/s",
                "packets/s", "MB/s", "post [ns]", "pump [ns]", "in a [ns]", "in b [ns]");
        double at100 = 0;
        for (int n : new int[] {1, 100, 10_000}) {
            double rate = run(n, seconds);
            if (n == 100) at100 = rate;
            else if (n == 10_000) System.out.printf("messages/s at 10 000 QPs / at 100 QPs, same run: %.2f%n", rate / at100);
        }
        // 100 QPs' state fits the core's own cache; 10 000 QPs' (both devices) does not
        System.out.println(MemoryLadder.line((int) (seconds * 5_000_000), 1, 4, 8, 16, 64));
    }

    /** One row; returns its messages/s. */
    private static double run(int n, double seconds) {
        Loopback link = Loopback.devices(1024);
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
        QueuePair[] qa = new QueuePair[n];
        QueuePair[] qb = new QueuePair[n];
        for (int i = 0; i < n; i++) {
            qa[i] = a.createQp(pda, QpType.RC, cqa, cqa, null, CAPS, false);
            qb[i] = b.createQp(pdb, QpType.RC, cqb, cqb, null, CAPS, false);
        }
        for (int i = 0; i < n; i++) {
            Loopback.connect(a, qa[i], "192.0.2.2", qb[i].qpn());
            Loopback.connect(b, qb[i], "192.0.2.1", qa[i].qpn());
        }
        long perQp = (usedHeap() - before) / (2L * n);

        SendWr write = Loopback.write(mra, SIZE, mrb);
        drive(a, qa, write, link, seconds / 2); // warm-up
        long t0 = System.nanoTime();
        long[] drove = drive(a, qa, write, link, seconds);
        double s = (System.nanoTime() - t0) / 1e9;
        long after = usedHeap();
        System.out.printf("%8d %20s %20s %14.0f %14.0f %12.1f %10.0f %10.0f %10.0f %10.0f%n", n, heap(n, perQp), heap(n, (after - before) / (2L * n)),
                drove[0] / s, drove[1] / s, drove[0] * (double) SIZE / s / 1e6, drove[2] / (double) drove[0],
                drove[3] / (double) drove[0], drove[4] / (double) drove[0], drove[5] / (double) drove[0]);
        Reference.reachabilityFence(a); // the devices hold the QPs being measured
        Reference.reachabilityFence(b);
        return drove[0] / s;
    }

    /**
     * Posts one WRITE per QP in turn, pumping the link every 64 posts; returns {messages, packets, nanoseconds
     * posting (the requester builds each packet), nanoseconds pumping (the responder, its ACK, the completer),
     * nanoseconds of the pump in device a (warming and receiving the ACKs), in device b (the requests)}.
     */
    private static long[] drive(Nic a, QueuePair[] qps, SendWr write, Loopback link, double seconds) {
        long[] in0 = link.receiving.clone();
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
        return new long[] {messages, packets, posting, pumping, in[0] - in0[0], in[1] - in0[1]};
    }

    /**
     * The JVM's collectors by name (G1 Young Generation, PS Scavenge, ...): where the full collections before
     * each row leave the QPs' objects changes the 10 000-QP row (README, Performance).
     */
    private static String collectors() {
        return String.join(", ", ManagementFactory.getGarbageCollectorMXBeans().stream().map(b -> b.getName()).toList());
    }

    /** Whether every heap reading of the run settled (see {@link #usedHeap}); figures from one that did not end in ?. */
    private static boolean settled = true;

    /** One QP's share is lost in the GC's noise; the figure means something from 100 QPs on. */
    private static String heap(int n, long perQp) {
        return n < 100 ? "-" : perQp + (settled ? "" : "?");
    }

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
