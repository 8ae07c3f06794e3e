package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/** Several application threads post to one QP while another polls: nothing lost, nothing twice, ENOMEM when full. */
class ConcurrentPostingTest {
    @Test
    void fourPostersAndOnePollerSeeEveryCompletionExactlyOnce() throws Exception {
        int threads = 4;
        int perThread = 5_000;
        try (ApiPair p = new ApiPair(ApiPair.Kind.THREADED, FaultConfig.NONE, Mtu.MTU_1024)) {
            // As in rxe, a send queue entry is free again once its completion is written, not once it is polled:
            // posters that outrun the poller can fill the CQ, so it gets room for every completion of the run.
            var cq = p.keep(p.a.createCq(threads * perThread));
            var qpA = p.keep(p.pdA.createQp(org.softrnic.verbs.QpInitAttr.rc(cq, new org.softrnic.verbs.QpCaps(256, 1, 1, 1, 0))));
            var qpB = p.keep(p.pdB.createQp(org.softrnic.verbs.QpInitAttr.rc(p.cqB, new org.softrnic.verbs.QpCaps(1, 1, 1, 1, 0))));
            qpA.modifyToRts(p.connect(p.b, qpB, Mtu.MTU_1024));
            qpB.modifyToRts(p.connect(p.a, qpA, Mtu.MTU_1024));
            AtomicLong full = new AtomicLong();
            List<Thread> posters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                posters.add(Thread.ofPlatform().start(() -> {
                    // each thread adds 1 to its own counter in the remote buffer, so the sum proves every atomic ran once
                    SendWr wr = new SendWr(1).sge(p.mrA.addr() + 64L * id, 8, p.mrA.lkey());
                    wr.opcode = SendOpcode.ATOMIC_FETCH_AND_ADD;
                    wr.sendFlags = SendFlags.SIGNALED;
                    wr.remoteAddr = p.mrB.addr() + 64L * id;
                    wr.rkey = p.mrB.rkey();
                    wr.compareAdd = 1;
                    for (int i = 0; i < perThread; ) {
                        wr.wrId = (long) id << 32 | i;
                        try {
                            qpA.postSend(wr);
                            i++;
                        } catch (VerbsException e) {
                            if (e.errno() != Errno.ENOMEM) throw e;
                            full.incrementAndGet();
                            Thread.onSpinWait();
                        }
                    }
                }));
            }
            long[] next = new long[threads];
            List<WorkCompletion> all = ApiPair.await(cq, threads * perThread);
            for (Thread t : posters) t.join();
            for (WorkCompletion wc : all) {
                assertEquals(WcStatus.SUCCESS, wc.status, wc.toString());
                int id = (int) (wc.wrId >>> 32);
                assertEquals(next[id]++, wc.wrId & 0xffffffffL, "one thread's requests complete in its posting order");
            }
            for (int t = 0; t < threads; t++) {
                assertEquals(perThread, next[t]);
                assertEquals(perThread, p.memB().get(ValueLayout.JAVA_LONG_UNALIGNED, 64L * t), "thread " + t + "'s counter");
            }
            assertTrue(full.get() > 0, "with 256 send-queue entries and 20 000 posts, the queue was full at times");
            assertEquals(0L, p.devA.counters().get("post_refused"));
            assertEquals(0L, p.devA.counters().get("loop_failures"));
        }
    }

    @Test
    void everyArmedCompletionRaisesItsEventAndDestroyFollowsEarlierPosts() throws Exception {
        try (ApiPair p = new ApiPair(ApiPair.Kind.THREADED, FaultConfig.NONE, Mtu.MTU_1024)) {
            var ch = p.keep(p.a.createCompChannel());
            var cq = p.keep(p.a.createCq(64, ch));
            SendWr wr = new SendWr(1).sge(p.mrA.addr(), 64, p.mrA.lkey());
            wr.opcode = SendOpcode.RDMA_WRITE;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.remoteAddr = p.mrB.addr();
            wr.rkey = p.mrB.rkey();
            WorkCompletion[] wc = {new WorkCompletion()};
            for (int round = 0; round < 200; round++) {
                var qp = p.pdA.createQp(org.softrnic.verbs.QpInitAttr.rc(cq, new org.softrnic.verbs.QpCaps(4, 1, 1, 1, 0)));
                var peer = p.pdB.createQp(org.softrnic.verbs.QpInitAttr.rc(p.cqB, new org.softrnic.verbs.QpCaps(1, 1, 1, 1, 0)));
                qp.modifyToRts(p.connect(p.b, peer, Mtu.MTU_1024));
                peer.modifyToRts(p.connect(p.a, qp, Mtu.MTU_1024));
                cq.reqNotify(false);
                qp.postSend(wr);
                // the event comes even when the completion is written while this thread arms and waits
                assertTrue(ch.getCqEvent(java.time.Duration.ofSeconds(10)) == cq, "round " + round + ": no event");
                cq.ackEvents(1);
                while (cq.poll(wc) == 0) Thread.onSpinWait();
                assertEquals(WcStatus.SUCCESS, wc[0].status);
                // a post right before destroy is applied first, then the QP goes: destroy returns, nothing hangs
                qp.postSend(wr);
                qp.close();
                peer.close();
                while (cq.poll(wc) > 0) {
                    // the last request's completion, if it came before the destroy
                }
            }
            assertEquals(0L, p.devA.counters().get("loop_failures"));
        }
    }

    @Test
    void theVirtualFabricReplaysARunExactlyFromItsSeed() throws Exception {
        assertEquals(run(), run());
    }

    private static String run() throws Exception {
        FaultConfig lossy = new FaultConfig(0.1, 0.05, 0.1, 1_000L, 3_000L, 0.0, 3L);
        try (ApiPair p = new ApiPair(ApiPair.Kind.VIRTUAL, lossy, Mtu.MTU_1024)) {
            SendWr wr = new SendWr(1).sge(p.mrA.addr(), 200_000, p.mrA.lkey());
            wr.opcode = SendOpcode.RDMA_WRITE;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.remoteAddr = p.mrB.addr();
            wr.rkey = p.mrB.rkey();
            for (int i = 0; i < 4; i++) p.qpA.postSend(wr);
            ApiPair.await(p.cqA, 4);
            return p.devA.counters() + " " + p.devB.counters() + " t=" + p.fabric.simulation().clock().nanoTime();
        }
    }
}
