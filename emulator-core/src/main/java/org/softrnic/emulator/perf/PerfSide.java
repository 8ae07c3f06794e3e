package org.softrnic.emulator.perf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Gids;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RecvWr;

/**
 * One side of a perf run on a verbs context: a PD, a CQ, per QP an RC QP, and one region with a buffer for each
 * QP. The pattern a buffer starts with (and the target must end with) depends on the seed and the QP's index
 * only, so either side can check it.
 */
final class PerfSide implements AutoCloseable {
    final PerfOptions o;
    final RdmaContext ctx;
    /** The source GID: the device's address (on rxe the IPv4-mapped one, not the link-local at 0). */
    private final int gidIndex;
    final ProtectionDomain pd;
    CompletionQueue cq;
    /**
     * One region holds every QP's buffer, each a slice {@link #stride} bytes after the last, as perftest registers
     * its buffers unless told {@code --mr_per_qp}.
     */
    MemoryRegion mr;
    /** From one QP's buffer to the next: the buffer, at least a page (perftest's cycle buffer), in whole cache lines. */
    private final long stride;
    final List<QueuePair> qps = new ArrayList<>();
    private final Arena arena = Arena.ofShared();
    private final int bufBytes;
    /** SEND: receives posted and completed per QP. */
    private final long[] receivesPosted;
    private final long[] receivesDone;
    private final RecvWr recv = new RecvWr(1);
    private final org.softrnic.verbs.WorkCompletion[] wcs = PerfClient.completions(64);

    PerfSide(RdmaContext ctx, PerfOptions o, boolean sourceOfData) {
        this.o = o;
        this.ctx = ctx;
        this.gidIndex = Gids.ipv4OrFirst(ctx);
        this.bufBytes = Math.max(8, o.size());
        this.stride = (Math.max(bufBytes, 4096L) + 63) & ~63L;
        int depth = o.txDepth();
        int rxDepth = o.op() == PerfOp.SEND ? o.rxDepth() : depth;
        pd = ctx.allocPd();
        CompletionQueue made = null;
        try {
            // room for every completion the QPs can leave unpolled
            made = ctx.createCq(Math.max(16, Math.max(depth, rxDepth) * o.qps()));
            mr = pd.regMr(arena.allocate(stride * o.qps(), 4096), Access.LOCAL_WRITE | Access.REMOTE_ANY);
            for (int i = 0; i < o.qps(); i++) {
                if (sourceOfData) fillPattern(buffer(i), o.seed() + i);
                qps.add(pd.createQp(QpInitAttr.rc(made, new QpCaps(depth, rxDepth, 1, 1, 0))));
            }
        } catch (RuntimeException e) {
            cq = made;
            closeAll(e);
            throw e;
        }
        cq = made;
        receivesPosted = new long[o.qps()];
        receivesDone = new long[o.qps()];
    }

    PerfEndpoint endpoint() {
        int port = ctx.device() instanceof org.softrnic.emulator.soft.SoftRnic soft ? soft.rocePort() : 0;
        return new PerfEndpoint(ctx.queryGid(1, gidIndex).toInetAddress().getHostAddress(), port,
                qps.stream().map(QueuePair::qpn).toList(),
                java.util.stream.IntStream.range(0, qps.size()).mapToObj(this::addr).toList(),
                java.util.Collections.nCopies(qps.size(), mr.rkey()));
    }

    /** Where QP {@code q}'s buffer starts. */
    long addr(int q) {
        return mr.addr() + q * stride;
    }

    /** QP {@code q}'s buffer. */
    private MemorySegment buffer(int q) {
        return mr.segment().asSlice(q * stride, bufBytes);
    }

    /** RESET to RTS towards the peer's QPs, with perftest's attributes (timeout 14, 67 ms: a cold JIT needs it). */
    void connect(PerfEndpoint peer) {
        if (peer.qpns().size() != qps.size()) throw new IllegalStateException("the peer has " + peer.qpns().size() + " QPs, not " + qps.size());
        for (int i = 0; i < qps.size(); i++) {
            QpAttr attr = QpAttr.rcConnect(Gid.parse(peer.gid()), peer.qpns().get(i), o.mtu());
            attr.ahAttr = new AddressVector(attr.ahAttr.dgid(), gidIndex, 0, 64, 0, peer.port());
            qps.get(i).modifyToRts(attr);
        }
    }

    /** SEND: keeps {@code rxDepth} receives posted on every QP (never more than the run needs); polls receives. */
    void pumpReceives() {
        if (o.op() != PerfOp.SEND) return;
        int n;
        while ((n = cq.poll(wcs)) > 0) {
            for (int k = 0; k < n; k++) {
                for (int i = 0; i < qps.size(); i++) if (qps.get(i).qpn() == wcs[k].qpNum) receivesDone[i]++;
            }
        }
        for (int i = 0; i < qps.size(); i++) {
            while (receivesPosted[i] < Math.min(receivesDone[i] + o.rxDepth(), o.iters())) {
                recv.wrId = receivesPosted[i]++;
                recv.numSge = 1;
                recv.sgList[0].set(addr(i), bufBytes, mr.lkey());
                qps.get(i).postRecv(recv);
            }
        }
    }

    /** Every target buffer holds the pattern (atomics: the counter equals the number of adds). */
    boolean verifyTargets() {
        for (int i = 0; i < qps.size(); i++) {
            MemorySegment s = buffer(i);
            if (o.op() == PerfOp.ATOMIC) {
                if (s.get(PerfClient.HOST, 0) != o.iters()) return false;
                continue;
            }
            MemorySegment expected = arena.allocate(Math.max(1, o.size()));
            fillPattern(expected, o.seed() + i);
            if (MemorySegment.mismatch(expected, 0, o.size(), s, 0, o.size()) != -1) return false;
        }
        return true;
    }

    static void fillPattern(MemorySegment seg, long seed) {
        for (long i = 0; i < seg.byteSize(); i++) seg.set(ValueLayout.JAVA_BYTE, i, (byte) (seed * 31 + i * 7));
    }

    @Override
    public void close() {
        RuntimeException first = closeAll(null);
        if (first != null) throw first;
    }

    /** Closes everything made so far, in order, going on past failures; returns the first. */
    private RuntimeException closeAll(RuntimeException first) {
        List<AutoCloseable> all = new ArrayList<>(qps);
        if (mr != null) all.add(mr);
        if (cq != null) all.add(cq);
        all.add(pd);
        all.add(arena);
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) first = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                else if (first != e) first.addSuppressed(e);
            }
        }
        return first;
    }
}
