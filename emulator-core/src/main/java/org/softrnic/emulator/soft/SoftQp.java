package org.softrnic.emulator.soft;

import org.softrnic.nic.Nic;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;

/**
 * A QP. A post is checked and written once, on the posting thread, into the QP's own next WQE (inline data
 * included), published, and the doorbell rung, as rdma-core's providers do: so ibv_post_send's errors come back at
 * once, and the hot path allocates nothing. One poster at a time per queue, as those providers lock theirs.
 */
final class SoftQp extends SoftResource implements QueuePair {
    private final SoftPd pd;
    final org.softrnic.nic.qp.QueuePair qp;
    /** The doorbell of both queues, and the posters' locks. */
    private final Doorbells.Bell bell;
    private final Object sendLock = new Object();
    private final Object recvLock = new Object();

    private SoftQp(SoftPd pd, org.softrnic.nic.qp.QueuePair qp, SoftResource[] uses) {
        super(pd.device, uses);
        this.pd = pd;
        this.qp = qp;
        this.bell = new Doorbells.Bell(qp, null);
        pd.device.growOnDevice(qp.sq());
        if (qp.rq() != null) pd.device.growOnDevice(qp.rq());
    }

    /** Called under the device lock. */
    static SoftQp create(SoftPd pd, QpInitAttr init) {
        String verb = "ibv_create_qp";
        if (init == null || init.type() == null || init.caps() == null) throw new VerbsException(verb, Errno.EINVAL, "type and caps are required");
        SoftCq scq = cq(pd, init.sendCq());
        SoftCq rcq = cq(pd, init.recvCq());
        SoftSrq srq = null;
        if (init.srq() != null) {
            if (!(init.srq() instanceof SoftSrq s) || s.device != pd.device) throw new VerbsException(verb, Errno.EINVAL, "the SRQ belongs to another device");
            s.checkOpen(verb);
            srq = s;
        }
        SoftSrq theSrq = srq;
        SoftRnic d = pd.device;
        SoftResource[] uses = srq == null ? new SoftResource[] {pd, scq, rcq} : new SoftResource[] {pd, scq, rcq, srq};
        return d.made(() -> d.nic.createQp(pd.pd, init.type(), scq.cq, rcq.cq, theSrq == null ? null : theSrq.srq,
                init.caps(), init.sqSigAll()), model -> new SoftQp(pd, model, uses));
    }

    private static SoftCq cq(SoftPd pd, org.softrnic.verbs.CompletionQueue cq) {
        if (cq == null) throw new VerbsException("ibv_create_qp", Errno.EINVAL, "send and receive CQs are required");
        if (!(cq instanceof SoftCq c) || c.device != pd.device) throw new VerbsException("ibv_create_qp", Errno.EINVAL, "the CQ belongs to another device");
        c.checkOpen("ibv_create_qp");
        return c;
    }

    @Override
    String describe() {
        return qp.type() + " QP 0x" + Integer.toHexString(qp.qpn());
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_qp";
    }

    @Override
    void destroy() {
        device.destroyed(qp, () -> device.nic.destroyQp(qp));
    }

    @Override
    SoftContext contextOf() {
        return pd.contextOf();
    }

    @Override public int qpn() { return qp.qpn(); }
    @Override public QpType type() { return qp.type(); }
    @Override public QpState state() { return qp.state(); }

    @Override
    public void modify(QpAttr attr, int mask) {
        checkOpen("ibv_modify_qp");
        device.runner.run(() -> {
            device.nic.modifyQp(qp, attr, mask);
            if ((mask & org.softrnic.verbs.QpAttrMask.AV) != 0 && attr.ahAttr != null) device.resolve(attr.ahAttr.dgid());
        });
    }

    @Override
    public QpAttr query() {
        checkOpen("ibv_query_qp");
        return device.runner.call(() -> qp.attr().copy());
    }

    @Override
    public void postSend(SendWr wr) {
        checkOpen("ibv_post_send");
        Requests.check(wr, device);
        boolean bind = wr.opcode == org.softrnic.verbs.SendOpcode.BIND_MW;
        var window = bind && wr.bindMw != null ? ((SoftMw) wr.bindMw).mw : null;
        var region = bind && wr.bindMr != null ? ((SoftMr) wr.bindMr).mr : null;
        send(wr, false, window, region);
    }

    @Override
    public void bindMw(MemoryWindow mw, long wrId, MemoryRegion mr, long addr, long length, int access) {
        checkOpen("ibv_bind_mw");
        var window = Requests.mw(mw, device).mw;
        var region = Requests.mr(mr, device).mr;
        SendWr wr = new SendWr(1); // ibv_bind_mw is not a hot verb
        int before = window.postedRkey();
        Nic.bindMwRequest(wr, window, wrId, addr, length, access);
        wr.bindMw = mw;
        wr.bindMr = mr;
        try {
            send(wr, true, window, region);
        } catch (RuntimeException | Error e) {
            window.cancelBind(wr.bindRkey, before); // a refused bind leaves the window's rkey as it was
            throw e;
        }
    }

    /** Writes the request into the send queue's next WQE, publishes it and rings the doorbell. */
    private void send(SendWr wr, boolean typeOneBind, org.softrnic.nic.mem.MemoryWindow window, org.softrnic.nic.mem.MemoryRegion region) {
        Nic nic = device.nic;
        device.runner.checkPoster();
        synchronized (sendLock) {
            nic.writeSend(qp, wr, typeOneBind, window, region, device::region);
            qp.sq().publish();
        }
        device.runner.ring(bell);
    }

    @Override
    public void postRecv(RecvWr wr) {
        checkOpen("ibv_post_recv");
        device.postRecv(recvLock, qp, null, wr, bell);
    }
}
