package org.softrnic.verbs;

import java.time.Duration;

/**
 * struct ibv_comp_channel: where armed CQs report. The usual loop: {@link CompletionQueue#reqNotify}, poll
 * until empty, {@link #getCqEvent}, {@link CompletionQueue#ackEvents}, arm again, poll again.
 */
public interface CompletionChannel extends AutoCloseable {
    /**
     * ibv_get_cq_event: waits until an armed CQ of this channel gets a completion that matches its arming,
     * at most {@code timeout}; returns that CQ, or null on timeout. Every event must be acknowledged.
     */
    CompletionQueue getCqEvent(Duration timeout) throws InterruptedException;

    /** ibv_destroy_comp_channel; EBUSY while CQs use it. */
    @Override
    void close();
}
