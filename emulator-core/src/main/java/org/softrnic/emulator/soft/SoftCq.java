package org.softrnic.emulator.soft;

import java.util.concurrent.atomic.AtomicInteger;
import org.softrnic.nic.Errno;
import org.softrnic.nic.VerbsException;
import org.softrnic.nic.cq.WorkCompletion;
import org.softrnic.verbs.CompletionQueue;

/** A CQ: polled straight from the model's ring, which takes pollers on any thread without a lock. */
final class SoftCq extends SoftResource implements CompletionQueue {
    private final SoftContext context;
    private final SoftChannel channel;
    final org.softrnic.nic.cq.CompletionQueue cq;
    /** Events handed out by the channel and not yet acknowledged. */
    private final AtomicInteger unacked = new AtomicInteger();

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
        int n = unacked.get();
        if (n > 0) throw new VerbsException(destroyVerb(), Errno.EBUSY, describe() + " has " + n + " unacknowledged events");
        device.destroyed(cq, () -> device.nic.destroyCq(cq));
    }

    @Override
    SoftContext contextOf() {
        return context;
    }

    void eventDelivered() {
        unacked.incrementAndGet();
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
        while (true) {
            int have = unacked.get();
            if (n < 0 || n > have) {
                throw new VerbsException("ibv_ack_cq_events", Errno.EINVAL, "acknowledging " + n + " events, but " + have + " are outstanding");
            }
            if (unacked.compareAndSet(have, have - n)) return;
        }
    }
}
