package org.softrnic.nic.transport;

import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.QpState;
import org.softrnic.wire.frame.FrameTemplate;

/**
 * One QP's transport state, split by role as rxe's struct rxe_qp splits it: {@link #req} the requester's,
 * {@link #comp} the completer's, {@link #resp} the responder's (its receive WQE and READ/atomic resources); here
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
    final ReqState req;
    final CompState comp;
    /** RC/UC: the peer's GID and the local GID the QP uses; packets must come from the one to the other (rxe check_addr). */
    org.softrnic.verbs.Gid peerGid;
    org.softrnic.verbs.Gid localGid;
    /** What this QP adds to the device's {@link TxWindow}, and whether it waits there for room. */
    int txCounted;
    /** One past the last PSN sent before the last go-back-N: what a QP resends within the room it kept. */
    int txResendTo;
    boolean txWaiting;

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
        // made in this order, so that they lie in it: the requester reads the context and the last two (with
        // thousands of QPs, fewer lines from memory a packet)
        this.resp = new RespState();
        this.req = new ReqState();
        this.comp = new CompState(timers);
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
