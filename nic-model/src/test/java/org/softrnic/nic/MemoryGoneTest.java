package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;

/**
 * Memory that a copy cannot reach although its region's check passed, as when another thread closes the arena
 * between the check and the copy: each role turns it into the error its protection check gives, and says why.
 * Made deterministic with a segment confined to another thread, which the model's own regMr does not refuse
 * (the providers do) and whose every access throws.
 */
class MemoryGoneTest {
    static MemorySegment confinedElsewhere(long size) throws InterruptedException {
        AtomicReference<MemorySegment> seg = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> seg.set(Arena.ofConfined().allocate(size, 4096)));
        t.join();
        return seg.get();
    }

    static SendWr wr(long wrId, SendOpcode op, MemoryRegion local, int length) {
        SendWr w = new SendWr(1).sge(local.iova(), length, local.lkey());
        w.wrId = wrId;
        w.opcode = op;
        w.sendFlags = SendFlags.SIGNALED;
        return w;
    }

    static String refusals(Nic nic) {
        return String.join("\n", nic.diagnostics().summary());
    }

    /** A WRITE after a good one, from a region the copy cannot read: no packet of it, LOC_PROT_ERR in order. */
    @Test
    void theRequestersGatherFailsTheWorkRequestAndSendsNothingOfIt() throws Exception {
        Pair p = Pair.rc();
        MemoryRegion gone = p.a.nic.regMr(p.a.pd, confinedElsewhere(4096), Access.LOCAL_WRITE);
        p.a.post(p.write(1, 0, 0, 4096));
        SendWr bad = wr(2, SendOpcode.RDMA_WRITE, gone, 4096);
        bad.remoteAddr = p.b.va(8192);
        bad.rkey = p.b.mr.rkey();
        p.a.post(bad);
        p.run();
        ProtocolReviewTest.assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS, WcStatus.LOC_PROT_ERR);
        assertEquals(QpState.ERR, p.a.qp.state());
        assertEquals(4, ProtocolReviewTest.sentBy(p, 0).size(), "the good WRITE's four packets, none of the bad one's");
        assertTrue(refusals(p.a.nic).contains("wr_id 2 (RDMA_WRITE) completes with IBV_WC_LOC_PROT_ERR: SGE 0 with lkey 0x"
                + Integer.toHexString(gone.lkey()) + ": the memory under its region is confined to another thread"), refusals(p.a.nic));
    }

    /** A WRITE into a region of B's the copy cannot write: NAK Remote Access Error, as for a key that fails. */
    @Test
    void theRespondersWriteNaksRemoteAccessError() throws Exception {
        Pair p = Pair.rc();
        MemoryRegion gone = p.b.nic.regMr(p.b.pd, confinedElsewhere(4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        SendWr w = p.a.wr(1, SendOpcode.RDMA_WRITE, 0, 64);
        w.remoteAddr = gone.iova();
        w.rkey = gone.rkey();
        p.a.post(w);
        p.run();
        ProtocolReviewTest.assertStatuses(p.a.sendCompletions(), WcStatus.REM_ACCESS_ERR);
        assertEquals(QpState.ERR, p.b.qp.state());
        assertTrue(refusals(p.b.nic).contains("confined to another thread"), refusals(p.b.nic));
    }

    /** A READ whose response cannot be placed in A's region: LOC_PROT_ERR. */
    @Test
    void theCompletersReadPlacementFailsWithALocalProtectionError() throws Exception {
        Pair p = Pair.rc();
        MemoryRegion gone = p.a.nic.regMr(p.a.pd, confinedElsewhere(4096), Access.LOCAL_WRITE);
        SendWr r = wr(1, SendOpcode.RDMA_READ, gone, 2048);
        r.remoteAddr = p.b.va(0);
        r.rkey = p.b.mr.rkey();
        p.a.post(r);
        p.run();
        ProtocolReviewTest.assertStatuses(p.a.sendCompletions(), WcStatus.LOC_PROT_ERR);
        assertTrue(refusals(p.a.nic).contains("wr_id 1 (RDMA_READ) completes with IBV_WC_LOC_PROT_ERR"), refusals(p.a.nic));
    }

    /** A SEND into a receive the copy cannot write: the receive completes LOC_PROT_ERR, A hears Remote Operational Error. */
    @Test
    void theRespondersReceiveScatterCompletesTheReceiveInError() throws Exception {
        Pair p = Pair.rc();
        MemoryRegion gone = p.b.nic.regMr(p.b.pd, confinedElsewhere(4096), Access.LOCAL_WRITE);
        RecvWr rwr = new RecvWr();
        rwr.wrId = 100;
        rwr.numSge = 1;
        rwr.sgList[0].set(gone.iova(), 4096, gone.lkey());
        p.b.nic.postRecv(p.b.qp, rwr);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.run();
        ProtocolReviewTest.assertStatuses(p.b.recvCompletions(), WcStatus.LOC_PROT_ERR);
        ProtocolReviewTest.assertStatuses(p.a.sendCompletions(), WcStatus.REM_OP_ERR);
        assertTrue(refusals(p.b.nic).contains("confined to another thread"), refusals(p.b.nic));
    }
}
