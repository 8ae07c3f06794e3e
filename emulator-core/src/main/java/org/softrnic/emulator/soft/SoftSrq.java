package org.softrnic.emulator.soft;

import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SharedReceiveQueue;

final class SoftSrq extends SoftResource implements SharedReceiveQueue {
    private final SoftPd pd;
    final org.softrnic.nic.qp.SharedReceiveQueue srq;
    private final Doorbells.Bell bell;

    private SoftSrq(SoftPd pd, org.softrnic.nic.qp.SharedReceiveQueue srq) {
        super(pd.device, pd);
        this.pd = pd;
        this.srq = srq;
        this.bell = new Doorbells.Bell(null, srq);
        pd.device.growOnDevice(srq.ring());
    }

    /** Called under the device lock. */
    static SoftSrq create(SoftPd pd, int maxWr, int maxSge, int limit) {
        SoftRnic d = pd.device;
        return d.made(() -> d.nic.createSrq(pd.pd, maxWr, maxSge, limit), model -> new SoftSrq(pd, model));
    }

    @Override
    String describe() {
        return "SRQ " + srq.handle();
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_srq";
    }

    @Override
    void destroy() {
        device.destroyed(srq, () -> device.nic.destroySrq(srq));
    }

    @Override
    SoftContext contextOf() {
        return pd.contextOf();
    }

    @Override
    public void postRecv(RecvWr wr) {
        checkOpen("ibv_post_srq_recv");
        device.postRecv(bell, null, srq, wr, bell);
    }

    @Override
    public void arm(int srqLimit) {
        checkOpen("ibv_modify_srq");
        device.runner.run(() -> device.nic.modifySrq(srq, srqLimit));
    }
}
