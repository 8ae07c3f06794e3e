package org.softrnic.verbs;

/** struct ibv_qp_cap: queue sizes the QP was created with. */
public record QpCaps(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
    public static QpCaps of(int maxSendWr, int maxRecvWr) {
        return new QpCaps(maxSendWr, maxRecvWr, 4, 4, 64);
    }
}
