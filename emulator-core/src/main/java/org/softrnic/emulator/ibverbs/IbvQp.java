package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;

/**
 * struct ibv_qp. Posts fill one preallocated struct ibv_send_wr (or ibv_recv_wr) and its SGE array, then
 * call the device's post function from the ops table: nothing is allocated per post.
 */
final class IbvQp extends IbvResource implements QueuePair {
    private static final ValueLayout.OfInt BE_INT = JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    /** Every attribute ibv_query_qp can report that QpAttr holds. */
    private static final int QUERY_MASK = QpAttrMask.STATE | QpAttrMask.CUR_STATE | QpAttrMask.EN_SQD_ASYNC_NOTIFY
            | QpAttrMask.ACCESS_FLAGS | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY | QpAttrMask.AV | QpAttrMask.PATH_MTU
            | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY | QpAttrMask.RQ_PSN | QpAttrMask.MAX_QP_RD_ATOMIC
            | QpAttrMask.MIN_RNR_TIMER | QpAttrMask.SQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.DEST_QPN;

    private final IbvPd pd;
    private final QpType type;
    private final int qpn;
    private final MemorySegment postSendFn;
    private final MemorySegment postRecvFn;
    private final Arena arena = Arena.ofShared();
    private final WrBuffers send;
    private final WrBuffers recv;
    private final MemorySegment bind = arena.allocate(MW_BIND_SIZE, 8);

    IbvQp(IbvPd pd, MemorySegment qp, QpType type, IbvCq sendCq, IbvCq recvCq, IbvSrq srq, QpCaps caps) {
        super(qp, srq == null ? new IbvResource[] {pd, sendCq, recvCq} : new IbvResource[] {pd, sendCq, recvCq, srq});
        this.pd = pd;
        this.type = type;
        this.qpn = qp.get(JAVA_INT, QP_NUM);
        this.postSendFn = IbvOps.op(pd.context.ptr, OPS_POST_SEND);
        this.postRecvFn = IbvOps.op(pd.context.ptr, OPS_POST_RECV);
        this.send = new WrBuffers(arena, SEND_WR_SIZE, caps.maxSendSge());
        this.recv = new WrBuffers(arena, RECV_WR_SIZE, caps.maxRecvSge());
        pd.context.remember(qp, this);
    }

    @Override
    String describe() {
        return "QP 0x" + Integer.toHexString(qpn);
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_qp";
    }

    /** Run after the QP is gone: an rdma_cm id forgets it, as rdma_destroy_qp clears id->qp. */
    volatile Runnable afterDestroy;

    @Override
    void destroy() {
        IbvLib.check(destroyVerb(), describe(), IbvLib.get().destroyQp, ptr);
        Runnable after = afterDestroy;
        if (after != null) after.run();
        pd.context.forget(ptr, this);
        arena.close();
    }

    @Override
    public int qpn() {
        return qpn;
    }

    @Override
    public QpType type() {
        return type;
    }

    @Override
    public QpState state() {
        try (Arena a = Arena.ofConfined()) {
            return state(queryInto(a, QpAttrMask.STATE).get(JAVA_INT, QA_QP_STATE));
        }
    }

    @Override
    public synchronized void modify(QpAttr attr, int mask) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(QP_ATTR_SIZE, 8);
            s.set(JAVA_INT, QA_QP_STATE, attr.qpState.ordinal());
            s.set(JAVA_INT, QA_CUR_QP_STATE, attr.curQpState.ordinal());
            s.set(JAVA_INT, QA_PATH_MTU, attr.pathMtu.value);
            s.set(JAVA_INT, QA_QKEY, attr.qkey);
            s.set(JAVA_INT, QA_RQ_PSN, attr.rqPsn);
            s.set(JAVA_INT, QA_SQ_PSN, attr.sqPsn);
            s.set(JAVA_INT, QA_DEST_QP_NUM, attr.destQpNum);
            s.set(JAVA_INT, QA_QP_ACCESS_FLAGS, attr.qpAccessFlags);
            if (attr.ahAttr != null) IbvPd.writeAhAttr(s, QA_AH_ATTR, attr.ahAttr, attr.portNum);
            s.set(JAVA_SHORT, QA_PKEY_INDEX, (short) attr.pkeyIndex);
            s.set(JAVA_BYTE, QA_EN_SQD_ASYNC_NOTIFY, (byte) (attr.sqDrainNotify ? 1 : 0));
            s.set(JAVA_BYTE, QA_MAX_RD_ATOMIC, (byte) attr.maxRdAtomic);
            s.set(JAVA_BYTE, QA_MAX_DEST_RD_ATOMIC, (byte) attr.maxDestRdAtomic);
            s.set(JAVA_BYTE, QA_MIN_RNR_TIMER, (byte) attr.minRnrTimer);
            s.set(JAVA_BYTE, QA_PORT_NUM, (byte) attr.portNum);
            s.set(JAVA_BYTE, QA_TIMEOUT, (byte) attr.timeout);
            s.set(JAVA_BYTE, QA_RETRY_CNT, (byte) attr.retryCnt);
            s.set(JAVA_BYTE, QA_RNR_RETRY, (byte) attr.rnrRetry);
            IbvLib.check("ibv_modify_qp", describe() + " to " + attr.qpState.ibvName() + " with mask 0x" + Integer.toHexString(mask),
                    IbvLib.get().modifyQp, live("ibv_modify_qp"), s, mask);
        }
    }

    @Override
    public QpAttr query() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = queryInto(a, QUERY_MASK);
            QpAttr attr = new QpAttr();
            attr.qpState = state(s.get(JAVA_INT, QA_QP_STATE));
            attr.curQpState = state(s.get(JAVA_INT, QA_CUR_QP_STATE));
            int mtu = s.get(JAVA_INT, QA_PATH_MTU);
            attr.pathMtu = mtu >= 1 && mtu <= 5 ? Mtu.ofValue(mtu) : Mtu.MTU_1024;
            attr.qkey = s.get(JAVA_INT, QA_QKEY);
            attr.rqPsn = s.get(JAVA_INT, QA_RQ_PSN);
            attr.sqPsn = s.get(JAVA_INT, QA_SQ_PSN);
            attr.destQpNum = s.get(JAVA_INT, QA_DEST_QP_NUM);
            attr.qpAccessFlags = s.get(JAVA_INT, QA_QP_ACCESS_FLAGS);
            Gid dgid = Gid.of(s.asSlice(QA_AH_ATTR + AH_DGID, 16).toArray(JAVA_BYTE));
            attr.ahAttr = new AddressVector(dgid, Byte.toUnsignedInt(s.get(JAVA_BYTE, QA_AH_ATTR + AH_SGID_INDEX)),
                    s.get(JAVA_INT, QA_AH_ATTR + AH_FLOW_LABEL) & 0xfffff, Byte.toUnsignedInt(s.get(JAVA_BYTE, QA_AH_ATTR + AH_HOP_LIMIT)),
                    Byte.toUnsignedInt(s.get(JAVA_BYTE, QA_AH_ATTR + AH_TRAFFIC_CLASS)));
            attr.pkeyIndex = Short.toUnsignedInt(s.get(JAVA_SHORT, QA_PKEY_INDEX));
            attr.sqDrainNotify = s.get(JAVA_BYTE, QA_EN_SQD_ASYNC_NOTIFY) != 0;
            attr.maxRdAtomic = Byte.toUnsignedInt(s.get(JAVA_BYTE, QA_MAX_RD_ATOMIC));
            attr.maxDestRdAtomic = Byte.toUnsignedInt(s.get(JAVA_BYTE, QA_MAX_DEST_RD_ATOMIC));
            attr.minRnrTimer = Byte.toUnsignedInt(s.get(JAVA_BYTE, QA_MIN_RNR_TIMER));
            attr.portNum = Byte.toUnsignedInt(s.get(JAVA_BYTE, QA_PORT_NUM));
            attr.timeout = Byte.toUnsignedInt(s.get(JAVA_BYTE, QA_TIMEOUT));
            attr.retryCnt = Byte.toUnsignedInt(s.get(JAVA_BYTE, QA_RETRY_CNT));
            attr.rnrRetry = Byte.toUnsignedInt(s.get(JAVA_BYTE, QA_RNR_RETRY));
            return attr;
        }
    }

    /** enum ibv_qp_state is QpState's order; IBV_QPS_UNKNOWN (7), which no transition leaves, reads as ERR. */
    private static QpState state(int value) {
        return value >= 0 && value < QpState.values().length ? QpState.values()[value] : QpState.ERR;
    }

    private synchronized MemorySegment queryInto(Arena a, int mask) {
        MemorySegment s = a.allocate(QP_ATTR_SIZE, 8);
        MemorySegment init = a.allocate(QP_INIT_ATTR_SIZE, 8);
        IbvLib.check("ibv_query_qp", describe(), IbvLib.get().queryQp, live("ibv_query_qp"), s, mask, init);
        return s;
    }

    @Override
    public synchronized void postSend(SendWr w) {
        MemorySegment qp = live("ibv_post_send");
        SendOpcode op = w.opcode;
        if (op == SendOpcode.FLUSH || op == SendOpcode.ATOMIC_WRITE || op == SendOpcode.REG_MR) {
            // rdma-core 44 has no IBV_WR_FLUSH, REG_MR is the kernel's, and rxe's user library drops ATOMIC_WRITE's rkey
            throw new VerbsException("ibv_post_send", Errno.EOPNOTSUPP, "IBV_WR_" + op + " is not available through libibverbs here");
        }
        send.sges(w.sgList, w.numSge, "ibv_post_send", describe());
        // the device copies inline data from the SGEs' addresses without a key check: they must lie in our regions
        if ((w.sendFlags & SendFlags.INLINE) != 0) pd.checkInline(w.sgList, w.numSge);
        MemorySegment wr = send.wr;
        wr.set(JAVA_LONG, SWR_WR_ID, w.wrId);
        wr.set(ADDRESS, SWR_NEXT, MemorySegment.NULL);
        wr.set(ADDRESS, SWR_SG_LIST, send.sges);
        wr.set(JAVA_INT, SWR_NUM_SGE, w.numSge);
        wr.set(JAVA_INT, SWR_OPCODE, op.value);
        wr.set(JAVA_INT, SWR_SEND_FLAGS, w.sendFlags);
        // one field for imm_data (__be32) and invalidate_rkey (host order), zero for the rest: a stale value fails BIND_MW
        if (op == SendOpcode.SEND_WITH_INV || op == SendOpcode.LOCAL_INV) wr.set(JAVA_INT, SWR_IMM_DATA, w.invalidateRkey);
        else if (op == SendOpcode.SEND_WITH_IMM || op == SendOpcode.RDMA_WRITE_WITH_IMM) wr.set(BE_INT, SWR_IMM_DATA, w.immData);
        else wr.set(JAVA_INT, SWR_IMM_DATA, 0);
        if (type == QpType.UD) {
            IbvAh ah = own(w.ah, IbvAh.class, "ibv_post_send");
            wr.set(ADDRESS, SWR_UD_AH, ah.ptr);
            wr.set(JAVA_INT, SWR_UD_REMOTE_QPN, w.remoteQpn);
            wr.set(JAVA_INT, SWR_UD_REMOTE_QKEY, w.remoteQkey);
            holding("ibv_post_send", () -> post(qp), ah);
            return;
        }
        if (op.isAtomic()) {
            wr.set(JAVA_LONG, SWR_ATOMIC_REMOTE_ADDR, w.remoteAddr);
            wr.set(JAVA_LONG, SWR_ATOMIC_COMPARE_ADD, w.compareAdd);
            wr.set(JAVA_LONG, SWR_ATOMIC_SWAP, w.swap);
            wr.set(JAVA_INT, SWR_ATOMIC_RKEY, w.rkey);
        } else if (op == SendOpcode.BIND_MW) {
            IbvMw mw = own(w.bindMw, IbvMw.class, "ibv_post_send");
            // rxe reads the region's lkey without a NULL check
            IbvMr mr = own(w.bindMr, IbvMr.class, "ibv_post_send");
            wr.set(ADDRESS, SWR_BIND_MW_MW, mw.ptr);
            wr.set(JAVA_INT, SWR_BIND_MW_RKEY, w.bindRkey);
            wr.set(ADDRESS, SWR_BIND_MW_MR, mr.ptr);
            wr.set(JAVA_LONG, SWR_BIND_MW_ADDR, w.bindAddr);
            wr.set(JAVA_LONG, SWR_BIND_MW_LENGTH, w.bindLength);
            wr.set(JAVA_INT, SWR_BIND_MW_ACCESS, w.bindAccess);
            holding("ibv_post_send", () -> post(qp), mw, mr);
            return;
        } else {
            wr.set(JAVA_LONG, SWR_RDMA_REMOTE_ADDR, w.remoteAddr);
            wr.set(JAVA_INT, SWR_RDMA_RKEY, w.rkey);
        }
        post(qp);
    }

    private Void post(MemorySegment qp) {
        send.post(postSendFn, qp, "ibv_post_send", describe());
        return null;
    }

    @Override
    public synchronized void postRecv(RecvWr wr) {
        MemorySegment qp = live("ibv_post_recv");
        recv.recv(wr, "ibv_post_recv", describe());
        recv.post(postRecvFn, qp, "ibv_post_recv", describe());
    }

    /** ibv_bind_mw, with the checks verbs.h's inline makes before calling the device. */
    @Override
    public synchronized void bindMw(MemoryWindow window, long wrId, MemoryRegion region, long addr, long length, int access) {
        IbvMw mw = own(window, IbvMw.class, "ibv_bind_mw");
        // rdma-core would pass a NULL region on to rxe, which reads its lkey without a check
        IbvMr mr = own(region, IbvMr.class, "ibv_bind_mw");
        if (mw.type() != 1) throw new VerbsException("ibv_bind_mw", Errno.EINVAL, mw.describe() + " is type " + mw.type() + ": post IBV_WR_BIND_MW");
        if (mw.pd != mr.pd) throw new VerbsException("ibv_bind_mw", Errno.EPERM, "the window and the region are in different PDs");
        bind.set(JAVA_LONG, MWB_WR_ID, wrId);
        bind.set(JAVA_INT, MWB_SEND_FLAGS, SendFlags.SIGNALED);
        bind.set(ADDRESS, MWB_MR, mr.ptr);
        bind.set(JAVA_LONG, MWB_ADDR, addr);
        bind.set(JAVA_LONG, MWB_LENGTH, length);
        bind.set(JAVA_INT, MWB_ACCESS, access);
        MemorySegment qp = live("ibv_bind_mw");
        int rc = holding("ibv_bind_mw", () -> {
            try {
                return (int) IbvOps.BIND_MW.invokeExact(IbvOps.op(pd.context.ptr, OPS_BIND_MW), qp, mw.ptr, bind);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }, mw, mr);
        if (rc != 0) throw IbvLib.failed("ibv_bind_mw", rc, describe() + " binding " + mw.describe());
    }
}
