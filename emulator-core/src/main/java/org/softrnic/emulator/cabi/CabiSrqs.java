package org.softrnic.emulator.cabi;

import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SharedReceiveQueue;

/** Shared receive queues: ibv_create_srq, ibv_modify_srq (the limit), ibv_query_srq, ibv_destroy_srq and ibv_post_srq_recv. */
final class CabiSrqs {
    /** An SRQ: the verbs one, its struct, its attributes, and the request a post reads into (one poster at a time). */
    static final class Srq {
        final SharedReceiveQueue srq;
        final MemorySegment struct;
        final Arena arena;
        final int maxWr;
        final int maxSge;
        int limit;
        final RecvWr recv;

        Srq(SharedReceiveQueue srq, MemorySegment struct, Arena arena, int maxWr, int maxSge, int limit) {
            this.srq = srq;
            this.struct = struct;
            this.arena = arena;
            this.maxWr = maxWr;
            this.maxSge = maxSge;
            this.limit = limit;
            this.recv = new RecvWr(Math.max(1, maxSge));
        }
    }

    static final CabiHandles<Srq> SRQS = new CabiHandles<>();

    private CabiSrqs() {
    }

    static Srq srq(long address) {
        if (address == 0) throw Cabi.invalid("no shared receive queue (NULL)");
        Srq s = SRQS.get(CabiMemory.getInt(address + SRQ_HANDLE));
        if (s == null || s.struct.address() != address) throw Cabi.invalid("not a shared receive queue of softrnic0");
        return s;
    }

    static MemorySegment ibv_create_srq(MemorySegment pd, MemorySegment initAttr) {
        var p = CabiResources.pd(pd);
        MemorySegment ia = initAttr.reinterpret(SRQ_INIT_ATTR_SIZE);
        int maxWr = ia.get(ValueLayout.JAVA_INT, SIA_MAX_WR);
        int maxSge = ia.get(ValueLayout.JAVA_INT, SIA_MAX_SGE);
        int limit = ia.get(ValueLayout.JAVA_INT, SIA_SRQ_LIMIT);
        SharedReceiveQueue q = p.object().createSrq(maxWr, maxSge, limit);
        Arena arena = Arena.ofShared();
        MemorySegment s = arena.allocate(SRQ_SIZE, 8).fill((byte) 0);
        Srq srq = new Srq(q, s, arena, maxWr, maxSge, limit);
        s.set(ValueLayout.ADDRESS, SRQ_CONTEXT, p.struct().get(ValueLayout.ADDRESS, PD_CONTEXT));
        s.set(ValueLayout.ADDRESS, SRQ_SRQ_CONTEXT, ia.get(ValueLayout.ADDRESS, SIA_SRQ_CONTEXT));
        s.set(ValueLayout.ADDRESS, SRQ_PD, pd);
        s.set(ValueLayout.JAVA_INT, SRQ_HANDLE, SRQS.add(srq));
        return s;
    }

    static int ibv_destroy_srq(MemorySegment srq) {
        Srq s = srq(srq.address());
        s.srq.close();
        SRQS.remove(s.struct.get(ValueLayout.JAVA_INT, SRQ_HANDLE));
        s.arena.close();
        return 0;
    }

    /** IBV_SRQ_LIMIT arms the limit event; resizing (IBV_SRQ_MAX_WR) is not served. */
    static int ibv_modify_srq(MemorySegment srq, MemorySegment attr, int mask) {
        Srq s = srq(srq.address());
        if ((mask & 1) != 0) throw Cabi.error("ibv_modify_srq", 95, "resizing an SRQ (IBV_SRQ_MAX_WR)");
        if ((mask & 2) != 0) {
            int limit = attr.reinterpret(SRQ_ATTR_SIZE).get(ValueLayout.JAVA_INT, SA_SRQ_LIMIT);
            s.srq.arm(limit);
            s.limit = limit;
        }
        return 0;
    }

    static int ibv_query_srq(MemorySegment srq, MemorySegment attr) {
        Srq s = srq(srq.address());
        MemorySegment a = attr.reinterpret(SRQ_ATTR_SIZE);
        a.set(ValueLayout.JAVA_INT, SA_MAX_WR, s.maxWr);
        a.set(ValueLayout.JAVA_INT, SA_MAX_SGE, s.maxSge);
        a.set(ValueLayout.JAVA_INT, SA_SRQ_LIMIT, s.limit);
        return 0;
    }
}
