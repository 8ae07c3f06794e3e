package org.softrnic.verbs.cm;

import java.time.Duration;

/** struct rdma_event_channel: where the events of the ids made on it arrive, in order. */
public interface EventChannel extends AutoCloseable {
    /** rdma_create_id. */
    CmId createId(PortSpace ps);

    /** rdma_get_cm_event, waiting at most {@code timeout}; null when none came. */
    CmEvent getEvent(Duration timeout) throws InterruptedException;

    /** rdma_destroy_event_channel; its ids must be closed first. */
    @Override
    void close();
}
