package org.softrnic.emulator.perf;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * The client's measuring loop: each QP keeps {@code txDepth} requests outstanding, as perftest does;
 * completions are polled in batches, timed from their post, and counted towards the peak and average
 * bandwidth.
 */
final class PerfClient {
    static final ValueLayout.OfLong HOST = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long PROGRESS_EVERY_NANOS = 200_000_000L;
    /** Latency samples kept (8 bytes each); later completions are not sampled. */
    private static final int MAX_LATENCY_SAMPLES = 1_000_000;
    /** How long no completion may arrive before the run is declared stalled. */
    static final long STALL_NANOS = 10_000_000_000L;

    /** What the loop measured. */
    record Outcome(long done, double seconds, double peak, double average, String error, Latency latency) {}

    private PerfClient() {
    }

    static WorkCompletion[] completions(int n) {
        WorkCompletion[] wcs = new WorkCompletion[n];
        for (int i = 0; i < n; i++) wcs[i] = new WorkCompletion();
        return wcs;
    }

    /**
     * Runs the client side against {@code peer}; {@code pump} runs once a round (the in-process server's
     * receives, or nothing). On the virtual fabric a poll that finds nothing has run the fabric until idle,
     * so it means a stall at once.
     */
    static Outcome run(PerfSide side, PerfEndpoint peer, Runnable pump, boolean virtual, PerfProgress progress) {
        PerfOptions o = side.o;
        int depth = o.txDepth();
        int qps = side.qps.size();
        long[] posted = new long[qps];
        long[] completed = new long[qps];
        long[] postedAt = new long[qps * depth];
        Plan plan = new Plan(side, peer);
        SendWr wr = new SendWr(1);
        WorkCompletion[] wcs = completions(64);
        long total = (long) o.iters() * qps;
        long done = 0;
        String error = null;
        double peak = 0;
        long start = System.nanoTime();
        long batchStart = start;
        long batchDone = 0;
        long lastProgress = start;
        long lastCompletion = start;
        long[] latencies = new long[(int) Math.min(total, MAX_LATENCY_SAMPLES)];
        int samples = 0;
        try (PerMessageRegistration reg = o.registrationMode() == PerMessageRegistration.Mode.ONCE || plan.numSge == 0 ? null
                : new PerMessageRegistration(side, o.registrationMode())) {
        plan.reg = reg;
        // every QP's window filled once; after that a QP is served only when a completion freed a slot of its
        // window, so a turn of the loop costs the same with 10 000 QPs as with one. The refills wait for the
        // next turn, after the pump, as the scan did: a virtual peer posts its receives again only there.
        pump.run(); // first the peer's receives (SEND)
        for (int q = 0; q < qps; q++) {
            while (posted[q] < o.iters() && posted[q] - completed[q] < depth) post(wr, plan, q, posted, postedAt, depth);
            // one thread driving both devices moves the peer while it fills: with thousands of WRs to post, the
            // first packets would otherwise wait for their ACKs longer than the ACK timeout
            pump.run();
        }
        int[] refill = new int[wcs.length]; // at most one per completion polled in a turn
        int refills = 0;
        while (done < total && error == null) {
            pump.run();
            for (int r = 0; r < refills; r++) post(wr, plan, refill[r], posted, postedAt, depth);
            refills = 0;
            int n = side.cq.poll(wcs);
            long now = System.nanoTime();
            for (int i = 0; i < n; i++) {
                if (wcs[i].status != WcStatus.SUCCESS) {
                    // the first error is the cause; flushes of the other requests follow it
                    if (error == null) error = wcs[i].status.ibvName() + " on QP 0x" + Integer.toHexString(wcs[i].qpNum);
                    break;
                }
                int q = (int) (wcs[i].wrId >>> 32);
                if (q < 0 || q >= qps || plan.qpn[q] != wcs[i].qpNum) {
                    throw new IllegalStateException("a completion for QP 0x" + Integer.toHexString(wcs[i].qpNum) + ", not one of this run's");
                }
                String wrong = sequenceError(wcs[i].qpNum, wcs[i].wrId, completed[q]);
                if (wrong != null) {
                    error = wrong;
                    break;
                }
                if (samples < latencies.length) latencies[samples++] = now - postedAt[q * depth + (int) (completed[q] % depth)];
                if (reg != null) reg.release(q, completed[q]);
                completed[q]++;
                done++;
                if (posted[q] + waiting(refill, refills, q) < o.iters()) refill[refills++] = q;
            }
            if (n > 0) {
                lastCompletion = now;
            } else if (virtual && error == null) {
                error = "no progress: the fabric went idle"; // virtual time already ran everything that could happen
            } else if (now - lastCompletion > STALL_NANOS) {
                error = "no progress for " + STALL_NANOS / 1_000_000_000 + " s: the link stalled";
            }
            if (now - lastProgress >= PROGRESS_EVERY_NANOS) {
                progress.update(done, total, now - start);
                lastProgress = now;
            }
            if (done - batchDone >= Math.max(1, total / 20) && now > batchStart) {
                peak = Math.max(peak, (done - batchDone) * (double) o.size() / ((now - batchStart) / 1e9) / 1e6);
                batchStart = now;
                batchDone = done;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double avg = done * (double) o.size() / seconds / 1e6;
        return new Outcome(done, seconds, Math.max(peak, avg), avg, error, Latency.of(latencies, samples));
        }
    }

    /**
     * Null if {@code wrId} names the QP's next request, else what went wrong. An RC send queue completes its
     * requests in the order they were posted, so a completion that names an earlier request was doubled and one
     * that names a later request means the ones between were lost.
     */
    static String sequenceError(int qpNum, long wrId, long next) {
        long index = wrId & 0xffffffffL;
        long expected = next & 0xffffffffL;
        if (index == expected) return null;
        String qp = "QP 0x" + Integer.toHexString(qpNum);
        return index < expected
                ? "a completion doubled: " + qp + " completed its request " + index + " again, after " + next + " completions"
                : "a completion lost: " + qp + " completed its request " + index + " where request " + expected + " was next";
    }

    /** How many refills of QP {@code q} already wait for the next turn (a turn polls at most 64 completions). */
    private static int waiting(int[] refill, int refills, int q) {
        int n = 0;
        for (int i = 0; i < refills; i++) if (refill[i] == q) n++;
        return n;
    }

    /**
     * What a post to each QP needs, in arrays indexed by QP: perftest keeps its per-QP addresses and keys the same
     * way. Read through the lists, each post would load a few objects of its own per QP (a region, a boxed
     * address and key) that with thousands of QPs taking turns are never in the cache.
     */
    private static final class Plan {
        final QueuePair[] qps;
        final int[] qpn;
        final long[] addr;
        /** The one region's: every QP's buffer lies in it (see PerfSide). */
        final int lkey;
        final long[] remoteAddr;
        final int[] rkey;
        final SendOpcode opcode;
        final int numSge;
        final int length;
        /** --reg-per-message: registers each request's buffer; null when the one region serves (perftest's way). */
        PerMessageRegistration reg;

        Plan(PerfSide side, PerfEndpoint peer) {
            PerfOptions o = side.o;
            int n = side.qps.size();
            qps = side.qps.toArray(new QueuePair[0]);
            qpn = new int[n];
            addr = new long[n];
            remoteAddr = new long[n];
            rkey = new int[n];
            for (int q = 0; q < n; q++) {
                qpn[q] = qps[q].qpn();
                addr[q] = side.addr(q);
                remoteAddr[q] = peer.addrs().get(q);
                rkey[q] = peer.rkeys().get(q);
            }
            lkey = side.mr.lkey();
            opcode = o.op().opcode;
            numSge = o.size() == 0 && o.op() != PerfOp.ATOMIC ? 0 : 1;
            length = Math.max(o.size(), o.op() == PerfOp.ATOMIC ? 8 : 0);
        }
    }

    /** Posts QP {@code q}'s next request; its index rides in the work request id's high half. */
    private static void post(SendWr wr, Plan plan, int q, long[] posted, long[] postedAt, int depth) {
        wr.opcode = plan.opcode;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.numSge = plan.numSge;
        // the request's time starts before its registration, which an application that registers per message pays
        postedAt[q * depth + (int) (posted[q] % depth)] = System.nanoTime();
        int lkey = plan.reg == null ? plan.lkey : plan.reg.register(q, posted[q], plan.addr[q], plan.length);
        wr.sgList[0].set(plan.addr[q], plan.length, lkey);
        wr.remoteAddr = plan.remoteAddr[q];
        wr.rkey = plan.rkey[q];
        wr.compareAdd = 1;
        wr.wrId = ((long) q << 32) | (posted[q] & 0xffffffffL);
        plan.qps[q].postSend(wr);
        posted[q]++;
    }
}
