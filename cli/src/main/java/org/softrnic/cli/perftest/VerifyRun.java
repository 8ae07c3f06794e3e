package org.softrnic.cli.perftest;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * --verify (softrnic's, not perftest's; both sides give it): every message's bytes are checked where they land.
 * read_bw: the server's target areas hold {@link #pattern}; each READ lands in a local area first filled with
 * the pattern's complement, one READ at a time, and is compared when it completes. write_bw: each WRITE
 * carries a pattern of its own, and a READ posted right behind it brings the target back into a poisoned area
 * of the client's, so a READ completed without its data (or a WRITE acknowledged but not done) shows.
 */
final class VerifyRun {
    record Outcome(BwRun.Result result, long checked, long differed, String firstDifference) {}

    private final PerftestOptions o;
    private final Runnable progress;
    private final WorkCompletion[] wc = {new WorkCompletion(), new WorkCompletion()};

    VerifyRun(PerftestOptions o, Runnable progress) {
        this.o = o;
        this.progress = progress;
    }

    /** The byte at {@code offset} of message {@code seed}: not periodic, so a packet placed at another offset shows. */
    static byte pattern(long seed, long offset) {
        long x = (offset + 1) * 0x9E3779B97F4A7C15L + seed * 0xC2B2AE3D27D4EB4FL;
        return (byte) ((x ^ (x >>> 29)) >>> 40);
    }

    static void fill(MemorySegment s, long seed, boolean complement) {
        for (long i = 0; i < s.byteSize(); i++) s.set(ValueLayout.JAVA_BYTE, i, (byte) (complement ? ~pattern(seed, i) : pattern(seed, i)));
    }

    /** The server: every area the client targets starts as message 0's pattern. */
    static void prepareTargets(MemoryRegion mr, int qps, long buffSize) {
        fill(mr.segment().asSlice(qps * buffSize, qps * buffSize), 0, false);
    }

    /** The client, QP 0 only: {@code n} messages of {@code size} bytes, each checked. */
    Outcome client(List<QueuePair> qps, CompletionQueue cq, MemoryRegion mr, List<PerftestWire.Key> peers, int size, int n)
            throws PerftestException {
        QueuePair qp = qps.getFirst();
        PerftestWire.Key peer = peers.getFirst();
        long buff = o.buffSize();
        MemorySegment local = mr.segment().asSlice(0, size);
        // write_bw reads back into the second half, which nothing targets on a client
        MemorySegment back = mr.segment().asSlice((long) qps.size() * buff, size);
        boolean write = o.test().verb == PerftestTest.Verb.WRITE;
        SendWr wr = new SendWr(1).sge(mr.addr(), size, mr.lkey());
        wr.rkey = peer.rkey();
        wr.remoteAddr = peer.vaddr();
        wr.sendFlags = SendFlags.SIGNALED;
        SendWr readBack = new SendWr(1).sge(mr.addr() + (long) qps.size() * buff, size, mr.lkey());
        readBack.opcode = SendOpcode.RDMA_READ;
        readBack.rkey = peer.rkey();
        readBack.remoteAddr = peer.vaddr();
        readBack.sendFlags = SendFlags.SIGNALED;
        long differed = 0;
        String first = null;
        long start = System.nanoTime();
        for (int k = 0; k < n; k++) {
            MemorySegment target;
            if (write) {
                fill(local, k + 1, false);
                fill(back, k + 1, true);
                wr.opcode = SendOpcode.RDMA_WRITE;
                wr.wrId = 2L * k;
                readBack.wrId = 2L * k + 1;
                qp.postSend(wr);
                qp.postSend(readBack);
                await(cq, 2);
                target = back;
            } else {
                fill(local, 0, true);
                wr.opcode = SendOpcode.RDMA_READ;
                wr.wrId = k;
                qp.postSend(wr);
                await(cq, 1);
                target = local;
            }
            long at = firstDifference(target, write ? k + 1 : 0);
            if (at >= 0) {
                differed++;
                if (first == null) first = "message " + k + " differs first at byte " + at;
            }
        }
        double seconds = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
        BwRun.Result r = new BwRun.Result(size, n, 0, (double) size * n / seconds / 0x100000, n / seconds / 1e6);
        return new Outcome(r, n, differed, first);
    }

    private void await(CompletionQueue cq, int count) throws PerftestException {
        int got = 0;
        while (got < count) {
            int k = cq.poll(wc);
            if (k == 0) progress.run();
            for (int i = 0; i < k; i++) {
                if (wc[i].status != WcStatus.SUCCESS) throw PerftestException.completion("client", wc[i]);
            }
            got += k;
        }
    }

    private static long firstDifference(MemorySegment s, long seed) {
        for (long i = 0; i < s.byteSize(); i++) if (s.get(ValueLayout.JAVA_BYTE, i) != pattern(seed, i)) return i;
        return -1;
    }
}
