package org.softrnic.verbs;

import java.time.Duration;

/**
 * An open device (struct ibv_context): queries, the objects that hang off the context, and async events.
 * Closing it while PDs, CQs or channels are still open fails with EBUSY and lists them.
 */
public interface RdmaContext extends AutoCloseable {
    RdmaDevice device();

    /** ibv_query_device. */
    DeviceAttributes queryDevice();

    /** ibv_query_port; ports count from 1. */
    PortAttr queryPort(int port);

    /** ibv_query_gid; EINVAL for an empty or absent index. */
    Gid queryGid(int port, int index);

    /** ibv_alloc_pd. */
    ProtectionDomain allocPd();

    /** ibv_create_comp_channel. */
    CompletionChannel createCompChannel();

    /** ibv_create_cq with {@code cqe} entries, reporting events to {@code channel} (may be null). */
    CompletionQueue createCq(int cqe, CompletionChannel channel);

    default CompletionQueue createCq(int cqe) {
        return createCq(cqe, null);
    }

    /**
     * ibv_get_async_event: the next affiliated or unaffiliated event, waiting at most {@code timeout}; null
     * when none came. The event's subject is this API's object (a QueuePair, CompletionQueue or
     * SharedReceiveQueue), or null for a port or device event.
     */
    AsyncEvent getAsyncEvent(Duration timeout) throws InterruptedException;

    /** ibv_close_device. */
    @Override
    void close();
}
