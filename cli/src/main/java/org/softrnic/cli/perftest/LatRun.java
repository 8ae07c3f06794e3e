package org.softrnic.cli.perftest;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * The latency tests' loops (run_iter_lat_write, run_iter_lat_send, run_iter_lat) and print_report_lat. Time
 * is taken before each post, as perftest takes it; nanoseconds stand in for its cycles at 1000 MHz. Under -D
 * a loop runs until the clock ends and counts what completed in the measured window.
 */
final class LatRun {
    /** What a run measured: each post's time (by count), or the count in -D's window. */
    record Timing(long[] posted, long sampled, double seconds) {}

    /** One print_report_lat row, in microseconds. */
    record Stats(long size, long iters, double min, double max, double typical, double avg, double stdev, double p99, double p999) {
        /** Gaps between consecutive posts, sorted, the two largest dropped (LAT_MEASURE_TAIL), C's integer quirks kept. */
        static Stats of(long[] posted, int size, int rttFactor) {
            int n = posted.length - 1;
            long[] delta = new long[n];
            for (int i = 0; i < n; i++) delta[i] = posted[i + 1] - posted[i];
            Arrays.sort(delta);
            int m = n - 2;
            double q = 1000.0 * rttFactor;
            long median = (m - 1) % 2 != 0 ? (delta[m / 2] + delta[m / 2 - 1]) / 2 : delta[m / 2];
            double sum = 0;
            for (int i = 0; i < m; i++) sum += delta[i] / q;
            double avg = sum / m;
            double var = 0;
            for (int i = 0; i < m; i++) {
                int d = (int) (avg - delta[i] / q); // perftest squares an int: sub-microsecond spread counts 0
                var += (double) d * d;
            }
            return new Stats(size, posted.length, delta[0] / q, delta[m] / q, median / q, avg, Math.sqrt(var / m),
                    delta[(int) Math.ceil(m * 0.99)] / q, delta[(int) Math.ceil(m * 0.999)] / q);
        }
    }

    /** The peer's WRITE lands behind the JVM's back: each poll of the byte must read memory again, as C's volatile. */
    private static final VarHandle VOLATILE_BYTE = ValueLayout.JAVA_BYTE.varHandle();

    private final PerftestOptions o;
    private final QueuePair qp;
    private final CompletionQueue sendCq;
    private final MemoryRegion mr;
    private final PerftestWire.Key peer;
    private final Runnable progress;
    private final WorkCompletion wc = new WorkCompletion();
    private final WorkCompletion[] one = {wc};
    private DurationClock clock;

    LatRun(PerftestOptions o, QueuePair qp, CompletionQueue sendCq, MemoryRegion mr, PerftestWire.Key peer, Runnable progress) {
        this.o = o;
        this.qp = qp;
        this.sendCq = sendCq;
        this.mr = mr;
        this.peer = peer;
        this.progress = progress;
    }

    private SendWr request(PerftestTest.Verb verb, int size) {
        SendWr wr = new SendWr(1).sge(mr.addr(), size, mr.lkey());
        wr.opcode = verb.opcode;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.remoteAddr = peer.vaddr();
        wr.rkey = peer.rkey();
        return wr;
    }

    /** By count: until {@code done}; under -D: until the clock ends. */
    private boolean more(boolean done) {
        return o.timed() ? !clock.ended() : !done;
    }

    private Timing timing(long[] posted, long sampled) {
        return o.timed() ? new Timing(null, sampled, clock.sampleSeconds()) : new Timing(posted, 0, 0);
    }

    /**
     * Ping-pong by RDMA WRITE: each write carries the sender's count in its last byte, and each side waits for
     * the peer's count to appear in its own target area (its advertised VADDR). The server writes first.
     */
    Timing write(boolean server, int size) throws PerftestException {
        int iters = o.timed() ? Integer.MAX_VALUE : o.iters();
        long[] posted = new long[o.timed() ? 0 : iters];
        clock = o.clock();
        clock.start();
        SendWr wr = request(PerftestTest.Verb.WRITE, size);
        long postByte = size - 1;
        long pollByte = o.buffSize() + size - 1L;
        MemorySegment target = mr.segment();
        int scnt = 0;
        int ccnt = 0;
        int rcnt = 0;
        long sampled = 0;
        while (more(scnt >= iters && ccnt >= iters && rcnt >= iters)) {
            if (rcnt < iters && !(scnt < 1 && server)) {
                rcnt++;
                while ((byte) VOLATILE_BYTE.getVolatile(target, pollByte) != (byte) rcnt) {
                    if (o.timed() && clock.ended()) break;
                    progress.run();
                }
            }
            if (scnt < iters) {
                if (!o.timed()) posted[scnt] = System.nanoTime();
                mr.segment().set(ValueLayout.JAVA_BYTE, postByte, (byte) ++scnt);
                wr.wrId = scnt;
                qp.postSend(wr);
            }
            if (ccnt < iters && awaitOne(sendCq, server ? "server" : "client")) {
                ccnt++;
                if (clock.sampling()) sampled++;
            }
        }
        return timing(posted, sampled);
    }

    /**
     * Ping-pong by SEND: the client sends first, the server answers each receive; receives are re-posted while
     * needed (always under -D, whose clock starts at each side's first receive).
     */
    Timing send(boolean server, int size, CompletionQueue recvCq, RecvWr recv, int posted) throws PerftestException {
        int iters = o.timed() ? Integer.MAX_VALUE : o.iters();
        long[] times = new long[o.timed() ? 0 : iters];
        clock = o.clock();
        SendWr wr = request(PerftestTest.Verb.SEND, size);
        String side = server ? "server" : "client";
        int scnt = 0;
        int rcnt = 0;
        long sampled = 0;
        while (more(scnt >= iters && rcnt >= iters)) {
            if (rcnt < iters && !(scnt < 1 && !server)) {
                if (!awaitOne(recvCq, side)) continue;
                rcnt++;
                clock.start();
                if (clock.sampling()) sampled++;
                if (o.timed() || posted < o.iters()) {
                    qp.postRecv(recv);
                    posted++;
                }
            }
            if (scnt < iters) {
                if (!o.timed()) times[scnt] = System.nanoTime();
                wr.wrId = scnt++;
                qp.postSend(wr);
                awaitOne(sendCq, side);
            }
        }
        return timing(times, sampled);
    }

    /** RDMA READs one at a time, each awaited: the client alone works. */
    Timing read(int size) throws PerftestException {
        int iters = o.timed() ? Integer.MAX_VALUE : o.iters();
        long[] posted = new long[o.timed() ? 0 : iters];
        clock = o.clock();
        clock.start();
        SendWr wr = request(PerftestTest.Verb.READ, size);
        long sampled = 0;
        for (int scnt = 0; more(scnt >= iters); scnt++) {
            if (!o.timed()) posted[scnt] = System.nanoTime();
            wr.wrId = scnt;
            qp.postSend(wr);
            if (awaitOne(sendCq, "client") && clock.sampling()) sampled++;
        }
        return timing(posted, sampled);
    }

    /** Waits for one completion; under -D gives up (false) once the clock has ended. */
    private boolean awaitOne(CompletionQueue cq, String side) throws PerftestException {
        while (cq.poll(one) == 0) {
            if (o.timed() && clock.ended()) return false;
            progress.run();
        }
        if (wc.status != WcStatus.SUCCESS) throw PerftestException.completion(side, wc);
        return true;
    }
}
