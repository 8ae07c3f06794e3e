package org.softrnic.verbs;


/** struct ibv_srq. */
public interface SharedReceiveQueue extends AutoCloseable {
    /** ibv_post_srq_recv: the request is copied, so the caller may reuse it at once. */
    void postRecv(RecvWr wr);

    /** ibv_modify_srq with IBV_SRQ_LIMIT: arms IBV_EVENT_SRQ_LIMIT_REACHED. */
    void arm(int srqLimit);

    /** ibv_destroy_srq; EBUSY while QPs use it. */
    @Override
    void close();
}
