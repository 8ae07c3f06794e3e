package org.softrnic.verbs;


/** struct ibv_cq. Polling takes no lock and allocates nothing: completions are copied into the caller's objects. */
public interface CompletionQueue extends AutoCloseable {
    /** The number of entries the CQ was created with. */
    int cqe();

    /** ibv_poll_cq: copies up to {@code max} completions into {@code out[0..]}; returns how many. */
    int poll(WorkCompletion[] out, int max);

    default int poll(WorkCompletion[] out) {
        return poll(out, out.length);
    }

    /**
     * ibv_req_notify_cq: the next completion (or, with {@code solicitedOnly}, the next solicited or error
     * completion) raises one event on the CQ's channel.
     */
    void reqNotify(boolean solicitedOnly);

    /** ibv_ack_cq_events. */
    void ackEvents(int n);

    /** ibv_destroy_cq; EBUSY while QPs use it or events are unacknowledged. */
    @Override
    void close();
}
