package org.softrnic.nic.transport;

import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.QpState;
import org.softrnic.wire.frame.FrameTemplate;

/**
 * One QP's transport state, split by role as rxe's struct rxe_qp splits it: {@link #req} the requester's,
 * {@link #comp} the completer's, {@link #resp} the responder's (its receive WQE and READ/atomic resources); here
 * what they share (the headers, the addresses the QP talks between, the PD) and, through {@link RespLine}, the
 * record that every request reads: the responder's hot state and the QP attributes it checks.
 */
final class QpContext extends RespLine {
    static final long NEVER = Long.MAX_VALUE;

    final QueuePair qp;
    /** The QP's PD, which never changes: a request's rkey check reads it here, not in the QP. */
    final ProtectionDomain pd;
    final RespState resp;
    final ReqState req;
    final CompState comp;
    /** Headers toward the connected peer (RC, UC), shared with the QPs along the same path; UD takes them per send. */
    FrameTemplate template;
    /** The UDP source port of this QP's packets, set in each over the shared template's. */
    int udpSourcePort;
    /** RC/UC: the peer's GID and the local GID the QP uses; packets must come from the one to the other (rxe check_addr). */
    org.softrnic.verbs.Gid peerGid;
    org.softrnic.verbs.Gid localGid;
    /** Both GIDs IPv4-mapped, and their IPv4 addresses: checked on every packet without a look at the Gids. */
    boolean ipv4Addresses;
    int peerIpv4;
    int localIpv4;
    /** What this QP adds to the device's {@link TxWindow}, and whether it waits there for room. */
    int txCounted;
    /** One past the last PSN sent before the last go-back-N: what a QP resends within the room it kept. */
    int txResendTo;
    boolean txWaiting;

    /** Takes the IPv4 addresses out of {@link #peerGid} and {@link #localGid}, once they are set. */
    void addresses() {
        ipv4Addresses = peerGid != null && localGid != null && peerGid.isIpv4Mapped() && localGid.isIpv4Mapped();
        peerIpv4 = ipv4Addresses ? (int) peerGid.lo() : 0;
        localIpv4 = ipv4Addresses ? (int) localGid.lo() : 0;
    }

    QpContext(QueuePair qp, Timers timers, QpLines lines) {
        super(lines);
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
