package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.SharedReceiveQueue;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * Random workloads on every transport: RC, UC or UD; one to four QPs per device; receives from each QP's own
 * queue or from one SRQ shared by all; on RC, receives posted late so that the first SENDs meet RNR NAKs;
 * unsignaled requests, with only every k-th one signaled as perftest's CQ moderation does; SENDs with and
 * without immediate data, RDMA WRITEs with immediate consuming receives; over a link that loses, duplicates
 * and reorders. Checked against a reference model: every signaled WR completes exactly once and in order and no
 * unsignaled one completes; each receive holds exactly the message it names (RC: every message in order; UC
 * and UD: a subsequence in order, since they drop what the link broke); on RC every byte of both memories
 * equals the model; on UC each byte a broken WRITE reached is old or new, and whole where its immediate
 * arrived; no receive buffer changes past its message (RC, UD). Same seeds and flags as RandomWorkloadTest.
 */
class MixedWorkloadTest {
    static final int MEM = 2 << 20;
    static final int MAX_MSG = 16 << 10;
    static final int GRH = 40;
    static final int PORT_MTU = Mtu.MTU_4096.bytes;

    /** One request: what it is, where its bytes come from and go, and whether it asked for a completion. */
    record Op(long wrId, int qp, SendOpcode opcode, long localOff, long remoteOff, int length, boolean signaled, boolean consumesRecv,
              boolean onWire) {}

    /** A posted receive: its buffer in B's memory. */
    record Recv(long wrId, long off, int length) {}

    /** Across the seeds of one run: what the workloads exercised, so that a run that tested nothing fails. */
    static long rnrNaks, unsignaled, srqRuns, udRuns, ucRuns, windowRuns, ucBrokenOnSrq;

    @Test
    void mixedWorkloadsOnEveryTransportMatchTheModel() {
        RandomWorkloadTest.forEachSeed("mixed seed", MixedWorkloadTest::run);
        if (System.getProperty("softrnic.seed") == null && Long.getLong("softrnic.seeds", 64) >= 64) {
            String seen = "RNR NAKs " + rnrNaks + ", unsignaled WRs " + unsignaled + ", SRQ runs " + srqRuns + ", UD runs " + udRuns
                    + ", UC runs " + ucRuns + ", runs with a device window " + windowRuns + ", UC SRQ receives ended by a broken message " + ucBrokenOnSrq;
            System.out.println("mixed workloads: " + seen);
            assertTrue(rnrNaks > 0 && unsignaled > 0 && srqRuns > 0 && udRuns > 0 && ucRuns > 0 && windowRuns > 0, seen);
        }
    }

    static void run(long seed) {
        Random r = new Random(seed);
        QpType type = new QpType[] {QpType.RC, QpType.UC, QpType.UD}[r.nextInt(3)];
        SimFabric fabric = new SimFabric(seed);
        double loss = r.nextInt(3) == 0 ? 0 : r.nextDouble() * 0.05;
        fabric.faults(new LinkFaults(loss, r.nextDouble() * 0.03, r.nextDouble() * 0.03, 2_000, r.nextInt(5_000)));
        Mtu mtu = Mtu.values()[r.nextInt(Mtu.values().length)];
        Nic na = fabric.add(NicConfig.of("a", Pair.GID_A, seed).withMtu(Mtu.MTU_4096));
        Nic nb = fabric.add(NicConfig.of("b", Pair.GID_B, seed + 7).withMtu(Mtu.MTU_4096));
        // in half the RC runs a device-wide window, as a UDP link sets one, from a stream of its own: the workload
        // stays the seed's
        Random windows = new Random(seed * 0x9e3779b97f4a7c15L + 1);
        int window = type == QpType.RC && windows.nextBoolean() ? 1 + windows.nextInt(96) : 0;
        na.txWindow(window);
        nb.txWindow(window);
        RandomWorkloadTest.Side a = new RandomWorkloadTest.Side(na, MEM);
        RandomWorkloadTest.Side b = new RandomWorkloadTest.Side(nb, MEM);
        boolean useSrq = r.nextBoolean();
        SharedReceiveQueue srq = useSrq ? nb.createSrq(b.pd, 1024, 1, 0) : null;
        int qps = 1 + r.nextInt(4);
        int cqMod = r.nextInt(3) == 0 ? 1 : 2 + r.nextInt(7);
        boolean lateRecvs = type == QpType.RC && r.nextBoolean();
        String config = type + " mtu " + mtu.bytes + " loss " + String.format("%.3f", loss) + " qps " + qps + (useSrq ? " srq" : "")
                + " signal every " + cqMod + (lateRecvs ? " late receives" : "") + (window > 0 ? " window " + window : "");
        QueuePair[] qa = new QueuePair[qps], qb = new QueuePair[qps];
        for (int q = 0; q < qps; q++) {
            qa[q] = na.createQp(a.pd, type, a.cq, a.cq, null, new QpCaps(256, 256, 1, 1, 0), false);
            qb[q] = nb.createQp(b.pd, type, b.cq, b.cq, srq, new QpCaps(256, 256, 1, 1, 0), false);
            int psnA = r.nextInt(1 << 24), psnB = r.nextInt(1 << 24);
            java.util.function.Consumer<org.softrnic.verbs.QpAttr> t = x -> {
                x.timeout = 8;
                x.retryCnt = 7;
                x.rnrRetry = 7;
                x.minRnrTimer = 1;
            };
            Pair.connect(a.asPairSide(qa[q]), b.asPairSide(qb[q]), Pair.GID_B, type, mtu, psnA, psnB, t);
            Pair.connect(b.asPairSide(qb[q]), a.asPairSide(qa[q]), Pair.GID_A, type, mtu, psnB, psnA, t);
        }
        MemorySegment refA = Arena.ofAuto().allocate(MEM), refB = Arena.ofAuto().allocate(MEM);
        fill(a.mem, refA, r);
        fill(b.mem, refB, r);
        MemorySegment before = Arena.ofAuto().allocate(MEM);
        MemorySegment.copy(b.mem, 0, before, 0, MEM);

        // the requests, each with bytes of its own at both ends
        long[] bump = {0};
        List<Op> ops = new ArrayList<>();
        int n = 10 + r.nextInt(50);
        int[] count = new int[qps];
        for (int i = 0; i < n; i++) {
            int q = r.nextInt(qps);
            SendOpcode op = opcode(type, r);
            // a UD datagram's limit is the port's MTU (rxe's get_mtu), not a path's
            int len = type == QpType.UD ? (r.nextInt(10) == 0 ? PORT_MTU + 1 + r.nextInt(64) : r.nextInt(4) == 0 ? r.nextInt(PORT_MTU + 1) : r.nextInt(600))
                    : op.isAtomic() ? 8 : r.nextInt(4) == 0 ? r.nextInt(MAX_MSG + 1) : r.nextInt(600);
            long need = (len + 15L) & ~7L;
            if (bump[0] + need > MEM / 2) break;
            long off = bump[0];
            bump[0] += need;
            boolean signaled = ++count[q] % cqMod == 0 || r.nextInt(8) == 0;
            boolean sendKind = op == SendOpcode.SEND || op == SendOpcode.SEND_WITH_IMM;
            boolean onWire = type != QpType.UD || len <= PORT_MTU;
            ops.add(new Op(i + 1, q, op, off, off, len, signaled, (sendKind || op == SendOpcode.RDMA_WRITE_WITH_IMM) && onWire, onWire));
        }
        // receives: one per message that takes one, each with a buffer of its own in B's upper half
        List<Recv> recvs = new ArrayList<>();
        long recvAt = MEM / 2;
        int needed = (int) ops.stream().filter(Op::consumesRecv).count();
        List<List<Recv>> perQp = new ArrayList<>();
        for (int q = 0; q < qps; q++) perQp.add(new ArrayList<>());
        int room = (int) ((ops.stream().filter(Op::consumesRecv).mapToInt(Op::length).max().orElse(0) + (type == QpType.UD ? GRH : 0) + 15L) & ~7L);
        for (int i = 0; i < needed; i++) {
            if (recvAt + room > MEM) fail("the receives do not fit");
            recvs.add(new Recv(5000 + i, recvAt, room));
            recvAt += room;
        }
        // without an SRQ, each QP gets receives for exactly its own messages
        int k = 0;
        for (Op o : ops) if (o.consumesRecv()) perQp.get(o.qp()).add(recvs.get(k++));
        int postedEarly = lateRecvs ? needed / 2 : needed;
        Map<Long, Recv> byId = new HashMap<>();
        for (Recv rv : recvs) byId.put(rv.wrId(), rv);
        List<Recv> order = new ArrayList<>();
        if (useSrq) {
            order.addAll(recvs);
        } else {
            // interleave the QPs' receives so that "late" hits every QP
            for (int i = 0; order.size() < needed; i++) for (List<Recv> l : perQp) if (i < l.size()) order.add(l.get(i));
        }
        Map<Long, Integer> recvQp = new HashMap<>();
        for (int q = 0; q < qps; q++) for (Recv rv : perQp.get(q)) recvQp.put(rv.wrId(), q);
        for (int i = 0; i < postedEarly; i++) postRecv(nb, srq, qb, recvQp, order.get(i), b.mr);

        // post, with some time passing between
        Map<Integer, ArrayDeque<Op>> messages = new HashMap<>();
        for (int q = 0; q < qps; q++) messages.put(q, new ArrayDeque<>());
        for (Op o : ops) {
            SendWr wr = new SendWr(1);
            wr.wrId = o.wrId();
            wr.opcode = o.opcode();
            wr.sendFlags = o.signaled() ? SendFlags.SIGNALED : 0;
            wr.numSge = o.length() == 0 ? 0 : 1;
            wr.sgList[0].set(a.mr.iova() + o.localOff(), o.length(), a.mr.lkey());
            wr.remoteAddr = b.mr.iova() + o.remoteOff();
            wr.rkey = b.mr.rkey();
            wr.immData = (int) o.wrId();
            if (type == QpType.UD) {
                wr.ah = Handles.ah(AddressVector.to(Pair.GID_B));
                wr.remoteQpn = qb[o.qp()].qpn();
                wr.remoteQkey = 0x11111111;
            }
            long add = r.nextLong();
            switch (o.opcode()) {
                case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> MemorySegment.copy(refA, o.localOff(), refB, o.remoteOff(), o.length());
                case RDMA_READ -> MemorySegment.copy(refB, o.remoteOff(), refA, o.localOff(), o.length());
                case ATOMIC_FETCH_AND_ADD -> {
                    wr.compareAdd = add;
                    long orig = refB.get(RandomWorkloadTest.HOST, o.remoteOff());
                    refA.set(RandomWorkloadTest.HOST, o.localOff(), orig);
                    refB.set(RandomWorkloadTest.HOST, o.remoteOff(), orig + add);
                }
                default -> { }
            }
            if (o.consumesRecv()) messages.get(o.qp()).add(o);
            na.postSend(qa[o.qp()], wr);
            if (r.nextInt(4) == 0) fabric.run(fabric.clock().nanoTime() + r.nextInt(20_000));
        }
        if (lateRecvs) {
            // long enough for RNR NAKs (min_rnr_timer 1: 0.01 ms) and their retries
            fabric.run(fabric.clock().nanoTime() + 2_000_000);
            for (int i = postedEarly; i < needed; i++) postRecv(nb, srq, qb, recvQp, order.get(i), b.mr);
        }
        fabric.runUntilIdle();

        if (window > 0) {
            windowRuns++;
            // every QP done, or flushed: nothing counts against the window any more
            assertEquals(0, na.txInFlight(), config + ": A's window still counts PSNs in flight");
            assertEquals(0, nb.txInFlight(), config + ": B's window still counts PSNs in flight");
        }
        assertNull(na.mirrorMismatch(), config + ": A's lines mirror its QPs");
        assertNull(nb.mirrorMismatch(), config + ": B's lines mirror its QPs");
        rnrNaks += nb.counters().get(Counter.SEND_RNR_ERR);
        unsignaled += ops.stream().filter(o -> !o.signaled()).count();
        if (useSrq) srqRuns++;
        if (type == QpType.UD) udRuns++;
        if (type == QpType.UC) ucRuns++;
        List<WorkCompletion> sent = RandomWorkloadTest.poll(a.cq);
        List<WorkCompletion> received = RandomWorkloadTest.poll(b.cq);
        boolean exhausted = na.counters().get(Counter.RETRY_EXCEEDED_ERR) + na.counters().get(Counter.RETRY_RNR_EXCEEDED_ERR) > 0;
        String where = config + ": ";
        // send completions: the signaled WRs, each once, in order per QP
        for (int q = 0; q < qps; q++) {
            int qpn = qa[q].qpn();
            int qq = q;
            List<Long> got = sent.stream().filter(c -> c.qpNum == qpn).map(c -> c.wrId).toList();
            List<Long> want = ops.stream().filter(o -> o.qp() == qq && o.signaled()).map(Op::wrId).toList();
            if (exhausted) {
                List<Long> all = ops.stream().filter(o -> o.qp() == qq).map(Op::wrId).toList();
                assertTrue(isSubsequence(got, all), where + "completions once, in order, on QP " + q + ": " + got);
            } else {
                assertEquals(want, got, where + "every signaled WR completes once, in order, and no unsignaled one, on QP " + q);
            }
        }
        for (WorkCompletion c : sent) {
            if (c.status != WcStatus.SUCCESS && !(exhausted && (c.status == WcStatus.RETRY_EXC_ERR || c.status == WcStatus.RNR_RETRY_EXC_ERR
                    || c.status == WcStatus.WR_FLUSH_ERR))) {
                fail(where + "error completion " + c + " without an exhausted retry budget");
            }
        }
        // receives: each names the next message of its QP (UC, UD: a later one), with exactly its bytes
        Map<Integer, Integer> qpOf = new HashMap<>();
        for (int q = 0; q < qps; q++) qpOf.put(qb[q].qpn(), q);
        Map<Integer, ArrayDeque<Op>> pending = new HashMap<>();
        for (var e : messages.entrySet()) pending.put(e.getKey(), new ArrayDeque<>(e.getValue()));
        for (WorkCompletion c : received) {
            if (type == QpType.UC && useSrq && c.status == WcStatus.REM_INV_REQ_ERR) {
                ucBrokenOnSrq++; // rxe's class E: a message the link broke ends its SRQ receive in error
                continue;
            }
            assertEquals(WcStatus.SUCCESS, c.status, where + "receive " + c);
            Integer q = qpOf.get(c.qpNum);
            assertTrue(q != null, where + "a receive on an unknown QP: " + c);
            Recv rv = byId.get(c.wrId);
            if (!useSrq) assertEquals(q, recvQp.get(c.wrId), where + "a QP's receive completes on that QP");
            ArrayDeque<Op> queue = pending.get(q);
            boolean withImm = (c.wcFlags & WorkCompletion.WC_WITH_IMM) != 0;
            Op m = null;
            if (type != QpType.RC) {
                // UC and UD promise no order and no single delivery: a link that reorders or duplicates delivers a
                // message late or twice (UC's check_psn, as rxe's, starts a message at any FIRST or ONLY packet)
                for (Op d : messages.get(q)) if (m == null && is(d, c, withImm, type, a.mem, b.mem, rv)) m = d;
            }
            while (type == QpType.RC && m == null && !queue.isEmpty()) {
                Op head = queue.poll();
                if (is(head, c, withImm, type, a.mem, b.mem, rv)) m = head;
                else fail(where + "RC receive " + c + " is not the next message " + head);
            }
            if (m == null) fail(where + "receive " + c + " matches no message still due on QP " + q + "; its messages: "
                    + messages.get(q).stream().map(o -> o.wrId() + ":" + o.opcode() + "/" + o.length() + (o.length() + (type == QpType.UD ? GRH : 0) == c.byteLen
                    ? " mismatch at " + MemorySegment.mismatch(a.mem, o.localOff(), o.localOff() + o.length(), b.mem, rv.off(), rv.off() + o.length()) : "")).toList());
            assertEquals(hasImm(m.opcode()), (c.wcFlags & WorkCompletion.WC_WITH_IMM) != 0, where + "immediate flag of " + c);
            if (hasImm(m.opcode())) assertEquals((int) m.wrId(), c.immData, where + c);
            if (m.opcode() == SendOpcode.RDMA_WRITE_WITH_IMM) {
                assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, c.opcode, where + c);
                assertEquals(-1, MemorySegment.mismatch(a.mem, m.localOff(), m.localOff() + m.length(), b.mem, m.remoteOff(),
                        m.remoteOff() + m.length()), where + "a WRITE whose immediate arrived is whole");
            } else {
                assertEquals(WcOpcode.RECV, c.opcode, where + c);
                assertTrue(matches(m, c, type, a.mem, b.mem, rv), where + "receive " + c + " holds message " + m);
                int grh = type == QpType.UD ? GRH : 0;
                // what the receive buffer should now hold: the GRH (as it came) and the message
                MemorySegment.copy(b.mem, rv.off(), refB, rv.off(), grh);
                MemorySegment.copy(a.mem, m.localOff(), refB, rv.off() + grh, m.length());
                if (type == QpType.UC) MemorySegment.copy(b.mem, rv.off(), refB, rv.off(), rv.length());
            }
        }
        if (type == QpType.RC && !exhausted) {
            for (var e : pending.entrySet()) assertTrue(e.getValue().isEmpty(), where + "RC messages never received on QP " + e.getKey() + ": " + e.getValue());
        }
        if (type == QpType.UC) {
            // a message the link broke may have filled part of a receive it then did not complete
            for (Recv rv : recvs) MemorySegment.copy(b.mem, rv.off(), refB, rv.off(), rv.length());
            // a WRITE the link broke left each byte it reached old or new
            for (Op o : ops) {
                if (o.opcode() != SendOpcode.RDMA_WRITE && o.opcode() != SendOpcode.RDMA_WRITE_WITH_IMM) continue;
                for (long x = 0; x < o.length(); x++) {
                    byte now = b.mem.get(ValueLayout.JAVA_BYTE, o.remoteOff() + x);
                    if (now != before.get(ValueLayout.JAVA_BYTE, o.remoteOff() + x) && now != a.mem.get(ValueLayout.JAVA_BYTE, o.localOff() + x)) {
                        fail(where + "UC WRITE " + o + " left byte " + x + " neither old nor new");
                    }
                }
                MemorySegment.copy(b.mem, o.remoteOff(), refB, o.remoteOff(), o.length());
            }
        }
        if (!exhausted) {
            long ma = MemorySegment.mismatch(refA, 0, MEM, a.mem, 0, MEM);
            long mb = MemorySegment.mismatch(refB, 0, MEM, b.mem, 0, MEM);
            assertEquals(-1, ma, where + "A's memory equals the model");
            assertEquals(-1, mb, where + "B's memory equals the model");
        }
    }

    private static SendOpcode opcode(QpType type, Random r) {
        return switch (type) {
            case UD -> r.nextBoolean() ? SendOpcode.SEND : SendOpcode.SEND_WITH_IMM;
            case UC -> new SendOpcode[] {SendOpcode.SEND, SendOpcode.SEND_WITH_IMM, SendOpcode.RDMA_WRITE, SendOpcode.RDMA_WRITE_WITH_IMM}[r.nextInt(4)];
            default -> new SendOpcode[] {SendOpcode.SEND, SendOpcode.SEND_WITH_IMM, SendOpcode.RDMA_WRITE, SendOpcode.RDMA_WRITE_WITH_IMM,
                    SendOpcode.RDMA_READ, SendOpcode.ATOMIC_FETCH_AND_ADD}[r.nextInt(6)];
        };
    }

    private static boolean hasImm(SendOpcode op) {
        return op == SendOpcode.SEND_WITH_IMM || op == SendOpcode.RDMA_WRITE_WITH_IMM;
    }

    /** Whether completion {@code c} is message {@code m}'s: by its immediate data, or else by its bytes. */
    private static boolean is(Op m, WorkCompletion c, boolean withImm, QpType type, MemorySegment a, MemorySegment b, Recv rv) {
        if (withImm) return hasImm(m.opcode()) && (int) m.wrId() == c.immData;
        return !hasImm(m.opcode()) && matches(m, c, type, a, b, rv);
    }

    /** Whether the receive holds message {@code m}: its length (plus the GRH on UD) and its bytes. */
    private static boolean matches(Op m, WorkCompletion c, QpType type, MemorySegment a, MemorySegment b, Recv rv) {
        if (m.opcode() == SendOpcode.RDMA_WRITE_WITH_IMM) return false;
        int grh = type == QpType.UD ? GRH : 0;
        if (c.byteLen != m.length() + grh) return false;
        return MemorySegment.mismatch(a, m.localOff(), m.localOff() + m.length(), b, rv.off() + grh, rv.off() + grh + m.length()) == -1;
    }

    private static boolean isSubsequence(List<Long> sub, List<Long> all) {
        int i = 0;
        for (long x : all) if (i < sub.size() && sub.get(i) == x) i++;
        return i == sub.size();
    }

    private static void postRecv(Nic nb, SharedReceiveQueue srq, QueuePair[] qb, Map<Long, Integer> recvQp, Recv rv, MemoryRegion mr) {
        RecvWr w = new RecvWr(1);
        w.wrId = rv.wrId();
        w.numSge = 1;
        w.sgList[0].set(mr.iova() + rv.off(), rv.length(), mr.lkey());
        if (srq != null) nb.postSrqRecv(srq, w);
        else nb.postRecv(qb[recvQp.get(rv.wrId())], w);
    }

    private static void fill(MemorySegment real, MemorySegment ref, Random r) {
        java.util.SplittableRandom s = new java.util.SplittableRandom(r.nextLong());
        for (long i = 0; i < MEM; i += 8) real.set(ValueLayout.JAVA_LONG_UNALIGNED, i, s.nextLong());
        MemorySegment.copy(real, 0, ref, 0, MEM);
    }
}
