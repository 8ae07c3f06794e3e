package org.softrnic.nic.qp;

import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;

/**
 * A queue pair's objects and attributes: its queues, CQs, PD, state and the attributes modify_qp set.
 * The transport engine keeps its per-role progress elsewhere (org.softrnic.nic.transport).
 */
public final class QueuePair implements Ring.Watcher<SendWqe> {
    private final int qpn;
    private final QpType type;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final SharedReceiveQueue srq;
    private final QpCaps caps;
    private final boolean sqSigAll;
    private final Ring<SendWqe> sq;
    private final Ring<RecvWqe> rq;
    private final QpAttr attr;
    /** Volatile: a provider checks posts against it on application threads. */
    private volatile QpState state = QpState.RESET;
    /** Set when the device destroyed it: a post still on its way to the device is refused. */
    private volatile boolean destroyed;

    public QueuePair(int qpn, QpType type, ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq,
                     SharedReceiveQueue srq, QpCaps caps, boolean sqSigAll) {
        this.qpn = qpn;
        this.type = type;
        this.pd = pd;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.srq = srq;
        this.caps = caps;
        this.sqSigAll = sqSigAll;
        this.sq = new Ring<>(caps.maxSendWr(), i -> new SendWqe(caps.maxSendSge(), caps.maxInlineData()));
        this.rq = srq == null ? new Ring<>(caps.maxRecvWr(), i -> new RecvWqe(caps.maxRecvSge())) : null;
        // last: a post reads the QP's own copies of the hot attributes (below), so the object that holds them
        // all, read by UD's Q_Key check and the error paths, need not lie between the QP and its rings
        this.attr = new QpAttr();
        sq.watch(this);
    }

    /** The send queue's oldest WQE as its ring last told: an ACK reads it from here, beside the ring. */
    private SendWqe sqHead;

    /** The send queue's oldest live WQE ({@link Ring#head}), or null when none is live. */
    public SendWqe sqHead() { return sqHead; }

    /** The send queue's ring moved its head; only the ring calls this. */
    @Override
    public void headMoved(SendWqe head) {
        sqHead = head;
    }

    public int qpn() { return qpn; }
    public QpType type() { return type; }
    public ProtectionDomain pd() { return pd; }
    public CompletionQueue sendCq() { return sendCq; }
    public CompletionQueue recvCq() { return recvCq; }
    public SharedReceiveQueue srq() { return srq; }
    public QpCaps caps() { return caps; }
    public boolean sqSigAll() { return sqSigAll; }
    public Ring<SendWqe> sq() { return sq; }
    /** The QP's own receive queue, or null when it receives from an SRQ. */
    public Ring<RecvWqe> rq() { return rq; }
    /**
     * The attributes as last set (what ibv_query_qp returns). Read-only: they change through {@link #apply},
     * which keeps this QP's copies of the hot ones equal to them; the engine only swaps the address
     * vector for the equal one its paths hold, so that QPs along one path share it.
     */
    public QpAttr attr() { return attr; }
    public QpState state() { return state; }
    /** Whether ibv_destroy_qp took it off its device. */
    public boolean destroyed() { return destroyed; }
    public void markDestroyed() { destroyed = true; }

    /**
     * Sets the state. The engine mirrors the state and the attributes its responder checks in a record of its own:
     * only ibv_modify_qp (which tells the engine) and the engine itself may call this.
     */
    public void state(QpState s) {
        this.state = s;
        attr.qpState = s;
        attr.curQpState = s;
    }

    /** The path MTU in bytes; UD QPs use the port's active MTU, which the device sets here at RTR. */
    public int mtuBytes() {
        return mtuBytes;
    }

    /**
     * The attributes a post and the requester read, kept beside the QP's other hot fields: the attributes are
     * another object, another cache miss a packet when thousands of QPs take turns. {@link #apply} keeps them
     * equal. (The responder reads its own mirror of them in the engine.)
     */
    private int mtuBytes = Mtu.MTU_1024.bytes;
    private int destQpn;
    private int accessFlags;
    private int maxRdAtomic;
    private int ackTimeout;
    private int retryCnt;
    private int rnrRetry;

    /** The connected peer's QPN (dest_qp_num). */
    public int destQpn() { return destQpn; }
    /** qp_access_flags: what the responder lets remote requests do. */
    public int accessFlags() { return accessFlags; }
    /** max_rd_atomic: READs and atomics the requester keeps outstanding. */
    public int maxRdAtomic() { return maxRdAtomic; }
    /** The local ACK timeout's exponent (timeout). */
    public int ackTimeout() { return ackTimeout; }
    /** retry_cnt: how often a request is sent again after a timeout or a sequence NAK. */
    public int retryCnt() { return retryCnt; }
    /** rnr_retry: how often after an RNR NAK; 7 is for ever. */
    public int rnrRetry() { return rnrRetry; }

    /** Sets the path MTU (the device's, for UD at RTR). */
    public void pathMtu(Mtu mtu) {
        attr.pathMtu = mtu;
        mtuBytes = mtu.bytes;
    }

    @Override
    public String toString() {
        return type + " QP 0x" + Integer.toHexString(qpn) + " " + state;
    }

    /** ibv_modify_qp's effect on the attributes: the ones {@code mask} names are taken from {@code a}. */
    public void apply(QpAttr a, int mask) {
        QpAttr q = attr;
        if ((mask & QpAttrMask.ACCESS_FLAGS) != 0) q.qpAccessFlags = accessFlags = a.qpAccessFlags;
        if ((mask & QpAttrMask.PKEY_INDEX) != 0) q.pkeyIndex = a.pkeyIndex;
        if ((mask & QpAttrMask.PORT) != 0) q.portNum = a.portNum;
        if ((mask & QpAttrMask.QKEY) != 0) q.qkey = a.qkey;
        if ((mask & QpAttrMask.AV) != 0) q.ahAttr = a.ahAttr;
        if ((mask & QpAttrMask.PATH_MTU) != 0) pathMtu(a.pathMtu);
        if ((mask & QpAttrMask.TIMEOUT) != 0) q.timeout = ackTimeout = a.timeout;
        if ((mask & QpAttrMask.RETRY_CNT) != 0) q.retryCnt = retryCnt = a.retryCnt;
        if ((mask & QpAttrMask.RNR_RETRY) != 0) q.rnrRetry = rnrRetry = a.rnrRetry;
        if ((mask & QpAttrMask.RQ_PSN) != 0) q.rqPsn = a.rqPsn & 0xffffff;
        if ((mask & QpAttrMask.MAX_QP_RD_ATOMIC) != 0) q.maxRdAtomic = maxRdAtomic = a.maxRdAtomic;
        if ((mask & QpAttrMask.MIN_RNR_TIMER) != 0) q.minRnrTimer = a.minRnrTimer;
        if ((mask & QpAttrMask.SQ_PSN) != 0) q.sqPsn = a.sqPsn & 0xffffff;
        if ((mask & QpAttrMask.MAX_DEST_RD_ATOMIC) != 0) q.maxDestRdAtomic = a.maxDestRdAtomic;
        if ((mask & QpAttrMask.DEST_QPN) != 0) q.destQpNum = destQpn = a.destQpNum;
        if ((mask & QpAttrMask.EN_SQD_ASYNC_NOTIFY) != 0) q.sqDrainNotify = a.sqDrainNotify;
    }
}
