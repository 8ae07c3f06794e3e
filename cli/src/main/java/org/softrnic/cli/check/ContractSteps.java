package org.softrnic.cli.check;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.SharedReceiveQueue;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/** What the contract's scenarios are written with: QP pairs, requests, bounded waits for completions, checks. */
final class ContractSteps {
    static final Duration WAIT = Duration.ofSeconds(10);

    private ContractSteps() {
    }


    /** Two connected RC QPs, A's on A's CQ and B's on {@code cqB} (B's CQ when null), B's fed by {@code srq}. */
    record Pair(QueuePair qpA, QueuePair qpB) implements AutoCloseable {
        static Pair rc(Endpoint a, Endpoint b, int rnrRetry) {
            return rc(a, b, rnrRetry, null, null);
        }

        static Pair rc(Endpoint a, Endpoint b, int rnrRetry, SharedReceiveQueue srq) {
            return rc(a, b, rnrRetry, srq, null);
        }

        static Pair rc(Endpoint a, Endpoint b, int rnrRetry, SharedReceiveQueue srq, CompletionQueue cqB) {
            QueuePair qa = a.qp(QpType.RC, a.cq, null);
            QueuePair qb = b.qp(QpType.RC, cqB != null ? cqB : b.cq, srq);
            a.connect(qa, b, qb.qpn(), rnrRetry);
            b.connect(qb, a, qa.qpn(), 7);
            return new Pair(qa, qb);
        }

        @Override
        public void close() {
            qpA.close();
            qpB.close();
        }
    }

    static String refused(Errno errno, Runnable r, String what) {
        try {
            r.run();
        } catch (VerbsException e) {
            check(e.errno() == errno, what + " gave " + e.getMessage() + ", expected " + errno);
            return what + ": " + errno;
        }
        throw new AssertionError(what + " was not refused");
    }

    static SendWr send(SendOpcode op, long wrId, Endpoint from, long offset, int length) {
        SendWr w = new SendWr(1).sge(from.mr.addr() + offset, length, from.mr.lkey());
        w.opcode = op;
        w.wrId = wrId;
        w.sendFlags = SendFlags.SIGNALED;
        return w;
    }

    static SendWr remote(SendOpcode op, long wrId, Endpoint from, long offset, int length, Endpoint to, long remoteOffset) {
        SendWr w = send(op, wrId, from, offset, length);
        w.remoteAddr = to.mr.addr() + remoteOffset;
        w.rkey = to.mr.rkey();
        return w;
    }

    static RecvWr recvWr(long wrId, Endpoint on, long offset, int length) {
        RecvWr r = new RecvWr(1);
        r.wrId = wrId;
        r.sgList[0].set(on.mr.addr() + offset, length, on.mr.lkey());
        r.numSge = 1;
        return r;
    }

    static void recv(QueuePair qp, long wrId, Endpoint on, long offset, int length) {
        qp.postRecv(recvWr(wrId, on, offset, length));
    }

    static WorkCompletion one(CompletionQueue cq) {
        return await(cq, 1).getFirst();
    }

    static List<WorkCompletion> await(CompletionQueue cq, int n) {
        List<WorkCompletion> got = new ArrayList<>();
        WorkCompletion[] batch = new WorkCompletion[8];
        for (int i = 0; i < batch.length; i++) batch[i] = new WorkCompletion();
        long end = System.nanoTime() + WAIT.toNanos();
        while (got.size() < n) {
            int k = cq.poll(batch, Math.min(batch.length, n - got.size()));
            for (int i = 0; i < k; i++) got.add(new WorkCompletion().copyFrom(batch[i]));
            if (k == 0) {
                if (System.nanoTime() > end) throw new AssertionError("only " + got.size() + " of " + n + " completions in " + WAIT.toSeconds() + " s");
                Thread.onSpinWait();
            }
        }
        return got;
    }

    static WorkCompletion expect(WorkCompletion wc, WcStatus status, WcOpcode opcode, String what) {
        check(wc.status == status, what + ": " + wc.status.ibvName() + ", expected " + status.ibvName() + " (" + wc + ")");
        check(opcode == null || wc.opcode == opcode, what + ": opcode " + wc.opcode + ", expected " + opcode);
        return wc;
    }

    /**
     * The IBTA's status (the soft RNIC's), or the one rxe in Linux 6.1 gives in its place: measured in the
     * guest (6.1.0-57), rxe reports a bad lkey and a receive too short as local QP operation errors, and the
     * sender of the latter sees a remote operation error.
     */
    static String either(WorkCompletion wc, String what, WcStatus ibta, WcStatus rxe61) {
        if (wc.status == ibta) return ibta.ibvName();
        check(wc.status == rxe61, what + ": " + wc.status.ibvName() + ", expected " + ibta.ibvName() + " (or rxe 6.1's "
                + rxe61.ibvName() + ") (" + wc + ")");
        return rxe61.ibvName() + " (rxe 6.1's for the IBTA's " + ibta.ibvName() + ")";
    }

    /** Takes what earlier scenarios left on {@code cq}: completions still arriving until 100 ms pass without one. */
    static void drain(CompletionQueue cq) throws InterruptedException {
        WorkCompletion[] batch = {new WorkCompletion()};
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < 100_000_000L) {
            if (cq.poll(batch, 1) > 0) quietSince = System.nanoTime();
            else Thread.sleep(1);
        }
    }

    static void fill(MemorySegment m, long at, int n, int seed) {
        for (int i = 0; i < n; i++) m.set(ValueLayout.JAVA_BYTE, at + i, (byte) (i * 31 + seed * 17 + (i >>> 8)));
    }

    static void same(MemorySegment from, long fromAt, MemorySegment to, long toAt, int n) {
        long diff = MemorySegment.mismatch(from, fromAt, fromAt + n, to, toAt, toAt + n);
        check(diff < 0, "data differs at byte " + diff + " of " + n);
    }

    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }
}
