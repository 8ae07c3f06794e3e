package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SharedReceiveQueue;

/** struct ibv_srq. */
final class IbvSrq extends IbvResource implements SharedReceiveQueue {
    private final IbvPd pd;
    private final MemorySegment postFn;
    private final Arena arena = Arena.ofShared();
    private final WrBuffers recv;

    IbvSrq(IbvPd pd, MemorySegment srq, int maxSge) {
        super(srq, pd);
        this.pd = pd;
        this.postFn = IbvOps.op(pd.context.ptr, org.softrnic.emulator.rdmacore.RdmaCoreLayout.OPS_POST_SRQ_RECV);
        this.recv = new WrBuffers(arena, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RECV_WR_SIZE, maxSge);
        pd.context.remember(srq, this);
    }

    @Override
    String describe() {
        return "SRQ 0x" + Long.toHexString(ptr.address());
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_srq";
    }

    @Override
    void destroy() {
        IbvLib.check(destroyVerb(), describe(), IbvLib.get().destroySrq, ptr);
        pd.context.forget(ptr, this);
        arena.close();
    }

    @Override
    public synchronized void postRecv(RecvWr wr) {
        MemorySegment srq = live("ibv_post_srq_recv");
        recv.recv(wr, "ibv_post_srq_recv", describe());
        recv.post(postFn, srq, "ibv_post_srq_recv", describe());
    }

    @Override
    public synchronized void arm(int srqLimit) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(org.softrnic.emulator.rdmacore.RdmaCoreLayout.SRQ_ATTR_SIZE, 4);
            attr.set(JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.SA_SRQ_LIMIT, srqLimit);
            IbvLib.check("ibv_modify_srq", describe() + " limit " + srqLimit, IbvLib.get().modifySrq, live("ibv_modify_srq"), attr,
                    2 /* IBV_SRQ_LIMIT */);
        }
    }
}
