package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/** RC operations on a clean link: what arrives, what completes, and what went on the wire. */
class RcBasicsTest {
    static void assertSameBytes(MemorySegment x, long xo, MemorySegment y, long yo, long n) {
        assertEquals(-1, MemorySegment.mismatch(x, xo, xo + n, y, yo, yo + n), "memory differs");
    }

    @Test
    void sendOnlyAndMultiPacketSendDeliverAndComplete() {
        Pair p = Pair.rc();
        p.a.fill(0, 5000, 3);
        p.b.postRecv(71, 0, 8192);
        p.b.postRecv(72, 8192, 8192);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.a.post(p.a.wr(2, SendOpcode.SEND, 0, 5000));
        p.run();
        List<WorkCompletion> s = p.a.sendCompletions();
        assertEquals(2, s.size());
        assertEquals(WcStatus.SUCCESS, s.get(0).status);
        assertEquals(1, s.get(0).wrId);
        assertEquals(WcOpcode.SEND, s.get(1).opcode);
        List<WorkCompletion> r = p.b.recvCompletions();
        assertEquals(2, r.size());
        assertEquals(71, r.get(0).wrId);
        assertEquals(64, r.get(0).byteLen);
        assertEquals(5000, r.get(1).byteLen);
        assertEquals(WcOpcode.RECV, r.get(1).opcode);
        assertSameBytes(p.a.mem, 0, p.b.mem, 8192, 5000);
        // 1 + 5 request packets (MTU 1024), and one ACK per message
        assertEquals(6, p.a.nic.counters().get(Counter.SENT_PKTS));
        assertEquals(2, p.b.nic.counters().get(Counter.SENT_PKTS));
        assertEquals(2, p.a.nic.counters().get(Counter.RDMA_SENDS));
        assertEquals(2, p.b.nic.counters().get(Counter.RDMA_RECVS));
    }

    @Test
    void writeAndWriteWithImmediate() {
        Pair p = Pair.rc();
        p.a.fill(0, 3000, 9);
        SendWr w = p.a.wr(5, SendOpcode.RDMA_WRITE, 0, 3000);
        w.remoteAddr = p.b.va(10_000);
        w.rkey = p.b.mr.rkey();
        p.a.post(w);
        p.b.postRecv(9, 0, 16);
        SendWr wi = p.a.wr(6, SendOpcode.RDMA_WRITE_WITH_IMM, 0, 100);
        wi.remoteAddr = p.b.va(20_000);
        wi.rkey = p.b.mr.rkey();
        wi.immData = 0xcafe;
        p.a.post(wi);
        p.run();
        assertSameBytes(p.a.mem, 0, p.b.mem, 10_000, 3000);
        assertSameBytes(p.a.mem, 0, p.b.mem, 20_000, 100);
        assertEquals(List.of(5L, 6L), p.a.sendCompletions().stream().map(c -> c.wrId).toList());
        List<WorkCompletion> r = p.b.recvCompletions();
        assertEquals(1, r.size());
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, r.getFirst().opcode);
        assertEquals(0xcafe, r.getFirst().immData);
        assertEquals(100, r.getFirst().byteLen);
        assertTrue((r.getFirst().wcFlags & WorkCompletion.WC_WITH_IMM) != 0);
    }

    @Test
    void readBringsRemoteMemoryBack() {
        Pair p = Pair.rc();
        p.b.fill(50_000, 4500, 77);
        SendWr r = p.a.wr(8, SendOpcode.RDMA_READ, 100, 4500);
        r.remoteAddr = p.b.va(50_000);
        r.rkey = p.b.mr.rkey();
        p.a.post(r);
        p.run();
        List<WorkCompletion> s = p.a.sendCompletions();
        assertEquals(1, s.size());
        assertEquals(WcOpcode.RDMA_READ, s.getFirst().opcode);
        assertEquals(WcStatus.SUCCESS, s.getFirst().status);
        assertEquals(4500, s.getFirst().byteLen);
        assertSameBytes(p.b.mem, 50_000, p.a.mem, 100, 4500);
        // one request, five response packets, no ACK
        assertEquals(1, p.a.nic.counters().get(Counter.SENT_PKTS));
        assertEquals(5, p.b.nic.counters().get(Counter.SENT_PKTS));
    }

    @Test
    void atomicsActOnRemoteMemoryAndReturnTheOriginal() {
        Pair p = Pair.rc();
        ValueLayout.OfLong host = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        p.b.mem.set(host, 4096, 40);
        p.a.post(p.a.atomic(1, SendOpcode.ATOMIC_FETCH_AND_ADD, 0, p.b, 4096, 2, 0));
        p.a.post(p.a.atomic(2, SendOpcode.ATOMIC_CMP_AND_SWP, 8, p.b, 4096, 42, 1000));
        p.run();
        assertEquals(1000, p.b.mem.get(host, 4096));
        assertEquals(40, p.a.mem.get(host, 0));
        assertEquals(42, p.a.mem.get(host, 8));
        List<WorkCompletion> s = p.a.sendCompletions();
        assertEquals(WcOpcode.FETCH_ADD, s.get(0).opcode);
        assertEquals(WcOpcode.COMP_SWAP, s.get(1).opcode);
        assertTrue(s.stream().allMatch(c -> c.status == WcStatus.SUCCESS));
    }

    @Test
    void sendWithImmediateAndWithInvalidate() {
        Pair p = Pair.rc();
        p.b.postRecv(1, 0, 64);
        p.b.postRecv(2, 64, 64);
        SendWr si = p.a.wr(1, SendOpcode.SEND_WITH_IMM, 0, 10);
        si.immData = 0x12345678;
        p.a.post(si);
        var victim = p.b.nic.allocMr(p.b.pd, 4096);
        var reg = new SendWr(1);
        reg.opcode = SendOpcode.REG_MR;
        reg.regMr = Handles.mr(victim);
        reg.regSegment = java.lang.foreign.Arena.ofAuto().allocate(64);
        reg.regIova = 0x7000;
        reg.regAccess = org.softrnic.verbs.Access.LOCAL_WRITE | org.softrnic.verbs.Access.REMOTE_READ;
        reg.regKey = victim.lkey() ^ 0x01;
        p.b.nic.postSend(p.b.qp, reg);
        assertTrue(victim.valid(), "REG_MR mapped the fast-register region");
        assertEquals(0x7000, victim.iova());
        SendWr inv = p.a.wr(2, SendOpcode.SEND_WITH_INV, 0, 10);
        inv.invalidateRkey = victim.rkey();
        p.a.post(inv);
        p.run();
        List<WorkCompletion> r = p.b.recvCompletions();
        assertEquals(0x12345678, r.get(0).immData);
        assertTrue((r.get(1).wcFlags & WorkCompletion.WC_WITH_INV) != 0);
        assertEquals(victim.rkey(), r.get(1).immData);
        assertTrue(!victim.valid(), "SEND_WITH_INV invalidated the region");
    }

    @Test
    void sendWithInvalidateOfAnOrdinaryRegionIsAnInvalidRequest() {
        Pair p = Pair.rc();
        p.b.postRecv(1, 0, 64);
        SendWr inv = p.a.wr(2, SendOpcode.SEND_WITH_INV, 0, 10);
        inv.invalidateRkey = p.b.mr.rkey();
        p.a.post(inv);
        p.run();
        assertEquals(WcStatus.REM_INV_REQ_ERR, p.a.sendCompletions().getFirst().status);
        assertTrue(p.b.mr.valid());
    }

    @Test
    void fastRegisterThenLocalInvalidate() {
        Pair p = Pair.rc();
        var fr = p.b.nic.allocMr(p.b.pd, 1 << 16);
        var mem = java.lang.foreign.Arena.ofAuto().allocate(8192, 8);
        var reg = new SendWr(1);
        reg.wrId = 1;
        reg.opcode = SendOpcode.REG_MR;
        reg.sendFlags = org.softrnic.verbs.SendFlags.SIGNALED;
        reg.regMr = Handles.mr(fr);
        reg.regSegment = mem;
        reg.regIova = 0x10_0000;
        reg.regAccess = org.softrnic.verbs.Access.LOCAL_WRITE | org.softrnic.verbs.Access.REMOTE_WRITE;
        reg.regKey = (fr.lkey() & ~0xff) | ((fr.lkey() + 1) & 0xff);
        p.b.nic.postSend(p.b.qp, reg);
        assertEquals(WcOpcode.REG_MR, p.b.sendCompletions().getFirst().opcode);
        p.a.fill(0, 100, 1);
        SendWr w = p.a.wr(2, SendOpcode.RDMA_WRITE, 0, 100);
        w.remoteAddr = 0x10_0000 + 64;
        w.rkey = fr.rkey();
        p.a.post(w);
        p.run();
        assertEquals(WcStatus.SUCCESS, p.a.sendCompletions().getFirst().status);
        assertSameBytes(p.a.mem, 0, mem, 64, 100);
        var inv = new SendWr(1);
        inv.opcode = SendOpcode.LOCAL_INV;
        inv.invalidateRkey = fr.lkey();
        p.b.nic.postSend(p.b.qp, inv);
        assertTrue(!fr.valid());
        p.a.post(w);
        p.run();
        assertEquals(WcStatus.REM_ACCESS_ERR, p.a.sendCompletions().getFirst().status);
    }
}
