package org.softrnic.nic.cm;

import java.net.InetSocketAddress;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.PortSpace;

/** One rdma_cm id on a device (the kernel's rdma_id_private): its addresses, its CM id, its QP, its PSN. */
public final class CmaId {
    final PortSpace ps;
    CmaState state = CmaState.IDLE;
    /** The consumer's object for this id (the public CmId). */
    public Object context;
    /** Volatile: a provider's application threads read them while the device's thread sets them. */
    volatile InetSocketAddress local;
    volatile InetSocketAddress peer;
    Gid localGid;
    Gid peerGid;
    Mtu pathMtu;
    IbCmId ib;
    QueuePair qp;
    /** The PSN this side's QP expects first (seq_num): the Starting PSN of its REQ or REP. */
    final int seqNum;
    /** rdma_set_option: the ToS (traffic class) and an ACK timeout that replaces the CM's (-1: none). */
    int tos;
    int ackTimeout = -1;
    /** What connect asked for, kept for the RTS after the REP. */
    ConnParam param;
    /** The REQ a passive id was made for, as its fields are needed at accept. */
    int reqQpn, reqPsn, reqResponderResources, reqInitiatorDepth, reqRetry, reqRnrRetry, reqAckTimeout;
    Mtu reqMtu;
    int reqMtuCode;
    boolean reqSrq;

    CmaId(PortSpace ps, int seqNum, Object context) {
        this.ps = ps;
        this.seqNum = seqNum;
        this.context = context;
    }

    public CmaState state() {
        return state;
    }

    public InetSocketAddress local() {
        return local;
    }

    public InetSocketAddress peer() {
        return peer;
    }

    public QueuePair qp() {
        return qp;
    }

    /** The CM id below, once the id connects or listens. */
    public IbCmId ib() {
        return ib;
    }
}
