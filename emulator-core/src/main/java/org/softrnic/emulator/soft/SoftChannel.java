package org.softrnic.emulator.soft;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import org.softrnic.verbs.CompletionChannel;
import org.softrnic.verbs.CompletionQueue;

/** A completion channel: the model's thread queues the CQs whose arming fired; waiters take them. */
final class SoftChannel extends SoftResource implements CompletionChannel {
    private static int next = 1;
    private final SoftContext context;
    private final int id;
    private final LinkedBlockingQueue<SoftCq> fired = new LinkedBlockingQueue<>();

    SoftChannel(SoftContext context) {
        super(context.device, context);
        this.context = context;
        synchronized (SoftChannel.class) {
            id = next++;
        }
    }

    void signal(SoftCq cq) {
        fired.add(cq);
    }

    @Override
    public CompletionQueue getCqEvent(Duration timeout) throws InterruptedException {
        checkOpen("ibv_get_cq_event");
        SoftCq cq = device.runner.await(fired, timeout);
        if (cq != null) cq.eventDelivered();
        return cq;
    }

    @Override
    String describe() {
        return "completion channel " + id;
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_comp_channel";
    }

    @Override
    void destroy() {
    }

    @Override
    SoftContext contextOf() {
        return context;
    }
}
