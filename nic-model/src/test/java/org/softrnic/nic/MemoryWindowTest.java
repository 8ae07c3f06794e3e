package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/** Memory windows: type 1 through ibv_bind_mw, type 2 through BIND_MW, LOCAL_INV and remote invalidate. */
class MemoryWindowTest {
    /** B's region that windows bind over, with MW_BIND. */
    static MemoryRegion bindable(Pair p) {
        MemorySegment seg = Arena.ofAuto().allocate(64 * 1024, 8);
        return p.b.nic.regMr(p.b.pd, seg, Access.LOCAL_WRITE | Access.MW_BIND);
    }

    static SendWr bindWr(Pair p, MemoryWindow mw, MemoryRegion mr, long off, long len, int access) {
        SendWr wr = new SendWr(1);
        wr.wrId = 900;
        wr.opcode = SendOpcode.BIND_MW;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.bindMw = Handles.mw(mw);
        wr.bindRkey = (mw.rkey() & ~0xff) | ((mw.rkey() + 1) & 0xff); // ibv_inc_rkey
        wr.bindMr = Handles.mr(mr);
        wr.bindAddr = mr.iova() + off;
        wr.bindLength = len;
        wr.bindAccess = access;
        return wr;
    }

    static SendWr writeTo(Pair p, long addr, int rkey, int len) {
        SendWr w = p.a.wr(1, SendOpcode.RDMA_WRITE, 0, len);
        w.remoteAddr = addr;
        w.rkey = rkey;
        return w;
    }

    @Test
    void type2WindowGrantsAccessUntilLocalInvalidate() {
        Pair p = Pair.rc();
        MemoryRegion mr = bindable(p);
        MemoryWindow mw = p.b.nic.allocMw(p.b.pd, 2);
        int before = mw.rkey();
        p.b.nic.postSend(p.b.qp, bindWr(p, mw, mr, 4096, 1024, Access.REMOTE_WRITE));
        p.run();
        List<WorkCompletion> bind = p.b.sendCompletions();
        assertEquals(WcOpcode.BIND_MW, bind.getFirst().opcode);
        assertEquals(WcStatus.SUCCESS, bind.getFirst().status);
        assertNotEquals(before, mw.rkey(), "a type 2 bind gives the window its new rkey");
        p.a.fill(0, 512, 3);
        p.a.post(writeTo(p, mr.iova() + 4096 + 100, mw.rkey(), 512));
        p.run();
        assertEquals(WcStatus.SUCCESS, p.a.sendCompletions().getFirst().status);
        RcBasicsTest.assertSameBytes(p.a.mem, 0, mr.segment(), 4196, 512);
        assertEquals(Errno.EBUSY, assertThrows(VerbsException.class, () -> p.b.nic.deregMr(mr)).errno(),
                "a region with a bound window cannot be deregistered");
        // LOCAL_INV on B, then the same access is refused
        SendWr inv = new SendWr(1);
        inv.wrId = 901;
        inv.opcode = SendOpcode.LOCAL_INV;
        inv.sendFlags = SendFlags.SIGNALED;
        inv.invalidateRkey = mw.rkey();
        p.b.nic.postSend(p.b.qp, inv);
        p.run();
        assertEquals(WcOpcode.LOCAL_INV, p.b.sendCompletions().getFirst().opcode);
        assertFalse(mw.bound());
        p.a.post(writeTo(p, mr.iova() + 4096, mw.rkey(), 8));
        p.run();
        assertEquals(WcStatus.REM_ACCESS_ERR, p.a.sendCompletions().getFirst().status);
    }

    @Test
    void windowBoundsAndAccessAreEnforced() {
        Pair p = Pair.rc();
        MemoryRegion mr = bindable(p);
        MemoryWindow mw = p.b.nic.allocMw(p.b.pd, 2);
        p.b.nic.postSend(p.b.qp, bindWr(p, mw, mr, 0, 256, Access.REMOTE_READ));
        p.run();
        p.b.sendCompletions();
        p.a.post(writeTo(p, mr.iova(), mw.rkey(), 8)); // the window grants only READ
        p.run();
        assertEquals(WcStatus.REM_ACCESS_ERR, p.a.sendCompletions().getFirst().status);
        Pair q = Pair.rc();
        MemoryRegion mr2 = bindable(q);
        MemoryWindow mw2 = q.b.nic.allocMw(q.b.pd, 2);
        q.b.nic.postSend(q.b.qp, bindWr(q, mw2, mr2, 0, 256, Access.REMOTE_READ));
        q.run();
        SendWr rd = q.a.wr(2, SendOpcode.RDMA_READ, 0, 300); // past the window's 256 bytes
        rd.remoteAddr = mr2.iova();
        rd.rkey = mw2.rkey();
        q.a.post(rd);
        q.run();
        assertEquals(WcStatus.REM_ACCESS_ERR, q.a.sendCompletions().getFirst().status);
    }

    @Test
    void sendWithInvalidateUnbindsARemoteType2Window() {
        Pair p = Pair.rc();
        MemoryRegion mr = bindable(p);
        MemoryWindow mw = p.b.nic.allocMw(p.b.pd, 2);
        p.b.nic.postSend(p.b.qp, bindWr(p, mw, mr, 0, 1024, Access.REMOTE_WRITE));
        p.run();
        assertTrue(mw.bound());
        p.b.postRecv(1, 0, 64);
        SendWr s = p.a.wr(3, SendOpcode.SEND_WITH_INV, 0, 16);
        s.invalidateRkey = mw.rkey();
        p.a.post(s);
        p.run();
        assertFalse(mw.bound(), "the SEND invalidated the window");
        assertEquals(mw.rkey(), p.b.recvCompletions().getFirst().immData);
        p.b.nic.deregMr(mr); // nothing bound any more
    }

    @Test
    void type1WindowBindsThroughBindMwAndBelongsToThePd() {
        Pair p = Pair.rc();
        MemoryRegion mr = bindable(p);
        MemoryWindow mw = p.b.nic.allocMw(p.b.pd, 1);
        mr.segment().fill((byte) 0x5c);
        p.b.nic.bindMw(p.b.qp, mw, 77, mr, mr.iova() + 1000, 2000, Access.REMOTE_READ);
        p.run();
        assertEquals(WcStatus.SUCCESS, p.b.sendCompletions().getFirst().status);
        SendWr rd = p.a.wr(2, SendOpcode.RDMA_READ, 0, 1500);
        rd.remoteAddr = mr.iova() + 1200;
        rd.rkey = mw.rkey();
        p.a.post(rd);
        p.run();
        assertEquals(WcStatus.SUCCESS, p.a.sendCompletions().getFirst().status);
        assertEquals(0x5c, p.a.mem.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 1499));
        assertThrows(VerbsException.class, () -> p.b.nic.postSend(p.b.qp, bindWr(p, mw, mr, 0, 8, Access.REMOTE_READ)),
                "type 1 windows are not bound by work request");
    }

    @Test
    void bindingARegionWithoutMwBindFailsWithMwBindErr() {
        Pair p = Pair.rc();
        MemoryWindow mw = p.b.nic.allocMw(p.b.pd, 2);
        p.b.nic.postSend(p.b.qp, bindWr(p, mw, p.b.mr, 0, 64, Access.REMOTE_READ)); // p.b.mr has no MW_BIND
        p.run();
        assertEquals(WcStatus.MW_BIND_ERR, p.b.sendCompletions().getFirst().status);
        assertEquals(QpState.ERR, p.b.qp.state());
    }
}
