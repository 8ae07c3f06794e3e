package org.softrnic.emulator.soft;

import org.softrnic.nic.Nic;
import org.softrnic.nic.qp.InlineData;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;

/**
 * A QP. A post is checked, translated and given its queue room on the posting thread, inline data
 * included, and then travels to the device's loop in a preallocated slot: so ibv_post_send's errors come
 * back at once, and the hot path takes no lock and allocates nothing.
 */
final class SoftQp extends SoftResource implements QueuePair {
    private final SoftPd pd;
    final org.softrnic.nic.qp.QueuePair qp;
    private final QueueRoom sendRoom;
    private final QueueRoom recvRoom;

    private SoftQp(SoftPd pd, org.softrnic.nic.qp.QueuePair qp, SoftResource[] uses) {
        super(pd.device, uses);
        this.pd = pd;
        this.qp = qp;
        this.sendRoom = new QueueRoom(qp.sq(), "ibv_post_send", "the send queue of ", this);
        this.recvRoom = qp.rq() == null ? null : new QueueRoom(qp.rq(), "ibv_post_recv", "the receive queue of ", this);
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
        Runner runner = device.runner;
        long c = runner.claim();
        PostSlot s = runner.slot(c);
        try {
            Requests.copy(wr, s.send, device);
            accept(s);
        } catch (RuntimeException | Error e) {
            s.cancel(runner, c); // a claim is always published, or the loop would wait on it for ever
            throw e;
        }
        runner.publish(c);
    }

    @Override
    public void bindMw(MemoryWindow mw, long wrId, MemoryRegion mr, long addr, long length, int access) {
        checkOpen("ibv_bind_mw");
        var window = Requests.mw(mw, device).mw; // before the claim: a refusal here must not leave one unpublished
        var region = Requests.mr(mr, device).mr;
        Runner runner = device.runner;
        long c = runner.claim();
        PostSlot s = runner.slot(c);
        int before = window.postedRkey();
        try {
            Nic.bindMwRequest(s.send, window, wrId, addr, length, access);
            s.send.bindMw = mw;
            s.send.bindMr = mr;
            s.bindWindow = window;
            s.bindRegion = region;
            accept(s);
        } catch (RuntimeException | Error e) {
            window.cancelBind(s.send.bindRkey, before); // a refused bind leaves the window's rkey as it was
            s.cancel(runner, c); // a claim is always published, or the loop would wait on it for ever
            throw e;
        }
        runner.publish(c);
    }

    /** ibv_post_send's checks, the queue room, and inline data, for the request already in {@code s}. */
    private void accept(PostSlot s) {
        device.nic.checkSend(qp, s.send, s.bindWindow != null);
        if (s.send.opcode == org.softrnic.verbs.SendOpcode.REG_MR) SoftPd.checkReachable("ibv_post_send", s.send.regSegment);
        boolean inline = (s.send.sendFlags & SendFlags.INLINE) != 0;
        if (inline) {
            String bad = InlineData.copy(s.send, qp.pd(), device::region, s.inline);
            if (bad != null) throw new VerbsException("ibv_post_send", Errno.EINVAL, bad);
        }
        sendRoom.take();
        s.kind = PostSlot.Kind.SEND;
        s.qp = qp;
        s.room = sendRoom;
        s.hasInline = inline;
    }

    @Override
    public void postRecv(RecvWr wr) {
        checkOpen("ibv_post_recv");
        device.nic.checkRecv(qp, wr);
        PostSlot.postRecv(device.runner, wr, recvRoom, qp, null);
    }
}
