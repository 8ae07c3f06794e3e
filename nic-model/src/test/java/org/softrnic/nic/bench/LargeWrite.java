package org.softrnic.nic.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
 * 1 MiB RDMA WRITEs at MTU 4096 through two soft RNICs on one thread, beside single-thread memcpy of the
 * same size measured in the same run. The devices are in one process, as on the in-process fabric, so no ICRC
 * is computed; each byte is copied twice (source MR into the packet, packet into the target MR), so memcpy/2
 * is the natural ceiling.
 */
public final class LargeWrite {
    private static final int SIZE = 1 << 20;

    public static void main(String[] args) {
        double seconds = args.length > 0 && args[0].equals("--quick") ? 0.5 : 3.0;
        Arena arena = Arena.ofAuto();
        MemorySegment src = arena.allocate(SIZE, 64);
        MemorySegment dst = arena.allocate(SIZE, 64);
        for (long i = 0; i < SIZE; i += 8) src.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i, i * 0x9E3779B97F4A7C15L);

        memcpy(src, dst, seconds / 3);
        double memcpy = memcpy(src, dst, seconds);
        double write = writes(src, dst, seconds / 3, seconds);
        System.out.printf("1 MiB, one thread:%n%-36s %10.0f MB/s%n%-36s %10.0f MB/s%n%-36s %10.2f%n",
                "memcpy (MemorySegment.copy)", memcpy, "RDMA WRITE, MTU 4096, two soft RNICs", write,
                "ratio (target >= 0.5)", write / memcpy);
    }

    private static double memcpy(MemorySegment src, MemorySegment dst, double seconds) {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long t0 = System.nanoTime();
        long n = 0;
        while (System.nanoTime() < deadline) {
            MemorySegment.copy(src, 0, dst, 0, SIZE);
            n++;
        }
        return n * (double) SIZE / ((System.nanoTime() - t0) / 1e9) / 1e6;
    }

    private static double writes(MemorySegment src, MemorySegment dst, double warmup, double seconds) {
        Loopback link = Loopback.devices(1024, org.softrnic.nic.LinkProfile.IN_PROCESS);
        Nic a = link.a;
        Nic b = link.b;
        ProtectionDomain pda = a.allocPd();
        ProtectionDomain pdb = b.allocPd();
        MemoryRegion mra = a.regMr(pda, src, Access.LOCAL_WRITE | Access.REMOTE_ANY);
        MemoryRegion mrb = b.regMr(pdb, dst, Access.LOCAL_WRITE | Access.REMOTE_ANY);
        CompletionQueue cqa = a.createCq(16);
        CompletionQueue cqb = b.createCq(16);
        QueuePair qa = a.createQp(pda, QpType.RC, cqa, cqa, null, new QpCaps(16, 16, 1, 1, 0), false);
        QueuePair qb = b.createQp(pdb, QpType.RC, cqb, cqb, null, new QpCaps(16, 16, 1, 1, 0), false);
        Loopback.connect(a, qa, "192.0.2.2", qb.qpn());
        Loopback.connect(b, qb, "192.0.2.1", qa.qpn());
        SendWr write = Loopback.write(mra, SIZE, mrb);
        run(a, qa, write, link, warmup);
        return run(a, qa, write, link, seconds);
    }

    /** One WRITE at a time: its 256 packets and their ACKs go through before the next is posted. */
    private static double run(Nic a, QueuePair qa, SendWr write, Loopback link, double seconds) {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long t0 = System.nanoTime();
        long n = 0;
        while (System.nanoTime() < deadline) {
            a.postSend(qa, write);
            link.pump();
            n++;
        }
        return n * (double) SIZE / ((System.nanoTime() - t0) / 1e9) / 1e6;
    }
}
