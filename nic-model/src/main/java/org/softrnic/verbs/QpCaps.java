package org.softrnic.verbs;

/**
 * struct ibv_qp_cap: the sizes a QP is created with, each a count, as {@code ibv_create_qp} takes them. The
 * device may round a size up; {@link QueuePair#query()} gives what it made. Limits: {@link DeviceAttributes}.
 *
 * @param maxSendWr     send queue depth: work requests posted and not yet completed (max_send_wr)
 * @param maxRecvWr     receive queue depth: receives posted and not yet consumed (max_recv_wr); 0 with an SRQ
 * @param maxSendSge    scatter/gather entries per send request (max_send_sge): {@code new SendWr(n)} needs n at most this
 * @param maxRecvSge    scatter/gather entries per receive request (max_recv_sge): {@code new RecvWr(n)} likewise
 * @param maxInlineData bytes a request flagged {@link SendFlags#INLINE} may carry, copied at post (max_inline_data)
 */
public record QpCaps(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
    /**
     * The common case: the given queue depths, 4 SGEs per request each way and 64 bytes of inline data.
     *
     * @param maxSendWr send queue depth, in work requests
     * @param maxRecvWr receive queue depth, in work requests
     */
    public static QpCaps of(int maxSendWr, int maxRecvWr) {
        return new QpCaps(maxSendWr, maxRecvWr, 4, 4, 64);
    }
}
