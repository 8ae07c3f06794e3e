package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;

/**
 * The responder says why it refused a request, with the numbers: the words a test gets beside the
 * requester's bare IBV_WC_* status. Each case is one refused request and the one reason it leaves.
 */
class RefusalsTest {
    static String onlyRefusal(Pair p) {
        List<Diagnostics.Refusal> r = p.b.nic.diagnostics().recent();
        assertEquals(1, r.size(), r.toString());
        return r.getFirst().toString();
    }

    /** A's signalled WRITE of {@code length} bytes to {@code va} with {@code rkey}, run until the fabric is idle. */
    static SendWr write(Pair p, long va, int rkey, int length) {
        SendWr wr = p.a.wr(1, SendOpcode.RDMA_WRITE, 0, length);
        wr.remoteAddr = va;
        wr.rkey = rkey;
        p.a.post(wr);
        p.run();
        return wr;
    }

    @Test
    void aWritePastTheRegionSaysByHowMuch() {
        Pair p = Pair.rc();
        SendWr wr = write(p, p.b.va(p.b.mr.length() - 4093), p.b.mr.rkey(), 4096);
        assertEquals(WcStatus.REM_ACCESS_ERR, p.a.sendCompletions().getFirst().status);
        String why = onlyRefusal(p);
        assertTrue(why.startsWith(String.format("QP 0x%x refused PSN %d: an RDMA WRITE of 4096 bytes at 0x%x with rkey 0x%x: it ends 3 bytes"
                + " past the region's end; the region is [0x%x, 0x%x)", p.b.qp.qpn(), 0x100, wr.remoteAddr, wr.rkey, p.b.va(0),
                p.b.va(p.b.mr.length()))), why);
    }

    @Test
    void anLkeyWhereAnRkeyBelongsIsNamed() {
        Pair p = Pair.rc();
        MemoryRegion local = p.b.nic.regMr(p.b.pd, Arena.ofAuto().allocate(4096), Access.LOCAL_WRITE);
        SendWr wr = write(p, local.iova(), local.lkey(), 64);
        assertTrue(onlyRefusal(p).endsWith("no region or window has that rkey; it is the lkey of a region registered without remote"
                + " access (an lkey was passed where an rkey belongs)"), onlyRefusal(p));
    }

    @Test
    void aMissingAccessFlagIsNamed() {
        Pair p = Pair.rc();
        MemoryRegion readOnly = p.b.nic.regMr(p.b.pd, Arena.ofAuto().allocate(4096), Access.REMOTE_READ);
        SendWr wr = write(p, readOnly.iova(), readOnly.rkey(), 64);
        assertTrue(onlyRefusal(p).endsWith("the region lacks IBV_ACCESS_REMOTE_WRITE (it was registered with IBV_ACCESS_REMOTE_READ)"),
                onlyRefusal(p));
    }

    @Test
    void anRkeyOfAnotherPdIsNamed() {
        Pair p = Pair.rc();
        ProtectionDomain other = p.b.nic.allocPd();
        MemoryRegion elsewhere = p.b.nic.regMr(other, Arena.ofAuto().allocate(4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        SendWr wr = write(p, elsewhere.iova(), elsewhere.rkey(), 64);
        assertTrue(onlyRefusal(p).endsWith(String.format("the region is in PD %d, QP 0x%x in PD %d (an rkey of another PD)",
                other.handle(), p.b.qp.qpn(), p.b.pd.handle())), onlyRefusal(p));
    }

    @Test
    void aSendWithoutAReceiveIsAnRnr() {
        Pair p = Pair.rc();
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.fabric.run(p.fabric.clock().nanoTime() + 100_000);
        assertTrue(p.b.nic.diagnostics().recent().getFirst().why()
                .equals("a SEND needs a receive, and none is posted (the receive queue is empty): RNR NAK, the sender waits and tries again"),
                p.b.nic.diagnostics().recent().toString());
    }

    @Test
    void aQpWithoutRemoteWriteAccessSaysWhichFlagItLacks() {
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 1, attr -> attr.qpAccessFlags = Access.LOCAL_WRITE | Access.REMOTE_READ);
        SendWr wr = write(p, p.b.va(0), p.b.mr.rkey(), 64);
        assertTrue(onlyRefusal(p).endsWith("an RDMA WRITE, but the QP's qp_access_flags lack IBV_ACCESS_REMOTE_WRITE (ibv_modify_qp with"
                + " IBV_QP_ACCESS_FLAGS grants them)"), onlyRefusal(p));
    }

    @Test
    void aMisalignedAtomicIsNamed() {
        Pair p = Pair.rc();
        SendWr wr = p.a.wr(1, SendOpcode.ATOMIC_FETCH_AND_ADD, 0, 8);
        wr.remoteAddr = p.b.va(4);
        wr.rkey = p.b.mr.rkey();
        p.a.post(wr);
        p.run();
        assertTrue(onlyRefusal(p).endsWith(String.format("an atomic at 0x%x: the address is not 8-byte aligned", wr.remoteAddr)),
                onlyRefusal(p));
    }

    @Test
    void aGoodRunRefusesNothing() {
        Pair p = Pair.rc();
        SendWr wr = write(p, p.b.va(0), p.b.mr.rkey(), 4096);
        assertEquals(WcStatus.SUCCESS, p.a.sendCompletions().getFirst().status);
        assertEquals(List.of(), p.b.nic.diagnostics().recent());
    }

    @Test
    void aRequestToAQpNotYetInRtrIsNamed() {
        Pair p = Pair.rc();
        p.b.nic.modifyQp(p.b.qp, new org.softrnic.verbs.QpAttr().state(org.softrnic.verbs.QpState.RESET), org.softrnic.verbs.QpAttrMask.STATE);
        p.b.nic.modifyQp(p.b.qp, initAttr(), org.softrnic.verbs.QpAttrMask.STATE | org.softrnic.verbs.QpAttrMask.PKEY_INDEX
                | org.softrnic.verbs.QpAttrMask.PORT | org.softrnic.verbs.QpAttrMask.ACCESS_FLAGS);
        SendWr wr = p.a.wr(1, SendOpcode.RDMA_WRITE, 0, 64);
        wr.remoteAddr = p.b.va(0);
        wr.rkey = p.b.mr.rkey();
        p.a.post(wr);
        p.fabric.run(p.fabric.clock().nanoTime() + 100_000);
        assertTrue(p.b.nic.diagnostics().recent().getFirst().why().equals("the QP is in IBV_QPS_INIT; it takes requests in RTR, RTS, SQD and SQE"
                        + " (dropped): it was never moved to RTR (qp.connect does it, or ibv_modify_qp with the peer's QPN, PSN and path)"),
                p.b.nic.diagnostics().recent().toString());
    }

    /** A responder never connected refuses every try; the refusal is said once, with its count and spacing. */
    @Test
    void aRequestRefusedOnEveryRetryIsSaidOnceWithItsCount() {
        Pair p = Pair.rc();
        p.b.nic.modifyQp(p.b.qp, new org.softrnic.verbs.QpAttr().state(org.softrnic.verbs.QpState.RESET), org.softrnic.verbs.QpAttrMask.STATE);
        SendWr wr = p.a.wr(1, SendOpcode.RDMA_WRITE, 0, 64);
        wr.remoteAddr = p.b.va(0);
        wr.rkey = p.b.mr.rkey();
        p.a.post(wr);
        p.run();
        assertEquals(List.of(WcStatus.RETRY_EXC_ERR), p.a.sendCompletions().stream().map(w -> w.status).toList());
        List<String> said = p.b.nic.diagnostics().summary();
        assertEquals(1, said.size(), said.toString());
        // retry_cnt 7: the first try and 7 retries, a local ACK timeout apart (Pair's QPs: timeout 14, 67.1 ms)
        assertTrue(said.getFirst().matches("QP 0x11 refused PSN 256: the QP is in IBV_QPS_RESET; .* \\(dropped\\): was it ever"
                + " connected\\? .* \\(8 times: the first try and 7 retries, 67 ms apart\\)"), said.getFirst());
        String requester = p.a.nic.diagnostics().summary().getFirst();
        assertTrue(requester.startsWith("QP 0x11: wr_id 1 (RDMA_WRITE) completes with IBV_WC_RETRY_EXC_ERR: the first try and 7"
                + " retries (each after a NAK or a local ACK timeout, timeout 14: 67.1 ms) were not all acknowledged by QP 0x11."
                + " Likely: the peer QP was never connected"), requester);
    }

    /** A SEND that meets RNR NAKs until rnr_retry runs out: the requester's device says the receive was missing. */
    @Test
    void rnrRetriesRunOutWithTheMissingReceiveNamed() {
        Pair p = new Pair(org.softrnic.verbs.QpType.RC, org.softrnic.verbs.Mtu.MTU_1024, 1, a -> a.rnrRetry = 2);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.run();
        assertEquals(List.of(WcStatus.RNR_RETRY_EXC_ERR), p.a.sendCompletions().stream().map(w -> w.status).toList());
        String requester = p.a.nic.diagnostics().summary().getFirst();
        assertTrue(requester.startsWith("QP 0x11: wr_id 1 (SEND) completes with IBV_WC_RNR_RETRY_EXC_ERR: the peer answered RNR NAK"
                + " (receiver not ready) to the first try and 2 retries: it had no receive posted"), requester);
        assertTrue(p.b.nic.diagnostics().summary().getFirst().contains("(3 times: the first try and 2 retries"),
                p.b.nic.diagnostics().summary().toString());
    }

    private static org.softrnic.verbs.QpAttr initAttr() {
        org.softrnic.verbs.QpAttr a = new org.softrnic.verbs.QpAttr().state(org.softrnic.verbs.QpState.INIT);
        a.qpAccessFlags = Access.LOCAL_WRITE | Access.REMOTE_ANY;
        return a;
    }
}
