package org.softrnic.emulator.junit;

import java.lang.foreign.Arena;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Endpoint;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WorkCompletion;

/** Two RC QPs connected with Endpoint and connect, a source region on A and a remote-writable one on B. */
final class RcPair implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    /** Where A's source region lies: the pair's own arena, or one the caller may close under it. */
    private final Arena srcArena;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final MemoryRegion src;
    final MemoryRegion dst;
    final QueuePair qpA;
    final QueuePair qpB;
    final Endpoint endB;

    RcPair(RdmaContext a, RdmaContext b, int size) {
        this(a, b, size, null);
    }

    /** A pair whose source region lies in {@code srcArena} (the caller's to close), or in the pair's own when null. */
    RcPair(RdmaContext a, RdmaContext b, int size, Arena srcArena) {
        this.srcArena = srcArena != null ? srcArena : arena;
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(64);
        cqB = b.createCq(64);
        src = pdA.regMr(this.srcArena.allocate(size, 4096), Access.LOCAL_WRITE);
        dst = pdB.regMr(arena.allocate(size, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        qpA = pdA.createQp(QpInitAttr.rc(cqA, QpCaps.of(8, 8)));
        qpB = pdB.createQp(QpInitAttr.rc(cqB, QpCaps.of(8, 8)));
        Endpoint endA = Endpoint.of(a, qpA);
        endB = Endpoint.of(b, qpB).withRegion(dst);
        qpA.connect(endA, endB);
        qpB.connect(endB, endA);
    }

    /** A signalled RDMA WRITE of {@code size} bytes into B's region with {@code rkey}; returns its completion. */
    WorkCompletion write(int size, int rkey) {
        return write(src.addr(), size, rkey);
    }

    /**
     * A signalled RDMA WRITE (wr_id 4) of {@code size} bytes from {@code addr} (with the source region's lkey) into
     * B's region; its completion, or one with a null status after 10 s (a lost packet waits out its retransmission
     * timer on THREADED).
     */
    WorkCompletion write(long addr, int size, int rkey) {
        SendWr wr = new SendWr(1).sge(addr, size, src.lkey());
        wr.wrId = 4;
        wr.opcode = SendOpcode.RDMA_WRITE;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.remoteAddr = endB.addr();
        wr.rkey = rkey;
        qpA.postSend(wr);
        WorkCompletion[] wc = {new WorkCompletion()};
        long end = System.nanoTime() + 10_000_000_000L;
        while (cqA.poll(wc) == 0 && System.nanoTime() < end) Thread.onSpinWait();
        return wc[0];
    }

    @Override
    public void close() {
        qpB.close();
        qpA.close();
        dst.close();
        src.close();
        cqB.close();
        cqA.close();
        pdB.close();
        pdA.close();
        arena.close();
    }
}
