package org.softrnic.nic.transport;

/** The completer's state of one QP (rxe's qp->comp): the oldest unacknowledged PSN, retries and timers. */
final class CompState {
    /** The oldest PSN not yet acknowledged. */
    int psn;
    int retryLeft;
    /** A go-back-N is under way: further NAKs and out-of-order responses for the same gap are ignored. */
    boolean retrying;
    int rnrRetryLeft;
    /** PSN to restart from when the RNR timer fires. */
    int rnrRetryPsn;
    private long retransmitDeadline = QpContext.NEVER;
    private long rnrDeadline = QpContext.NEVER;
    /** Told of every change, so that it knows which QPs have a timer armed without looking at each. */
    private final Timers timers;

    CompState(Timers timers) {
        this.timers = timers;
    }

    long retransmitDeadline() {
        return retransmitDeadline;
    }

    long rnrDeadline() {
        return rnrDeadline;
    }

    boolean retransmitArmed() {
        return retransmitDeadline != QpContext.NEVER;
    }

    /** The local ACK timer at {@code deadline} ({@link QpContext#NEVER}: stopped). */
    void retransmitAt(long deadline) {
        long before = next();
        retransmitDeadline = deadline;
        timers.moved(before, next());
    }

    /** The RNR timer at {@code deadline} ({@link QpContext#NEVER}: stopped). */
    void rnrAt(long deadline) {
        long before = next();
        rnrDeadline = deadline;
        timers.moved(before, next());
    }

    /** Both timers stopped: the QP is destroyed or back in RESET. */
    void disarm() {
        retransmitAt(QpContext.NEVER);
        rnrAt(QpContext.NEVER);
    }

    /** The earlier of the two deadlines. */
    long next() {
        return Math.min(retransmitDeadline, rnrDeadline);
    }
}
