package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * Random RC workloads (mixed operations, 0 B to 1 MiB, MTU 256 to 4096, several QPs; atomics whose result
 * is split over two SGEs; WRITEs through a type 1 window that is bound again mid-run, its old rkey then
 * refused) over a link that loses, duplicates, reorders and delays packets, in some runs losing the
 * responder's answers (READ responses, ACKs) far more often than the requests. Every WR must complete exactly once and in order, memory
 * must equal a simple reference model, and an error completion is allowed only when a retry budget really
 * ran out. A failure names its seed; {@code -Dsoftrnic.seed=N} replays exactly that run, and
 * {@code -Dsoftrnic.seeds=N} runs seeds 1..N (64 by default; {@code -Dsoftrnic.from=S} starts at S: scripts/sim-seeds); {@code -Dsoftrnic.debug} prints each run's
 * completions, counters and QP states.
 */
class RandomWorkloadTest {
    static final ValueLayout.OfLong HOST = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final int MEM = 6 << 20;

    record Op(long wrId, SendOpcode opcode, long localOff, long remoteOff, int length, long add) {}

    @Test
    void randomWorkloadsOverALossyLinkCompleteExactlyOnceInOrderWithCorrectMemory() {
        forEachSeed("seed", RandomWorkloadTest::run);
    }

    /**
     * Runs {@code -Dsoftrnic.seed=N} alone, or {@code -Dsoftrnic.seeds} seeds (64) from {@code -Dsoftrnic.from}
     * (1); a failure names its replay.
     */
    static void forEachSeed(String what, java.util.function.LongConsumer body) {
        String fixed = System.getProperty("softrnic.seed");
        long from = fixed != null ? Long.parseLong(fixed) : Long.getLong("softrnic.from", 1);
        long to = fixed != null ? from : from + Long.getLong("softrnic.seeds", 64) - 1;
        for (long seed = from; seed <= to; seed++) {
            try {
                body.accept(seed);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(what + " " + seed + " failed (replay with -Dsoftrnic.seed=" + seed + "): " + e.getMessage(), e);
            }
        }
    }

    static void run(long seed) {
        Random r = new Random(seed);
        SimFabric fabric = new SimFabric(seed);
        double loss = r.nextInt(3) == 0 ? 0 : r.nextDouble() * 0.08;
        LinkFaults faults = new LinkFaults(loss, r.nextDouble() * 0.04, r.nextDouble() * 0.04, 2_000, r.nextInt(5_000));
        fabric.faults(faults);
        Mtu mtu = Mtu.values()[r.nextInt(Mtu.values().length)];
        Nic na = fabric.add(NicConfig.of("a", Pair.GID_A, seed).withMtu(Mtu.MTU_4096));
        Nic nb = fabric.add(NicConfig.of("b", Pair.GID_B, seed + 7).withMtu(Mtu.MTU_4096));
        double answerLoss = r.nextInt(3) == 0 ? 0.05 + r.nextDouble() * 0.1 : loss;
        fabric.faults(nb, na, new LinkFaults(answerLoss, faults.duplicate(), faults.reorder(), faults.delayNanos(), faults.jitterNanos()));
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
            java.util.function.Consumer<org.softrnic.verbs.QpAttr> t = x -> {
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
        Window window = r.nextInt(3) == 0 ? new Window(nb, b, pairs.get(0)[1], r) : null;
        int ops = 5 + r.nextInt(40);
        for (int i = 0; i < ops; i++) {
            int q = r.nextInt(qps);
            QueuePair qa = pairs.get(q)[0];
            QueuePair qb = pairs.get(q)[1];
            if (window != null && r.nextInt(8) == 0) {
                // everything in flight lands first, so the model knows which binding each WRITE met
                fabric.runUntilIdle();
                window.rebind(fabric, r);
                continue;
            }
            // through the window on pair 0 only: one QP keeps those WRITEs in order, which the model needs
            boolean viaWindow = window != null && r.nextInt(4) == 0;
            if (viaWindow) {
                q = 0;
                qa = pairs.get(0)[0];
            }
            SendOpcode op = viaWindow ? SendOpcode.RDMA_WRITE : switch (r.nextInt(7)) {
                case 0, 1 -> SendOpcode.SEND;
                case 2, 3 -> SendOpcode.RDMA_WRITE;
                case 4 -> SendOpcode.RDMA_READ;
                case 5 -> SendOpcode.ATOMIC_FETCH_AND_ADD;
                default -> SendOpcode.ATOMIC_CMP_AND_SWP;
            };
            int len = viaWindow ? r.nextInt(Window.LENGTH + 1) : op.isAtomic() ? 8 : size(r);
            long need = op.isAtomic() ? 32 : (len + 15L) & ~7L;
            if (bump[0] + need > MEM - Window.RESERVED) break;
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
            // an atomic's 8-byte result split over two SGEs, 16 bytes apart
            int split = op.isAtomic() && r.nextBoolean() ? 1 + r.nextInt(7) : 8;
            if (split < 8) {
                wr.numSge = 2;
                wr.sgList[0].set(a.mr.iova() + off, split, a.mr.lkey());
                wr.sgList[1].set(a.mr.iova() + off + 16, 8 - split, a.mr.lkey());
            }
            long add = r.nextLong();
            if (viaWindow) {
                long at = window.bound + r.nextInt(Window.LENGTH - len + 1);
                wr.remoteAddr = b.mr.iova() + at;
                wr.rkey = window.mw.postedRkey();
                MemorySegment.copy(refA, off, refB, at, len);
                na.postSend(qa, wr);
                posted.get(q).add(new Op(wrId, op, off, at, len, 0));
                continue;
            }
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
                    placeResult(refA, off, split, orig);
                    refB.set(HOST, off, orig + add);
                }
                default -> {
                    long orig = refB.get(HOST, off);
                    boolean match = r.nextBoolean();
                    wr.compareAdd = match ? orig : orig ^ 1;
                    wr.swap = add;
                    placeResult(refA, off, split, orig);
                    if (match) refB.set(HOST, off, add);
                }
            }
            na.postSend(qa, wr);
            posted.get(q).add(new Op(wrId, op, off, off, len, add));
            if (r.nextInt(4) == 0) fabric.run(fabric.clock().nanoTime() + r.nextInt(20_000));
        }
        fabric.runUntilIdle();
        if (window != null) window.probeOldKey(fabric, na, nb, a, b);
        List<WorkCompletion> sent = new ArrayList<>(poll(a.cq));
        List<WorkCompletion> received = new ArrayList<>(poll(b.cq));
        if (window != null) {
            int probe = window.probeQpn;
            List<WorkCompletion> probes = sent.stream().filter(c -> c.qpNum == probe).toList();
            if (probe >= 0) {
                assertEquals(1, probes.size(), "the probe with a rebound window's old rkey completes");
                assertEquals(WcStatus.REM_ACCESS_ERR, probes.getFirst().status, "an old binding's rkey reaches nothing");
            }
            sent.removeAll(probes);
            List<WorkCompletion> binds = received.stream().filter(c -> c.opcode == org.softrnic.verbs.WcOpcode.BIND_MW).toList();
            for (WorkCompletion c : binds) assertEquals(WcStatus.SUCCESS, c.status, "a window bind: " + c);
            received.removeAll(binds);
        }
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
        assertNull(na.mirrorMismatch(), "A's lines mirror its QPs");
        assertNull(nb.mirrorMismatch(), "B's lines mirror its QPs");
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

    @Test
    void ucReceivesWithBadKeysNeverWriteOutsideTheirBuffersAndEndTheQp() {
        forEachSeed("UC seed", RandomWorkloadTest::runUc);
    }

    /**
     * UC over a lossy link: B posts a receive per message, one of them (sometimes) with a bad lkey. Receives
     * complete in order, each SUCCESS one holding a whole message, later messages after earlier ones (UC drops
     * what lost a packet); the bad one completes LOC_PROT_ERR, the QP goes to ERR and the rest flush; no byte
     * is written where the bad receive pointed, nor past any receive's buffer.
     */
    static void runUc(long seed) {
        Random r = new Random(seed);
        Mtu mtu = Mtu.values()[r.nextInt(3)]; // 256..1024: messages of several packets
        Pair p = new Pair(QpType.UC, mtu, seed, x -> { });
        p.fabric.faults(LinkFaults.lossy(r.nextDouble() * 0.1));
        int max = 4096;
        int slot = max + 64;
        int n = 5 + r.nextInt(26);
        int bad = r.nextInt(3) == 0 ? -1 : r.nextInt(n);
        p.b.mem.fill((byte) 0x5a);
        byte[] src = new byte[n * max];
        r.nextBytes(src);
        MemorySegment.copy(src, 0, p.a.mem, ValueLayout.JAVA_BYTE, 0, src.length);
        int[] lens = new int[n];
        for (int i = 0; i < n; i++) {
            RecvWr rw = new RecvWr();
            rw.wrId = i;
            rw.numSge = 1;
            rw.sgList[0].set(p.b.va((long) i * slot), max, i == bad ? 0xdeadbeef : p.b.mr.lkey());
            p.b.nic.postRecv(p.b.qp, rw);
        }
        for (int i = 0; i < n; i++) {
            lens[i] = 1 + r.nextInt(max);
            p.a.post(p.a.wr(i, SendOpcode.SEND, (long) i * max, lens[i]));
            if (r.nextInt(3) == 0) p.fabric.run(p.fabric.clock().nanoTime() + r.nextInt(20_000));
        }
        p.run();
        assertTrue(p.a.sendCompletions().stream().allMatch(c -> c.status == WcStatus.SUCCESS), "UC sends complete once sent");
        List<WorkCompletion> got = p.b.recvCompletions();
        int lastMessage = -1;
        for (int i = 0; i < got.size(); i++) {
            WorkCompletion c = got.get(i);
            assertEquals(i, c.wrId, "receives complete in order");
            if (bad >= 0 && i > bad) {
                assertEquals(WcStatus.WR_FLUSH_ERR, c.status, "after the bad receive: " + got);
                continue;
            }
            if (i == bad) {
                assertEquals(WcStatus.LOC_PROT_ERR, c.status, "the bad receive: " + got);
                continue;
            }
            assertEquals(WcStatus.SUCCESS, c.status, got.toString());
            int m = lastMessage + 1;
            while (m < n && !holds(p.b.mem, (long) i * slot, src, m * max, lens[m], c.byteLen)) m++;
            assertTrue(m < n, "receive " + i + " holds no whole message after message " + lastMessage);
            lastMessage = m;
        }
        boolean reachedBad = bad >= 0 && got.size() > bad;
        if (reachedBad) {
            assertEquals(n, got.size(), "every receive completes once the QP is in ERR");
            assertEquals(org.softrnic.verbs.QpState.ERR, p.b.qp.state());
        }
        for (int i = 0; i < n; i++) {
            long at = (long) i * slot;
            long from = i == bad ? at : at + max; // the bad receive's whole buffer, and every guard
            for (long k = from; k < at + slot; k++) {
                assertEquals((byte) 0x5a, p.b.mem.get(ValueLayout.JAVA_BYTE, k), "byte " + (k - at) + " of slot " + i + " changed");
            }
        }
        for (long k = (long) n * slot; k < p.b.mem.byteSize(); k++) {
            if (p.b.mem.get(ValueLayout.JAVA_BYTE, k) != 0x5a) fail("B's memory past the receives changed at " + k);
        }
    }

    private static boolean holds(MemorySegment mem, long at, byte[] src, int srcOff, int len, int byteLen) {
        if (byteLen != len) return false;
        return MemorySegment.mismatch(mem, at, at + len, MemorySegment.ofArray(src), srcOff, srcOff + len) == -1;
    }

    /** The original value in host order: its first {@code split} bytes at {@code off}, the rest 16 bytes on. */
    static void placeResult(MemorySegment ref, long off, int split, long orig) {
        for (int i = 0; i < 8; i++) ref.set(ValueLayout.JAVA_BYTE, i < split ? off + i : off + 16 + i - split, (byte) (orig >>> (8 * i)));
    }

    /**
     * A type 1 window over B's region, bound at random places through B's QP of pair 0; each bind takes a new
     * rkey (ibv_inc_rkey), and at the end a WRITE with an old one, on a QP pair of its own, must be refused.
     */
    static final class Window {
        static final int LENGTH = 4096;
        /** The top of both memories: the window's bindings in B's, the probe's byte in A's. */
        static final int RESERVED = 16 * LENGTH;
        final org.softrnic.nic.mem.MemoryWindow mw;
        final MemoryRegion target;
        final QueuePair bindQp;
        final Nic nic;
        final List<Integer> oldKeys = new ArrayList<>();
        /** Offset into B's memory of the current binding (the window's region is B's whole memory). */
        long bound;

        Window(Nic nic, Side b, QueuePair bindQp, Random r) {
            this.nic = nic;
            this.bindQp = bindQp;
            // a region over B's memory that allows binding; the workload's own region stays as it is
            this.target = nic.regMr(b.pd, b.mem, Access.LOCAL_WRITE | Access.MW_BIND);
            this.mw = nic.allocMw(b.pd, 1);
            bind(r);
        }

        /** Binds at the top of B's memory, above what the workload's other requests use. */
        private void bind(Random r) {
            bound = MEM - RESERVED + (long) r.nextInt(15) * LENGTH;
            nic.bindMw(bindQp, mw, 77, target, target.iova() + bound, LENGTH, Access.REMOTE_WRITE);
        }

        void rebind(SimFabric fabric, Random r) {
            oldKeys.add(mw.postedRkey());
            bind(r);
            fabric.runUntilIdle();
        }

        void probeOldKey(SimFabric fabric, Nic na, Nic nb, Side a, Side b) {
            if (oldKeys.isEmpty()) return;
            // on a clean link: a lost NAK would leave the refused probe to time out instead
            fabric.faults(LinkFaults.NONE);
            fabric.faults(nb, na, LinkFaults.NONE);
            QueuePair pa = na.createQp(a.pd, QpType.RC, a.cq, a.cq, null, new QpCaps(4, 4, 1, 1, 0), false);
            QueuePair pb = nb.createQp(b.pd, QpType.RC, b.cq, b.cq, null, new QpCaps(4, 4, 1, 1, 0), false);
            Pair.connect(a.asPairSide(pa), b.asPairSide(pb), Pair.GID_B, QpType.RC, Mtu.MTU_1024, 1, 2, x -> { });
            Pair.connect(b.asPairSide(pb), a.asPairSide(pa), Pair.GID_A, QpType.RC, Mtu.MTU_1024, 2, 1, x -> { });
            SendWr wr = new SendWr(1);
            wr.wrId = PROBE;
            wr.opcode = SendOpcode.RDMA_WRITE;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.remoteAddr = target.iova() + bound;
            wr.rkey = oldKeys.getLast();
            // one byte (a zero-length WRITE checks no key), from the top of A's memory, which nothing else uses
            wr.numSge = 1;
            wr.sgList[0].set(a.mr.iova() + MEM - 1, 1, a.mr.lkey());
            na.postSend(pa, wr);
            fabric.runUntilIdle();
            probeQpn = pa.qpn();
        }

        int probeQpn = -1;
        static final long PROBE = 999_999;
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
        final MemorySegment mem;
        final MemoryRegion mr;
        final CompletionQueue cq;

        Side(Nic nic) {
            this(nic, MEM);
        }

        Side(Nic nic, int memBytes) {
            this.nic = nic;
            this.mem = Arena.ofAuto().allocate(memBytes, 8);
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
