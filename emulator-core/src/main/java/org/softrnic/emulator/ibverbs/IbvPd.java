package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SharedReceiveQueue;
import org.softrnic.verbs.VerbsException;

/** struct ibv_pd and the objects made in it. */
final class IbvPd extends IbvResource implements ProtectionDomain {
    final IbvContext context;
    /** The live regions by lkey, for checking inline SGEs, whose addresses the device reads without a key check. */
    final java.util.Map<Integer, IbvMr> regions = new java.util.concurrent.ConcurrentHashMap<>();

    IbvPd(IbvContext context, MemorySegment pd) {
        super(pd, context);
        this.context = context;
    }

    @Override
    String describe() {
        return "PD 0x" + Long.toHexString(ptr.address());
    }

    @Override
    String destroyVerb() {
        return "ibv_dealloc_pd";
    }

    @Override
    void destroy() {
        IbvLib.check(destroyVerb(), describe(), IbvLib.get().deallocPd, ptr);
    }

    @Override
    public RdmaContext context() {
        return context;
    }

    /** A native segment only: the device reads and writes it by address, behind the JVM's back. */
    @Override
    public MemoryRegion regMr(MemorySegment segment, int access) {
        if (!segment.isNative()) {
            throw new VerbsException("ibv_reg_mr", Errno.EINVAL, "a heap segment cannot be registered with a real device,"
                    + " which reads and writes it by address while the garbage collector may move it; allocate it from an Arena");
        }
        synchronized (this) {
            MemorySegment mr = IbvLib.created("ibv_reg_mr", describe() + ", " + segment.byteSize() + " bytes", IbvLib.get().regMr,
                    live("ibv_reg_mr"), MemorySegment.ofAddress(segment.address()), segment.byteSize(), access);
            return new IbvMr(this, mr.reinterpret(MR_RKEY + 4), segment);
        }
    }

    /** Inline SGEs must lie inside a live region of this PD with their lkey, as the soft RNIC requires. */
    void checkInline(org.softrnic.verbs.Sge[] list, int n) {
        for (int i = 0; i < n; i++) {
            IbvMr mr = regions.get(list[i].lkey);
            if (mr == null || !mr.covers(list[i].addr, Integer.toUnsignedLong(list[i].length))) {
                throw new VerbsException("ibv_post_send", Errno.EINVAL, "inline SGE " + i + " (0x" + Long.toHexString(list[i].addr) + ", "
                        + Integer.toUnsignedString(list[i].length) + " bytes, lkey 0x" + Integer.toHexString(list[i].lkey)
                        + ") is not inside a region of " + describe());
            }
        }
    }

    @Override
    public MemoryWindow allocMw(int type) {
        synchronized (this) {
            MemorySegment fn = IbvOps.op(context.ptr, OPS_ALLOC_MW);
            MemorySegment mw;
            try {
                mw = (MemorySegment) IbvOps.ALLOC_MW.invokeExact(fn, IbvLib.capture(), live("ibv_alloc_mw"), type);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (mw.address() == 0) throw IbvLib.failed("ibv_alloc_mw", IbvLib.errno(), describe() + ", type " + type);
            return new IbvMw(this, mw.reinterpret(MW_TYPE + 4));
        }
    }

    @Override
    public SharedReceiveQueue createSrq(int maxWr, int maxSge, int srqLimit) {
        synchronized (this) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment init = a.allocate(SRQ_INIT_ATTR_SIZE, 8);
                init.set(JAVA_INT, SIA_MAX_WR, maxWr);
                init.set(JAVA_INT, SIA_MAX_SGE, maxSge);
                init.set(JAVA_INT, SIA_SRQ_LIMIT, srqLimit);
                MemorySegment srq = IbvLib.created("ibv_create_srq", describe() + " (" + maxWr + " WRs, " + maxSge + " SGEs)",
                        IbvLib.get().createSrq, live("ibv_create_srq"), init);
                return new IbvSrq(this, srq, maxSge);
            }
        }
    }

    @Override
    public QueuePair createQp(QpInitAttr init) {
        return createQp(init, attr -> IbvLib.created("ibv_create_qp", describe() + ", " + init.type() + " " + init.caps(),
                IbvLib.get().createQp, live("ibv_create_qp"), attr));
    }

    /** A QP made by {@code make} from a filled struct ibv_qp_init_attr: ibv_create_qp, or librdmacm's rdma_create_qp. */
    QueuePair createQp(QpInitAttr init, java.util.function.Function<MemorySegment, MemorySegment> make) {
        synchronized (this) {
            IbvCq send = own(init.sendCq(), IbvCq.class, "ibv_create_qp");
            IbvCq recv = own(init.recvCq(), IbvCq.class, "ibv_create_qp");
            IbvSrq srq = init.srq() == null ? null : own(init.srq(), IbvSrq.class, "ibv_create_qp");
            return holding("ibv_create_qp", () -> createQp(init, send, recv, srq, make), send, recv == send ? null : recv, srq);
        }
    }

    private QueuePair createQp(QpInitAttr init, IbvCq send, IbvCq recv, IbvSrq srq, java.util.function.Function<MemorySegment, MemorySegment> make) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(QP_INIT_ATTR_SIZE, 8);
            QpCaps caps = init.caps();
            attr.set(ADDRESS, QIA_SEND_CQ, send.ptr);
            attr.set(ADDRESS, QIA_RECV_CQ, recv.ptr);
            attr.set(ADDRESS, QIA_SRQ, srq == null ? MemorySegment.NULL : srq.ptr);
            attr.set(JAVA_INT, QIA_MAX_SEND_WR, caps.maxSendWr());
            attr.set(JAVA_INT, QIA_MAX_RECV_WR, srq == null ? caps.maxRecvWr() : 0);
            attr.set(JAVA_INT, QIA_MAX_SEND_SGE, caps.maxSendSge());
            attr.set(JAVA_INT, QIA_MAX_RECV_SGE, srq == null ? caps.maxRecvSge() : 0);
            attr.set(JAVA_INT, QIA_MAX_INLINE_DATA, caps.maxInlineData());
            attr.set(JAVA_INT, QIA_QP_TYPE, init.type().value);
            attr.set(JAVA_INT, QIA_SQ_SIG_ALL, init.sqSigAll() ? 1 : 0);
            MemorySegment qp = make.apply(attr);
            // the device may round the capacities up; the QP's request buffers follow what it granted
            QpCaps granted = new QpCaps(attr.get(JAVA_INT, QIA_MAX_SEND_WR), attr.get(JAVA_INT, QIA_MAX_RECV_WR),
                    attr.get(JAVA_INT, QIA_MAX_SEND_SGE), attr.get(JAVA_INT, QIA_MAX_RECV_SGE), attr.get(JAVA_INT, QIA_MAX_INLINE_DATA));
            return new IbvQp(this, qp.reinterpret(QP_STATE + 4), init.type(), send, recv, srq, granted);
        }
    }

    @Override
    public AddressHandle createAh(AddressVector av) {
        synchronized (this) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment attr = a.allocate(AH_ATTR_SIZE, 8);
                writeAhAttr(attr, 0, av, 1);
                MemorySegment ah = IbvLib.created("ibv_create_ah", describe() + " to " + av.dgid(), IbvLib.get().createAh,
                        live("ibv_create_ah"), attr);
                return new IbvAh(this, ah, av);
            }
        }
    }

    /** struct ibv_ah_attr at {@code at}: RoCE always routes by GRH, so is_global is 1 and the LID 0. */
    static void writeAhAttr(MemorySegment s, long at, AddressVector av, int port) {
        MemorySegment.copy(av.dgid().raw(), 0, s, JAVA_BYTE, at + AH_DGID, 16);
        s.set(JAVA_INT, at + AH_FLOW_LABEL, av.flowLabel());
        s.set(JAVA_BYTE, at + AH_SGID_INDEX, (byte) av.sgidIndex());
        s.set(JAVA_BYTE, at + AH_HOP_LIMIT, (byte) av.hopLimit());
        s.set(JAVA_BYTE, at + AH_TRAFFIC_CLASS, (byte) av.trafficClass());
        s.set(JAVA_SHORT, at + AH_DLID, (short) 0);
        s.set(JAVA_BYTE, at + AH_SL, (byte) 0);
        s.set(JAVA_BYTE, at + AH_IS_GLOBAL, (byte) 1);
        s.set(JAVA_BYTE, at + AH_PORT_NUM, (byte) port);
    }
}
