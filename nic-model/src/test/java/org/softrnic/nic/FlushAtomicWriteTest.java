package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.Opcode;

/** The IBTA 1.5 operations rxe supports: ATOMIC_WRITE and FLUSH, each answered by a zero-length READ response. */
class FlushAtomicWriteTest {
    static SendWr atomicWrite(Pair p, long remote, long value) {
        p.a.mem.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, value);
        SendWr w = p.a.wr(1, SendOpcode.ATOMIC_WRITE, 0, 8);
        w.remoteAddr = remote;
        w.rkey = p.b.mr.rkey();
        return w;
    }

    static List<Opcode> wire(Pair p) {
        return p.fabric.trace().stream().map(RcErrorPathsTest::opcodeOf).toList();
    }

    @Test
    void atomicWriteLandsEightBytesAndIsAnsweredByAZeroLengthReadResponse() {
        Pair p = Pair.rc();
        p.a.post(atomicWrite(p, p.b.va(4096), 0x1122334455667788L));
        p.run();
        var wc = p.a.sendCompletions().getFirst();
        assertEquals(WcStatus.SUCCESS, wc.status);
        assertEquals(WcOpcode.ATOMIC_WRITE, wc.opcode);
        assertEquals(0x1122334455667788L, p.b.mem.get(ValueLayout.JAVA_LONG_UNALIGNED, 4096));
        assertEquals(List.of(Opcode.RC_ATOMIC_WRITE, Opcode.RC_RDMA_READ_RESPONSE_ONLY), wire(p));
        // a replayed request is answered again, not executed again
        p.b.mem.set(ValueLayout.JAVA_LONG_UNALIGNED, 4096, 7);
        p.fabric.inject(p.b.nic, p.fabric.trace().getFirst().bytes());
        p.run();
        assertEquals(7, p.b.mem.get(ValueLayout.JAVA_LONG_UNALIGNED, 4096));
        assertEquals(1, p.b.nic.counters().get(Counter.DUPLICATE_REQUEST));
    }

    @Test
    void misalignedAtomicWriteIsAnInvalidRequest() {
        Pair p = Pair.rc();
        p.a.post(atomicWrite(p, p.b.va(4100), 1));
        p.run();
        assertEquals(WcStatus.REM_INV_REQ_ERR, p.a.sendCompletions().getFirst().status);
    }

    static SendWr flush(Pair p, MemoryRegion target, int type) {
        SendWr f = new SendWr(1);
        f.wrId = 5;
        f.opcode = SendOpcode.FLUSH;
        f.sendFlags = org.softrnic.verbs.SendFlags.SIGNALED;
        f.remoteAddr = target.iova();
        f.rkey = target.rkey();
        f.flushLength = 4096;
        f.flushType = type;
        f.flushLevel = 0;
        return f;
    }

    static void allowFlush(Pair.Side s, int extra) {
        QpAttr a = new QpAttr();
        a.qpState = QpState.RTS;
        a.qpAccessFlags = Access.LOCAL_WRITE | Access.REMOTE_ANY | extra;
        s.nic.modifyQp(s.qp, a, QpAttrMask.STATE | QpAttrMask.ACCESS_FLAGS);
    }

    @Test
    void flushNeedsTheFlushAccessOnBothQpAndRegion() {
        Pair p = Pair.rc();
        allowFlush(p.b, Access.FLUSH_GLOBAL);
        MemoryRegion flushable = p.b.nic.regMr(p.b.pd, Arena.ofAuto().allocate(8192),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.FLUSH_GLOBAL);
        p.a.post(flush(p, flushable, 1));
        p.run();
        var wc = p.a.sendCompletions().getFirst();
        assertEquals(WcStatus.SUCCESS, wc.status);
        assertEquals(WcOpcode.FLUSH, wc.opcode);
        assertEquals(List.of(Opcode.RC_FLUSH, Opcode.RC_RDMA_READ_RESPONSE_ONLY),
                wire(p).stream().filter(o -> o != Opcode.RC_ACKNOWLEDGE).toList());

        Pair q = Pair.rc();
        allowFlush(q.b, Access.FLUSH_GLOBAL);
        q.a.post(flush(q, q.b.mr, 1)); // the region has no FLUSH_GLOBAL
        q.run();
        assertEquals(WcStatus.REM_ACCESS_ERR, q.a.sendCompletions().getFirst().status);

        Pair r = Pair.rc(); // the QP was not given FLUSH_PERSISTENT
        MemoryRegion persistent = r.b.nic.regMr(r.b.pd, Arena.ofAuto().allocate(8192),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.FLUSH_PERSISTENT);
        r.a.post(flush(r, persistent, 2));
        r.run();
        assertEquals(WcStatus.REM_INV_REQ_ERR, r.a.sendCompletions().getFirst().status);
    }

}
