package org.softrnic.emulator.cq;

import java.util.concurrent.atomic.AtomicInteger;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;

/**
 * A CQ's completion events handed out by its channel and not yet acknowledged, as rdma-core counts them:
 * acknowledging more than are outstanding is EINVAL, and destroying the CQ while some are is EBUSY (rdma-core
 * would wait for them for ever).
 */
public final class CqEventCount {
    private final AtomicInteger unacked = new AtomicInteger();

    public void delivered() {
        unacked.incrementAndGet();
    }

    /** ibv_ack_cq_events' count; lock-free, for any thread. */
    public void ack(int n) {
        while (true) {
            int have = unacked.get();
            if (n < 0 || n > have) {
                throw new VerbsException("ibv_ack_cq_events", Errno.EINVAL, "acknowledging " + n + " events, but " + have + " are outstanding");
            }
            if (unacked.compareAndSet(have, have - n)) return;
        }
    }

    /** Before ibv_destroy_cq: EBUSY while events are outstanding. */
    public void checkNoneOutstanding(String cq) {
        int n = unacked.get();
        if (n > 0) throw new VerbsException("ibv_destroy_cq", Errno.EBUSY, cq + " has " + n + " unacknowledged events");
    }
}
