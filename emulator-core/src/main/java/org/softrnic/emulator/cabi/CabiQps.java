package org.softrnic.emulator.cabi;

import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendWr;

/** Queue pairs: ibv_create_qp, ibv_modify_qp, ibv_query_qp and ibv_destroy_qp, over the verbs QP. */
final class CabiQps {
    /** A QP, its struct, what it was created with, and the work requests a post reads into (one poster at a time). */
    static final class Qp {
        final QueuePair qp;
        final MemorySegment struct;
        final Arena arena;
        final QpCaps caps;
        final boolean sqSigAll;
        final SendWr send;
        final RecvWr recv;
        /** Made by ibv_create_qp_ex: its struct is an ibv_qp_ex whose ibv_wr_* table {@link CabiQpEx} serves. */
        final boolean extended;
        /** The ibv_wr_* batch between wr_start and wr_complete, and how many of it are built. */
        final SendWr[] batch;
        int built;
        /** wr_start to wr_complete or wr_abort: one thread's batch at a time, as ibv_wr_post(3) asks of a provider. */
        final java.util.concurrent.locks.ReentrantLock batchLock = new java.util.concurrent.locks.ReentrantLock();
        /** Why the batch being built fails at wr_complete (its errno, 0 for none), as a device reports it there. */
        int batchErrno;
        String batchWhy;
        /** Where wr_set_inline_data copies its bytes, registered in the QP's PD, one slot per request of a batch. */
        MemorySegment inline;
        org.softrnic.verbs.MemoryRegion inlineMr;

        Qp(QueuePair qp, MemorySegment struct, Arena arena, QpCaps caps, boolean sqSigAll, boolean extended) {
            this.qp = qp;
            this.struct = struct;
            this.arena = arena;
            this.caps = caps;
            this.sqSigAll = sqSigAll;
            this.send = new SendWr(Math.max(1, caps.maxSendSge()));
            this.recv = new RecvWr(Math.max(1, caps.maxRecvSge()));
            this.extended = extended;
            this.batch = new SendWr[extended ? Math.max(1, caps.maxSendWr()) : 0];
            for (int i = 0; i < batch.length; i++) batch[i] = new SendWr(Math.max(1, caps.maxSendSge()));
        }
    }

    static final CabiHandles<Qp> QPS = new CabiHandles<>();
    /** IBV_QP_EX_WITH_*: RDMA_WRITE(_WITH_IMM), SEND(_WITH_IMM), RDMA_READ, the atomics, LOCAL_INV, SEND_WITH_INV. */
    private static final long SEND_OPS = 0xff | 1 << 9;
    private static final QpType[] TYPES = new QpType[32];

    static {
        for (QpType t : QpType.values()) TYPES[t.value] = t;
    }

    private CabiQps() {
    }

    static Qp qp(long address) {
        if (address == 0) throw Cabi.invalid("no queue pair (NULL)");
        Qp q = QPS.get(CabiMemory.getInt(address + QP_HANDLE));
        if (q == null || q.struct.address() != address) throw Cabi.invalid("not a queue pair of softrnic0");
        return q;
    }

    static MemorySegment ibv_create_qp(MemorySegment pd, MemorySegment initAttr) {
        return create(pd, initAttr.reinterpret(QP_INIT_ATTR_SIZE), false);
    }

    /**
     * verbs_context's create_qp_ex (ibv_create_qp_ex): the PD from the attributes; with IBV_QP_INIT_ATTR_SEND_OPS_FLAGS
     * the QP is an ibv_qp_ex with the ibv_wr_* table. Create flags are refused, as a device without them refuses them.
     */
    static long create_qp_ex(long context, long attr) {
        MemorySegment ia = CabiMemory.ALL.asSlice(attr, QIAX_SIZE);
        int mask = ia.get(ValueLayout.JAVA_INT, QIAX_COMP_MASK);
        if ((mask & 1) == 0) throw Cabi.error("ibv_create_qp_ex", 22, "no PD: set IBV_QP_INIT_ATTR_PD");
        if ((mask & ~(1 | 1 << 2 | 1 << 6)) != 0) throw Cabi.error("ibv_create_qp_ex", 95, "comp_mask 0x" + Integer.toHexString(mask));
        if ((mask & 1 << 2) != 0 && ia.get(ValueLayout.JAVA_INT, QIAX_CREATE_FLAGS) != 0) {
            throw Cabi.error("ibv_create_qp_ex", 95, "create_flags 0x" + Integer.toHexString(ia.get(ValueLayout.JAVA_INT, QIAX_CREATE_FLAGS)));
        }
        long ops = (mask & 1 << 6) != 0 ? ia.get(ValueLayout.JAVA_LONG, QIAX_SEND_OPS_FLAGS) : 0;
        if ((ops & ~SEND_OPS) != 0) {
            throw Cabi.error("ibv_create_qp_ex", 95, "send_ops_flags 0x" + Long.toHexString(ops & ~SEND_OPS)
                    + ": softrnic's ibv_wr_* serves RDMA WRITE (with immediate), SEND (with immediate or invalidate), RDMA READ,"
                    + " the two atomics and LOCAL_INV");
        }
        return create(ia.get(ValueLayout.ADDRESS, QIAX_PD), ia, (mask & 1 << 6) != 0).address();
    }

    private static MemorySegment create(MemorySegment pd, MemorySegment ia, boolean extended) {
        return create(pd, ia, extended, ProtectionDomain::createQp);
    }

    /**
     * A QP with the attributes of the ibv_qp_init_attr (or _ex) at {@code ia}, made by {@code make} (the PD's
     * ibv_create_qp, or an rdma_cm id's rdma_create_qp), and its struct.
     */
    static MemorySegment create(MemorySegment pd, MemorySegment ia, boolean extended,
                                java.util.function.BiFunction<ProtectionDomain, QpInitAttr, QueuePair> make) {
        var p = CabiResources.pd(pd);
        int type = ia.get(ValueLayout.JAVA_INT, QIA_QP_TYPE);
        if (type < 0 || type >= TYPES.length || TYPES[type] == null) throw Cabi.error("ibv_create_qp", 22, "qp_type " + type);
        MemorySegment sendCq = ia.get(ValueLayout.ADDRESS, QIA_SEND_CQ);
        MemorySegment recvCq = ia.get(ValueLayout.ADDRESS, QIA_RECV_CQ);
        MemorySegment srq = ia.get(ValueLayout.ADDRESS, QIA_SRQ);
        var shared = srq.equals(MemorySegment.NULL) ? null : CabiSrqs.srq(srq.address()).srq;
        QpCaps caps = new QpCaps(ia.get(ValueLayout.JAVA_INT, QIA_MAX_SEND_WR), ia.get(ValueLayout.JAVA_INT, QIA_MAX_RECV_WR),
                ia.get(ValueLayout.JAVA_INT, QIA_MAX_SEND_SGE), ia.get(ValueLayout.JAVA_INT, QIA_MAX_RECV_SGE),
                ia.get(ValueLayout.JAVA_INT, QIA_MAX_INLINE_DATA));
        boolean sigAll = ia.get(ValueLayout.JAVA_INT, QIA_SQ_SIG_ALL) != 0;
        QueuePair qp = make.apply(p.object(), new QpInitAttr(TYPES[type], CabiCqs.cq(sendCq).cq, CabiCqs.cq(recvCq).cq, shared, caps, sigAll));
        Arena arena = Arena.ofShared();
        MemorySegment s = arena.allocate(QPX_SIZE, 8).fill((byte) 0);
        Qp q = new Qp(qp, s, arena, caps, sigAll, extended);
        if (caps.maxInlineData() > 0) {
            // inline data may come from memory no region covers (ibv_post_send(3): the lkey is not checked): it is
            // copied here, into a buffer the QP registered, one slot per request of a batch, when it is posted
            q.inline = arena.allocate((long) caps.maxInlineData() * Math.max(1, q.batch.length), 64);
            q.inlineMr = p.object().regMr(q.inline, org.softrnic.verbs.Access.LOCAL_WRITE);
        }
        if (extended) CabiQpEx.install(q);
        s.set(ValueLayout.ADDRESS, QP_CONTEXT, p.struct().get(ValueLayout.ADDRESS, PD_CONTEXT));
        s.set(ValueLayout.ADDRESS, QP_QP_CONTEXT, ia.get(ValueLayout.ADDRESS, QIA_QP_CONTEXT));
        s.set(ValueLayout.ADDRESS, QP_PD, pd);
        s.set(ValueLayout.ADDRESS, QP_SEND_CQ, sendCq);
        s.set(ValueLayout.ADDRESS, QP_RECV_CQ, recvCq);
        s.set(ValueLayout.ADDRESS, QP_SRQ, srq);
        s.set(ValueLayout.JAVA_INT, QP_NUM, qp.qpn());
        s.set(ValueLayout.JAVA_INT, QP_STATE, qp.state().ordinal());
        s.set(ValueLayout.JAVA_INT, QP_QP_TYPE, type);
        s.set(ValueLayout.JAVA_INT, QP_HANDLE, QPS.add(q));
        return s;
    }

    /**
     * Appends {@code length} bytes at {@code addr} to request {@code w}'s inline data, in slot {@code slot} of the QP's
     * inline buffer, which its one SGE names; false when they would pass max_inline_data.
     */
    static boolean inline(Qp q, SendWr w, int slot, long addr, long length) {
        int max = q.caps.maxInlineData();
        long used = w.numSge == 0 ? 0 : Integer.toUnsignedLong(w.sgList[0].length);
        if (q.inline == null || length < 0 || used + length > max) {
            CabiQpEx.fail(q, 22, (used + length) + " bytes of inline data, more than max_inline_data, " + max);
            return false;
        }
        long base = (long) slot * max;
        MemorySegment.copy(CabiMemory.ALL, addr, q.inline, base + used, length);
        w.numSge = 1;
        w.sgList[0].set(q.inline.address() + base, (int) (used + length), q.inlineMr.lkey());
        w.sendFlags |= org.softrnic.verbs.SendFlags.INLINE;
        return true;
    }

    /** The QP as an ibv_qp_ex: itself, when ibv_create_qp_ex made it with the ibv_wr_* table; else NULL, as rdma-core's. */
    static MemorySegment ibv_qp_to_qp_ex(MemorySegment qp) {
        Qp q = qp(qp.address());
        return q.extended ? q.struct : MemorySegment.NULL;
    }

    static int ibv_destroy_qp(MemorySegment qp) {
        Qp q = qp(qp.address());
        q.qp.close();
        if (q.inlineMr != null) q.inlineMr.close();
        QPS.remove(q.struct.get(ValueLayout.JAVA_INT, QP_HANDLE));
        q.arena.close();
        return 0;
    }

    static int ibv_modify_qp(MemorySegment qp, MemorySegment attr, int mask) {
        Qp q = qp(qp.address());
        MemorySegment a = attr.reinterpret(QP_ATTR_SIZE);
        QpAttr x = new QpAttr();
        if ((mask & QpAttrMask.STATE) != 0) x.qpState = state(a.get(ValueLayout.JAVA_INT, QA_QP_STATE));
        if ((mask & QpAttrMask.CUR_STATE) != 0) x.curQpState = state(a.get(ValueLayout.JAVA_INT, QA_CUR_QP_STATE));
        x.sqDrainNotify = a.get(ValueLayout.JAVA_BYTE, QA_EN_SQD_ASYNC_NOTIFY) != 0;
        x.qpAccessFlags = a.get(ValueLayout.JAVA_INT, QA_QP_ACCESS_FLAGS);
        x.pkeyIndex = a.get(ValueLayout.JAVA_SHORT, QA_PKEY_INDEX) & 0xffff;
        x.portNum = a.get(ValueLayout.JAVA_BYTE, QA_PORT_NUM) & 0xff;
        x.qkey = a.get(ValueLayout.JAVA_INT, QA_QKEY);
        if ((mask & QpAttrMask.AV) != 0) x.ahAttr = CabiResources.vector(a.asSlice(QA_AH_ATTR, AH_ATTR_SIZE));
        if ((mask & QpAttrMask.PATH_MTU) != 0) x.pathMtu = Mtu.ofValue(a.get(ValueLayout.JAVA_INT, QA_PATH_MTU));
        x.timeout = a.get(ValueLayout.JAVA_BYTE, QA_TIMEOUT) & 0xff;
        x.retryCnt = a.get(ValueLayout.JAVA_BYTE, QA_RETRY_CNT) & 0xff;
        x.rnrRetry = a.get(ValueLayout.JAVA_BYTE, QA_RNR_RETRY) & 0xff;
        x.rqPsn = a.get(ValueLayout.JAVA_INT, QA_RQ_PSN);
        x.maxRdAtomic = a.get(ValueLayout.JAVA_BYTE, QA_MAX_RD_ATOMIC) & 0xff;
        x.minRnrTimer = a.get(ValueLayout.JAVA_BYTE, QA_MIN_RNR_TIMER) & 0xff;
        x.sqPsn = a.get(ValueLayout.JAVA_INT, QA_SQ_PSN);
        x.maxDestRdAtomic = a.get(ValueLayout.JAVA_BYTE, QA_MAX_DEST_RD_ATOMIC) & 0xff;
        x.destQpNum = a.get(ValueLayout.JAVA_INT, QA_DEST_QP_NUM);
        q.qp.modify(x, mask);
        q.struct.set(ValueLayout.JAVA_INT, QP_STATE, q.qp.state().ordinal());
        return 0;
    }

    private static QpState state(int value) {
        if (value < 0 || value >= QpState.values().length) throw Cabi.error("ibv_modify_qp", 22, "qp_state " + value);
        return QpState.values()[value];
    }

    static int ibv_query_qp(MemorySegment qp, MemorySegment attr, int mask, MemorySegment initAttr) {
        Qp q = qp(qp.address());
        QpAttr x = q.qp.query();
        MemorySegment a = attr.reinterpret(QP_ATTR_SIZE).fill((byte) 0);
        a.set(ValueLayout.JAVA_INT, QA_QP_STATE, x.qpState.ordinal());
        a.set(ValueLayout.JAVA_INT, QA_CUR_QP_STATE, x.qpState.ordinal());
        a.set(ValueLayout.JAVA_INT, QA_PATH_MTU, x.pathMtu.value);
        a.set(ValueLayout.JAVA_INT, QA_QKEY, x.qkey);
        a.set(ValueLayout.JAVA_INT, QA_RQ_PSN, x.rqPsn);
        a.set(ValueLayout.JAVA_INT, QA_SQ_PSN, x.sqPsn);
        a.set(ValueLayout.JAVA_INT, QA_DEST_QP_NUM, x.destQpNum);
        a.set(ValueLayout.JAVA_INT, QA_QP_ACCESS_FLAGS, x.qpAccessFlags);
        caps(a.asSlice(QA_CAP, 20), q.caps);
        if (x.ahAttr != null) CabiResources.writeAhAttr(x.ahAttr, a.asSlice(QA_AH_ATTR, AH_ATTR_SIZE));
        a.set(ValueLayout.JAVA_SHORT, QA_PKEY_INDEX, (short) x.pkeyIndex);
        a.set(ValueLayout.JAVA_BYTE, QA_EN_SQD_ASYNC_NOTIFY, (byte) (x.sqDrainNotify ? 1 : 0));
        a.set(ValueLayout.JAVA_BYTE, QA_MAX_RD_ATOMIC, (byte) x.maxRdAtomic);
        a.set(ValueLayout.JAVA_BYTE, QA_MAX_DEST_RD_ATOMIC, (byte) x.maxDestRdAtomic);
        a.set(ValueLayout.JAVA_BYTE, QA_MIN_RNR_TIMER, (byte) x.minRnrTimer);
        a.set(ValueLayout.JAVA_BYTE, QA_PORT_NUM, (byte) x.portNum);
        a.set(ValueLayout.JAVA_BYTE, QA_TIMEOUT, (byte) x.timeout);
        a.set(ValueLayout.JAVA_BYTE, QA_RETRY_CNT, (byte) x.retryCnt);
        a.set(ValueLayout.JAVA_BYTE, QA_RNR_RETRY, (byte) x.rnrRetry);
        MemorySegment ia = initAttr.reinterpret(QP_INIT_ATTR_SIZE).fill((byte) 0);
        ia.set(ValueLayout.ADDRESS, QIA_QP_CONTEXT, q.struct.get(ValueLayout.ADDRESS, QP_QP_CONTEXT));
        ia.set(ValueLayout.ADDRESS, QIA_SEND_CQ, q.struct.get(ValueLayout.ADDRESS, QP_SEND_CQ));
        ia.set(ValueLayout.ADDRESS, QIA_RECV_CQ, q.struct.get(ValueLayout.ADDRESS, QP_RECV_CQ));
        caps(ia.asSlice(QIA_MAX_SEND_WR, 20), q.caps);
        ia.set(ValueLayout.JAVA_INT, QIA_QP_TYPE, q.qp.type().value);
        ia.set(ValueLayout.JAVA_INT, QIA_SQ_SIG_ALL, q.sqSigAll ? 1 : 0);
        return 0;
    }

    /** struct ibv_qp_cap, five ints in its order. */
    private static void caps(MemorySegment cap, QpCaps c) {
        cap.set(ValueLayout.JAVA_INT, 0, c.maxSendWr());
        cap.set(ValueLayout.JAVA_INT, 4, c.maxRecvWr());
        cap.set(ValueLayout.JAVA_INT, 8, c.maxSendSge());
        cap.set(ValueLayout.JAVA_INT, 12, c.maxRecvSge());
        cap.set(ValueLayout.JAVA_INT, 16, c.maxInlineData());
    }
}
