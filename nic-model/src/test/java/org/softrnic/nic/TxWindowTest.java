package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.List;
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
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * Many QPs that each send their window at once into a link that holds only so many packets, as a kernel UDP
 * socket's receive buffer does: without a device-wide window the burst overflows it and go-back-N resends into
 * the same overflow; with one, nothing is dropped and every message completes, the QPs taking turns.
 */
class TxWindowTest {
    private static final int QPS = 200, WRS = 8, SIZE = 4096, HELD = 256;

    @Test
    void withoutAWindowTheBurstOverflowsTheLink() {
        Run r = run(0);
        assertTrue(r.dropped > 0, "the link had to drop: " + r.dropped);
    }

    @Test
    void aDeviceWideWindowKeepsEveryPacketAndCompletesEveryMessageInTurn() {
        Run r = run(HELD / 2);
        assertEquals(0, r.dropped, "no packet dropped");
        assertEquals(QPS * WRS, r.success, "every WRITE completed");
        assertEquals(0, r.retries, "nothing timed out");
        assertTrue(r.maxInFlight <= HELD / 2 + SIZE / 1024, "at most one message past the window: " + r.maxInFlight);
    }

    // A link slower than the ACK timeout (67 ms), as a peer's socket is when one thread drives both devices
    // and its JIT is cold: every QP times out while its first copies are still on the way, and goes back N.
    // It keeps its room meanwhile: were it handed to the QPs waiting, their packets would join the copies
    // still in flight, the queue would pass the bound and overflow, and the retries would run out.
    @Test
    void aQpGoneBackNKeepsItsRoomWhileItsFirstCopiesAreStillOnTheWay() {
        Run r = run(HELD / 2, 100_000_000L, 20_000_000_000L);
        assertTrue(r.retries > 0, "the QPs timed out");
        assertEquals(0, r.dropped, "no packet dropped");
        assertEquals(QPS * WRS, r.success, "every WRITE completed");
        assertTrue(r.maxInFlight <= HELD, "first copies and resent ones within twice the window: " + r.maxInFlight);
    }

    private record Run(long dropped, long success, long retries, long maxInFlight) {}

    private static Run run(int window) {
        // long enough for every retry a drop causes, short of retry_cnt's end
        return run(window, 10_000, 200_000_000L);
    }

    private static Run run(int window, long delayNanos, long runNanos) {
        SimFabric fabric = new SimFabric(1);
        fabric.faults(new LinkFaults(0, 0, 0, delayNanos, 0));
        Nic a = fabric.add(NicConfig.of("a", Pair.GID_A, 1));
        Nic b = fabric.add(NicConfig.of("b", Pair.GID_B, 2));
        a.txWindow(window);
        // a receive queue of HELD packets from A to B: one more in flight is dropped, as a full socket drops it
        ArrayDeque<Long> arrivals = new ArrayDeque<>();
        long[] max = {0};
        fabric.dropWhen(p -> {
            if (p.from() != 0) return false;
            while (!arrivals.isEmpty() && arrivals.peek() <= p.sentAt()) arrivals.poll();
            if (arrivals.size() >= HELD) return true;
            arrivals.add(p.arrivesAt());
            max[0] = Math.max(max[0], arrivals.size());
            return false;
        });
        ProtectionDomain pa = a.allocPd(), pb = b.allocPd();
        MemoryRegion src = a.regMr(pa, Arena.ofAuto().allocate(SIZE), Access.LOCAL_WRITE);
        MemorySegment dst = Arena.ofAuto().allocate(SIZE);
        MemoryRegion target = b.regMr(pb, dst, Access.LOCAL_WRITE | Access.REMOTE_ANY);
        CompletionQueue cqa = a.createCq(QPS * WRS), cqb = b.createCq(16);
        QueuePair[] qa = new QueuePair[QPS];
        for (int i = 0; i < QPS; i++) {
            qa[i] = a.createQp(pa, QpType.RC, cqa, cqa, null, QpCaps.of(WRS, 1), false);
            QueuePair qb = b.createQp(pb, QpType.RC, cqb, cqb, null, QpCaps.of(WRS, 1), false);
            Pair.connect(side(a, pa, src, cqa, qa[i]), side(b, pb, target, cqb, qb), Pair.GID_B, QpType.RC, Mtu.MTU_1024, 0, 0, x -> { });
            Pair.connect(side(b, pb, target, cqb, qb), side(a, pa, src, cqa, qa[i]), Pair.GID_A, QpType.RC, Mtu.MTU_1024, 0, 0, x -> { });
        }
        SendWr w = new SendWr(1);
        w.opcode = SendOpcode.RDMA_WRITE;
        w.sendFlags = SendFlags.SIGNALED;
        w.numSge = 1;
        w.sgList[0].set(src.iova(), SIZE, src.lkey());
        w.remoteAddr = target.iova();
        w.rkey = target.rkey();
        for (QueuePair q : qa) for (int k = 0; k < WRS; k++) a.postSend(q, w);
        fabric.run(fabric.clock().nanoTime() + runNanos);
        List<WorkCompletion> done = RandomWorkloadTest.poll(cqa);
        long ok = done.stream().filter(c -> c.status == WcStatus.SUCCESS).count();
        return new Run(fabric.droppedCount(), ok, a.counters().get(Counter.COMPLETER_RETRY_ERR), max[0]);
    }

    private static Pair.Side side(Nic nic, ProtectionDomain pd, MemoryRegion mr, CompletionQueue cq, QueuePair qp) {
        Pair.Side s = Pair.Side.wrap(nic, pd, mr.segment(), mr, cq);
        s.qp = qp;
        return s;
    }
}
