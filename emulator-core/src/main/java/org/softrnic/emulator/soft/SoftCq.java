package org.softrnic.emulator.soft;

import org.softrnic.emulator.cq.CqEventCount;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.WorkCompletion;

/** A CQ: polled straight from the model's ring, which takes pollers on any thread without a lock. */
final class SoftCq extends SoftResource implements CompletionQueue {
    private final SoftContext context;
    private final SoftChannel channel;
    final org.softrnic.nic.cq.CompletionQueue cq;
    private final CqEventCount events = new CqEventCount();

    private SoftCq(SoftContext context, SoftChannel channel, org.softrnic.nic.cq.CompletionQueue cq) {
        super(context.device, channel == null ? new SoftResource[] {context} : new SoftResource[] {context, channel});
        this.context = context;
        this.channel = channel;
        this.cq = cq;
    }

    /** Called under the device lock. */
    static SoftCq create(SoftContext context, int cqe, SoftChannel channel) {
        SoftRnic d = context.device;
        return d.made(() -> d.nic.createCq(cqe), model -> {
            SoftCq api = new SoftCq(context, channel, model);
            if (channel != null) model.onEvent(() -> channel.signal(api));
            return api;
        });
    }

    @Override
    String describe() {
        return "CQ " + cq.handle();
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_cq";
    }

    @Override
    void destroy() {
        events.checkNoneOutstanding(describe());
        device.destroyed(cq, () -> device.nic.destroyCq(cq));
    }

    @Override
    SoftContext contextOf() {
        return context;
    }

    void eventDelivered() {
        events.delivered();
    }

    @Override
    public int cqe() {
        return cq.capacity();
    }

    @Override
    public int poll(WorkCompletion[] out, int max) {
        checkOpen("ibv_poll_cq");
        int n = cq.poll(out, max);
        if (n == 0 && device.runner.idle()) n = cq.poll(out, max);
        return n;
    }

    @Override
    public void reqNotify(boolean solicitedOnly) {
        checkOpen("ibv_req_notify_cq");
        // without a channel the arming is harmless and reports nowhere, as in rdma-core
        cq.requestNotify(solicitedOnly);
    }

    @Override
    public void ackEvents(int n) {
        checkOpen("ibv_ack_cq_events");
        events.ack(n);
    }
}
