package org.softrnic.nic.transport;

import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.QpState;
import org.softrnic.wire.frame.FrameTemplate;

/**
 * One QP's transport state, by role as rxe's struct rxe_qp splits it: the requester's and
 * the completer's fields here, {@link #resp} the responder's (its receive WQE and READ/atomic resources); here
 * what they share and, through {@link RespLine}, the record that every request reads: the responder's hot state,
 * the QP attributes it checks, the headers, the addresses the QP talks between and the PD. A request reaches that
 * record by its QPN without this object ({@link RespLine#cursor}).
 */
final class QpContext extends RespLine {
    static final long NEVER = Long.MAX_VALUE;

    final QueuePair qp;
    /** The QP's PD, which never changes (a request's rkey check reads the record's copy). */
    final ProtectionDomain pd;
    final RespState resp;
    /** RC/UC: the peer's GID and the local GID the QP uses; packets must come from the one to the other (rxe check_addr). */
    org.softrnic.verbs.Gid peerGid;
    org.softrnic.verbs.Gid localGid;
    /** The notification point's last CNP for this QP, whether there was one, and marks it owes one for (the paper's rule). */
    long cnpSentAt;
    boolean cnpSent;
    boolean cnpOwed;
    /** The QP's DCQCN reaction point (RC and UC, when the device runs one), or null. */
    org.softrnic.nic.cc.ReactionPoint rp;
    /** When the requester may send its next packet at the reaction point's rate, in nanoseconds. */
    double paceAt;
    /** The requester stopped until {@link #paceAt} (a timer wakes it), or until the port's gate opens ({@link Engine#portReady}). */
    boolean paced;
    boolean portWaiting;
    /** What this QP adds to the device's {@link TxWindow}, and whether it waits there for room. */
    int txCounted;
    /** One past the last PSN sent before the last go-back-N: what a QP resends within the room it kept. */
    int txResendTo;
    boolean txWaiting;

    // ---- the requester's state (rxe's qp->req) and the completer's (qp->comp), fields of the context itself: a
    // post and an ACK read them with the context, not one load after it (with thousands of QPs, each object is
    // another miss in a chain)

    /** The next PSN to send. */
    int reqPsn;
    /** Index, from the send queue's head, of the next WQE the requester works on. */
    int reqIndex;
    /** Packets sent since the last AckReq; rxe asks for an ACK at least every RXE_MAX_PKT_PER_ACK. */
    int noAckPackets;
    int outstandingReadAtomic;
    /**
     * How many WQEs from the send queue's head the requester has started (sent some of) and the completer not
     * yet retired. In SQD only these are served, retransmissions included (rxe's req state DRAIN).
     */
    int reqStarted;
    /** SQD: the drain finished and IBV_EVENT_SQ_DRAINED was dealt with. */
    boolean sqDrained;
    /** The oldest PSN not yet acknowledged. */
    int compPsn;
    int retryLeft;
    /** A go-back-N is under way: further NAKs and out-of-order responses for the same gap are ignored. */
    boolean retrying;
    int rnrRetryLeft;
    /** PSN to restart from when the RNR timer fires. */
    int rnrRetryPsn;
    private long retransmitDeadline = NEVER;
    private long rnrDeadline = NEVER;
    /** The congestion control's next event: a paced packet, the reaction point's timers, a CNP owed. */
    private long ccDeadline = NEVER;
    /** The requester waits for its WQE's ODP pages to be mapped until then. */
    private long faultDeadline = NEVER;
    /** Told of every change to the deadlines, so that it knows which QPs have a timer armed without looking at each. */
    private final Timers timers;

    long retransmitDeadline() {
        return retransmitDeadline;
    }

    long rnrDeadline() {
        return rnrDeadline;
    }

    boolean retransmitArmed() {
        return retransmitDeadline != NEVER;
    }

    /** The local ACK timer at {@code deadline} ({@link #NEVER}: stopped). */
    void retransmitAt(long deadline) {
        long before = nextDeadline();
        retransmitDeadline = deadline;
        timers.moved(before, nextDeadline());
    }

    /** The RNR timer at {@code deadline} ({@link #NEVER}: stopped). */
    void rnrAt(long deadline) {
        long before = nextDeadline();
        rnrDeadline = deadline;
        timers.moved(before, nextDeadline());
    }

    long ccDeadline() {
        return ccDeadline;
    }

    /** The congestion control's next event at {@code deadline} ({@link #NEVER}: none). */
    void ccAt(long deadline) {
        long before = nextDeadline();
        ccDeadline = deadline;
        timers.moved(before, nextDeadline());
    }

    long faultDeadline() {
        return faultDeadline;
    }

    /** The requester's page fault served at {@code deadline} ({@link #NEVER}: none under way). */
    void faultAt(long deadline) {
        long before = nextDeadline();
        faultDeadline = deadline;
        timers.moved(before, nextDeadline());
    }

    /** Every timer stopped: the QP is destroyed or back in RESET. */
    void disarmTimers() {
        retransmitAt(NEVER);
        rnrAt(NEVER);
        ccAt(NEVER);
        faultAt(NEVER);
    }

    /** The earliest of the deadlines. */
    long nextDeadline() {
        return Math.min(Math.min(retransmitDeadline, rnrDeadline), Math.min(ccDeadline, faultDeadline));
    }

    /**
     * The requester's copies of the headers and the UDP source port, which the record holds for the responder: a
     * post reads this object anyway, and on a device that mostly sends the record would be more lines a message.
     */
    FrameTemplate template;
    int udpSourcePort;

    /** RC/UC: the path toward the peer, its headers, and the two GIDs packets must come from and to. */
    void connectPath(FrameTemplate headers, org.softrnic.verbs.Gid peer, org.softrnic.verbs.Gid local) {
        peerGid = peer;
        localGid = local;
        template = headers;
        path(headers, peer, local);
    }

    /** The UDP source port of this QP's packets, set in each over the shared template's. */
    void sourcePort(int port) {
        udpSourcePort = port;
        udpSourcePort(port);
    }

    QpContext(QueuePair qp, Timers timers, QpLines lines) {
        super(lines, qp.pd());
        this.qp = qp;
        this.pd = qp.pd();
        this.timers = timers;
        this.resp = new RespState();
        mirror(qp);
    }

    /**
     * Moves the QP to {@code s}, and its mirror in the record with it: every state change the engine makes goes
     * through here (modify_qp's are mirrored by {@link Engine#modified}).
     */
    void state(QpState s) {
        qp.state(s);
        mirror(qp);
    }
}
