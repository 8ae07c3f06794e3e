package org.softrnic.nic.transport;

/** The completer's state of one QP (rxe's qp->comp): the oldest unacknowledged PSN, retries and timers. */
final class CompState {
    /** The oldest PSN not yet acknowledged. */
    int psn;
    int retryLeft;
    /** A go-back-N is under way: further NAKs and out-of-order responses for the same gap are ignored. */
    boolean retrying;
    int rnrRetryLeft;
    long retransmitDeadline = QpContext.NEVER;
    long rnrDeadline = QpContext.NEVER;
    /** PSN to restart from when the RNR timer fires. */
    int rnrRetryPsn;

    boolean retransmitArmed() {
        return retransmitDeadline != QpContext.NEVER;
    }
}
