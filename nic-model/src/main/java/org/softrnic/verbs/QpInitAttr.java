package org.softrnic.verbs;


/**
 * struct ibv_qp_init_attr.
 *
 * @param srq      null for a QP with its own receive queue
 * @param sqSigAll every send completes with a work completion, as sq_sig_all
 */
public record QpInitAttr(QpType type, CompletionQueue sendCq, CompletionQueue recvCq, SharedReceiveQueue srq, QpCaps caps,
                         boolean sqSigAll) {
    public static QpInitAttr rc(CompletionQueue cq, QpCaps caps) {
        return new QpInitAttr(QpType.RC, cq, cq, null, caps, false);
    }
}
