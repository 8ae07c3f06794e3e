package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.cq.WcStatus;
import org.softrnic.nic.cq.WorkCompletion;
import org.softrnic.nic.mem.Access;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.Mtu;
import org.softrnic.nic.qp.QpCaps;
import org.softrnic.nic.qp.QpType;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWr;
import org.softrnic.nic.qp.SendFlags;
import org.softrnic.nic.qp.SendOpcode;
import org.softrnic.nic.qp.SendWr;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.nic.sim.SimFabric;

/**
 * Random RC workloads (mixed operations, 0 B to 1 MiB, MTU 256 to 4096, several QPs) over a link that
 * loses, duplicates, reorders and delays packets. Every WR must complete exactly once and in order, memory
 * must equal a simple reference model, and an error completion is allowed only when a retry budget really
 * ran out. A failure names its seed; {@code -Dsoftrnic.seed=N} replays exactly that run, and
 * {@code -Dsoftrnic.seeds=N} runs seeds 1..N (32 by default); {@code -Dsoftrnic.debug} prints each run's
 * completions, counters and QP states.
 */
class RandomWorkloadTest {
    static final ValueLayout.OfLong HOST = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final int MEM = 6 << 20;

    record Op(long wrId, SendOpcode opcode, long localOff, long remoteOff, int length, long add) {}

    @Test
    void randomWorkloadsOverALossyLinkCompleteExactlyOnceInOrderWithCorrectMemory() {
        String fixed = System.getProperty("softrnic.seed");
        if (fixed != null) {
            runSeed(Long.parseLong(fixed));
            return;
        }
        long seeds = Long.getLong("softrnic.seeds", 32);
        for (long seed = 1; seed <= seeds; seed++) runSeed(seed);
    }

    void runSeed(long seed) {
        try {
            run(seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed " + seed + " failed (replay with -Dsoftrnic.seed=" + seed + "): " + e.getMessage(), e);
        }
    }

    static void run(long seed) {
        Random r = new Random(seed);
        SimFabric fabric = new SimFabric(seed);
        double loss = r.nextInt(3) == 0 ? 0 : r.nextDouble() * 0.08;
        fabric.faults(new LinkFaults(loss, r.nextDouble() * 0.04, r.nextDouble() * 0.04, 2_000, r.nextInt(5_000)));
        Mtu mtu = Mtu.values()[r.nextInt(Mtu.values().length)];
        Nic na = fabric.add(NicConfig.of("a", Pair.GID_A, seed).withMtu(Mtu.MTU_4096));
        Nic nb = fabric.add(NicConfig.of("b", Pair.GID_B, seed + 7).withMtu(Mtu.MTU_4096));
        Side a = new Side(na);
        Side b = new Side(nb);
        int qps = 1 + r.nextInt(3);
        List<QueuePair[]> pairs = new ArrayList<>();
        for (int i = 0; i < qps; i++) {
            QueuePair qa = na.createQp(a.pd, QpType.RC, a.cq, a.cq, null, new QpCaps(256, 256, 2, 2, 64), false);
            QueuePair qb = nb.createQp(b.pd, QpType.RC, b.cq, b.cq, null, new QpCaps(256, 256, 2, 2, 64), false);
            int psnA = r.nextInt(1 << 24);
            int psnB = r.nextInt(1 << 24);
            Pair.Side sa = a.asPairSide(qa);
            Pair.Side sb = b.asPairSide(qb);
            java.util.function.Consumer<org.softrnic.nic.qp.QpAttr> t = x -> {
                x.timeout = 8; // ~1 ms
                x.retryCnt = 7;
                x.rnrRetry = 7;
                x.maxRdAtomic = 1 + r.nextInt(16);
            };
            Pair.connect(sa, sb, Pair.GID_B, QpType.RC, mtu, psnA, psnB, t);
            Pair.connect(sb, sa, Pair.GID_A, QpType.RC, mtu, psnB, psnA, t);
            pairs.add(new QueuePair[] {qa, qb});
        }
        // reference model: disjoint regions, so the expected memory follows from each WR alone
        MemorySegment refA = Arena.ofAuto().allocate(MEM);
        MemorySegment refB = Arena.ofAuto().allocate(MEM);
        fillRandom(a.mem, refA, r);
        fillRandom(b.mem, refB, r);
        long[] bump = {0};
        List<List<Op>> posted = new ArrayList<>();
        List<List<Long>> recvIds = new ArrayList<>();
        for (int q = 0; q < qps; q++) {
            posted.add(new ArrayList<>());
            recvIds.add(new ArrayList<>());
        }
        int ops = 5 + r.nextInt(40);
        for (int i = 0; i < ops; i++) {
            int q = r.nextInt(qps);
            QueuePair qa = pairs.get(q)[0];
            QueuePair qb = pairs.get(q)[1];
            SendOpcode op = switch (r.nextInt(7)) {
                case 0, 1 -> SendOpcode.SEND;
                case 2, 3 -> SendOpcode.RDMA_WRITE;
                case 4 -> SendOpcode.RDMA_READ;
                case 5 -> SendOpcode.ATOMIC_FETCH_AND_ADD;
                default -> SendOpcode.ATOMIC_CMP_AND_SWP;
            };
            int len = op.isAtomic() ? 8 : size(r);
            long need = (len + 15L) & ~7L;
            if (bump[0] + need > MEM) break;
            long off = bump[0];
            bump[0] += need;
            long wrId = i + 1;
            SendWr wr = new SendWr(2);
            wr.wrId = wrId;
            wr.opcode = op;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.numSge = len == 0 ? 0 : 1;
            wr.sgList[0].set(a.mr.iova() + off, len, a.mr.lkey());
            wr.remoteAddr = b.mr.iova() + off;
            wr.rkey = b.mr.rkey();
            long add = r.nextLong();
            switch (op) {
                case SEND -> {
                    RecvWr rw = new RecvWr(2);
                    rw.wrId = 1000 + wrId;
                    rw.numSge = 1;
                    rw.sgList[0].set(b.mr.iova() + off, Math.max(len, 1), b.mr.lkey());
                    nb.postRecv(qb, rw);
                    recvIds.get(q).add(1000 + wrId);
                    MemorySegment.copy(refA, off, refB, off, len);
                }
                case RDMA_WRITE -> MemorySegment.copy(refA, off, refB, off, len);
                case RDMA_READ -> MemorySegment.copy(refB, off, refA, off, len);
                case ATOMIC_FETCH_AND_ADD -> {
                    wr.compareAdd = add;
                    long orig = refB.get(HOST, off);
                    refA.set(HOST, off, orig);
                    refB.set(HOST, off, orig + add);
                }
                default -> {
                    long orig = refB.get(HOST, off);
                    boolean match = r.nextBoolean();
                    wr.compareAdd = match ? orig : orig ^ 1;
                    wr.swap = add;
                    refA.set(HOST, off, orig);
                    if (match) refB.set(HOST, off, add);
                }
            }
            na.postSend(qa, wr);
            posted.get(q).add(new Op(wrId, op, off, off, len, add));
            if (r.nextInt(4) == 0) fabric.run(fabric.clock().nanoTime() + r.nextInt(20_000));
        }
        fabric.runUntilIdle();
        List<WorkCompletion> sent = poll(a.cq);
        List<WorkCompletion> received = poll(b.cq);
        boolean retryExhausted = na.counters().get(Counter.RETRY_EXCEEDED_ERR) + na.counters().get(Counter.RETRY_RNR_EXCEEDED_ERR) > 0;
        if (System.getProperty("softrnic.debug") != null) {
            System.out.println("mtu " + mtu + " loss " + loss + " qps " + qps);
            System.out.println("sent " + sent);
            System.out.println("recv " + received);
            System.out.println("A " + na.counters().snapshot());
            System.out.println("B " + nb.counters().snapshot());
            for (int q = 0; q < qps; q++) System.out.println("posted " + posted.get(q));
            for (int q = 0; q < qps; q++) System.out.println("states " + pairs.get(q)[0] + " / " + pairs.get(q)[1]);
            System.out.println("events A " + na.drainEvents() + " B " + nb.drainEvents());
        }
        for (int q = 0; q < qps; q++) {
            int qpn = pairs.get(q)[0].qpn();
            List<Long> got = sent.stream().filter(c -> c.qpNum == qpn).map(c -> c.wrId).toList();
            List<Long> want = posted.get(q).stream().map(Op::wrId).toList();
            assertEquals(want, got, "every WR completes exactly once, in order, on QP " + q);
            int qbn = pairs.get(q)[1].qpn();
            List<Long> gotRecv = received.stream().filter(c -> c.qpNum == qbn).map(c -> c.wrId).toList();
            if (retryExhausted) {
                // SENDs flushed at the requester never reach the responder: their receives stay posted
                assertEquals(recvIds.get(q).subList(0, gotRecv.size()), gotRecv, "receives complete once, in order");
            } else {
                assertEquals(recvIds.get(q), gotRecv, "receives complete exactly once, in order");
            }
        }
        for (WorkCompletion c : sent) {
            if (c.status != WcStatus.SUCCESS && !(retryExhausted && (c.status == WcStatus.RETRY_EXC_ERR
                    || c.status == WcStatus.WR_FLUSH_ERR))) {
                fail("error completion " + c + " without an exhausted retry budget (loss " + loss + ")");
            }
        }
        if (!retryExhausted) {
            assertTrue(sent.stream().allMatch(c -> c.status == WcStatus.SUCCESS));
            assertEquals(-1, MemorySegment.mismatch(refA, 0, MEM, a.mem, 0, MEM), "A's memory equals the model");
            assertEquals(-1, MemorySegment.mismatch(refB, 0, MEM, b.mem, 0, MEM), "B's memory equals the model");
        }
    }

    /** Mostly small, sometimes large, up to 1 MiB. */
    static int size(Random r) {
        return switch (r.nextInt(20)) {
            case 0 -> 0;
            case 1 -> 1 << 20;
            case 2, 3, 4, 5 -> r.nextInt(64 << 10);
            default -> r.nextInt(5000);
        };
    }

    static void fillRandom(MemorySegment real, MemorySegment ref, Random r) {
        byte[] b = new byte[MEM];
        r.nextBytes(b);
        MemorySegment.copy(b, 0, real, ValueLayout.JAVA_BYTE, 0, MEM);
        MemorySegment.copy(b, 0, ref, ValueLayout.JAVA_BYTE, 0, MEM);
    }

    static List<WorkCompletion> poll(CompletionQueue cq) {
        List<WorkCompletion> out = new ArrayList<>();
        WorkCompletion[] wcs = new WorkCompletion[16];
        for (int i = 0; i < wcs.length; i++) wcs[i] = new WorkCompletion();
        int n;
        while ((n = cq.poll(wcs)) > 0) for (int i = 0; i < n; i++) out.add(new WorkCompletion().copyFrom(wcs[i]));
        return out;
    }

    /** One device's PD, memory and CQ, shared by all its QPs. */
    static final class Side {
        final Nic nic;
        final ProtectionDomain pd;
        final MemorySegment mem = Arena.ofAuto().allocate(MEM, 8);
        final MemoryRegion mr;
        final CompletionQueue cq;

        Side(Nic nic) {
            this.nic = nic;
            this.pd = nic.allocPd();
            this.mr = nic.regMr(pd, mem, Access.LOCAL_WRITE | Access.REMOTE_ANY);
            this.cq = nic.createCq(4096);
        }

        Pair.Side asPairSide(QueuePair qp) {
            Pair.Side s = Pair.Side.wrap(nic, pd, mem, mr, cq);
            s.qp = qp;
            return s;
        }
    }
}
