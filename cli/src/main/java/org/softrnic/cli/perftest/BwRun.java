package org.softrnic.cli.perftest;

import java.util.Arrays;
import java.util.List;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * The bandwidth tests' loops: run_iter_bw (post_list 1, each QP filled up to tx_depth in turn, a completion
 * for every cq_mod requests, addresses walking the cycle buffer for small messages) and run_iter_bw_server
 * (ib_send_bw's receiver), with print_report_bw's figures; by count, or for -D's measured window.
 */
final class BwRun {
    record Result(long size, long iters, double peak, double avg, double rate) {}

    private static final int POLL_BATCH = 16;
    /** Above this many messages perftest skips the peak (noPeak). */
    private static final int PEAK_LIMIT = 20000;

    private final PerftestOptions o;
    private final Runnable progress;
    private final WorkCompletion[] wc = new WorkCompletion[POLL_BATCH];

    BwRun(PerftestOptions o, Runnable progress) {
        this.o = o;
        this.progress = progress;
        for (int i = 0; i < wc.length; i++) wc[i] = new WorkCompletion();
    }

    /** The client: {@code n} requests of {@code size} bytes on each QP (wr_id = the QP's index). */
    Result client(List<QueuePair> qps, CompletionQueue cq, MemoryRegion mr, List<PerftestWire.Key> peers, int size, int n)
            throws PerftestException {
        int nq = qps.size();
        int tot = n * nq;
        boolean timed = o.timed();
        long[] posted = new long[timed ? 0 : tot];
        long[] completed = new long[timed ? 0 : tot];
        Arrays.fill(completed, -1);
        int cqMod = o.cqMod();
        int step = (size + PerftestOptions.CACHE_LINE - 1) / PerftestOptions.CACHE_LINE * PerftestOptions.CACHE_LINE;
        int slots = size <= PerftestOptions.CYCLE_BUFFER / 2 ? PerftestOptions.CYCLE_BUFFER / step : 1;
        SendWr[] wrs = new SendWr[nq];
        for (int q = 0; q < nq; q++) {
            SendWr wr = new SendWr(1).sge(mr.addr() + (long) q * o.buffSize(), size, mr.lkey());
            wr.opcode = o.test().verb == PerftestTest.Verb.ATOMIC ? o.atomic().opcode : o.test().verb.opcode;
            wr.rkey = peers.get(q).rkey();
            wr.compareAdd = o.atomic().compareAdd;
            wr.swap = o.atomic().swap;
            wr.wrId = q;
            wrs[q] = wr;
        }
        int[] scnt = new int[nq];
        int[] ccnt = new int[nq];
        int totScnt = 0;
        int totCcnt = 0;
        long sampled = 0;
        DurationClock clock = o.clock();
        if (timed) clock.start();
        while (timed ? !clock.ended() : totCcnt < tot) {
            for (int q = 0; q < nq; q++) {
                SendWr wr = wrs[q];
                while ((timed || scnt[q] < n) && scnt[q] - ccnt[q] < o.txDepth()) {
                    int k = scnt[q];
                    // small messages walk the cycle buffer (increase_rem_addr/increase_loc_addr); large ones stay put
                    wr.remoteAddr = peers.get(q).vaddr() + (long) (k % slots) * step;
                    wr.sgList[0].addr = mr.addr() + (long) q * o.buffSize() + (long) (k % slots) * step;
                    wr.sendFlags = k % cqMod == cqMod - 1 || k == n - 1 ? SendFlags.SIGNALED : 0;
                    if (!timed) posted[totScnt] = System.nanoTime();
                    qps.get(q).postSend(wr);
                    scnt[q]++;
                    totScnt++;
                }
            }
            int got = cq.poll(wc);
            if (got == 0) progress.run();
            long now = System.nanoTime();
            for (int i = 0; i < got; i++) {
                if (wc[i].status != WcStatus.SUCCESS) throw PerftestException.completion("client", wc[i]);
                int q = (int) wc[i].wrId;
                int done = timed ? cqMod : Math.min(n, ccnt[q] + cqMod) - ccnt[q];
                ccnt[q] += done;
                totCcnt += done;
                if (timed) {
                    if (clock.sampling()) sampled += cqMod;
                } else {
                    completed[totCcnt - 1] = now;
                }
            }
        }
        if (timed) return windowResult(size, sampled, clock.sampleSeconds());
        double seconds = Math.max(1e-9, (completed[tot - 1] - posted[0]) / 1e9);
        double peak = tot > PEAK_LIMIT ? 0 : peak(posted, completed, size, cqMod);
        return new Result(size, tot, peak, (double) size * tot / seconds / 0x100000, tot / seconds / 1e6);
    }

    private static Result windowResult(int size, long count, double seconds) {
        return new Result(size, count, 0, (double) size * count / seconds / 0x100000, count / seconds / 1e6);
    }

    /** perftest's peak: the best time per message over every run of messages i..j that ends at a completion. */
    private static double peak(long[] posted, long[] completed, int size, int cqMod) {
        int n = posted.length;
        long best = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            for (int j = (i + cqMod) / cqMod * cqMod - 1; j < n; j += cqMod) {
                if (completed[j] >= 0) best = Math.min(best, (completed[j] - posted[i]) / (j - i + 1));
            }
            if (completed[n - 1] >= 0) best = Math.min(best, (completed[n - 1] - posted[i]) / (n - i));
        }
        return best > 0 && best != Long.MAX_VALUE ? size / (best / 1e9) / 0x100000 : 0;
    }

    /**
     * ib_send_bw's server: receives until every QP's {@code n} came (re-posting to the QP each came from, wr_id
     * = its index), timed from the first to the last; no peak. Under -D the clock starts at the first receive
     * and every completion is re-posted.
     */
    Result server(List<QueuePair> qps, CompletionQueue cq, RecvWr[] recvs, int[] posted, int size, int n) throws PerftestException {
        int tot = n * qps.size();
        boolean timed = o.timed();
        DurationClock clock = o.clock();
        int got = 0;
        long sampled = 0;
        long first = 0;
        long last = 0;
        while (timed ? !clock.ended() : got < tot) {
            int k = cq.poll(wc);
            if (k == 0) progress.run();
            long now = System.nanoTime();
            for (int i = 0; i < k; i++) {
                if (wc[i].status != WcStatus.SUCCESS) throw PerftestException.completion("server", wc[i]);
                int q = (int) wc[i].wrId;
                if (got++ == 0) first = now;
                last = now;
                clock.start();
                if (clock.sampling()) sampled++;
                if (timed || posted[q] < n) {
                    qps.get(q).postRecv(recvs[q]);
                    posted[q]++;
                }
            }
        }
        if (timed) return windowResult(size, sampled, clock.sampleSeconds());
        double seconds = Math.max(1e-9, (last - first) / 1e9);
        return new Result(size, tot, 0.0, (double) size * tot / seconds / 0x100000, tot / seconds / 1e6);
    }
}
