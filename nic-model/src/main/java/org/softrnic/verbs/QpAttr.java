package org.softrnic.verbs;

/** struct ibv_qp_attr: what ibv_modify_qp sets, selected by a {@link QpAttrMask}. Mutable and reusable. */
public final class QpAttr {
    public QpState qpState = QpState.RESET;
    public QpState curQpState = QpState.RESET;
    public boolean sqDrainNotify;
    public int qpAccessFlags;
    public int pkeyIndex;
    public int portNum = 1;
    public int qkey;
    public AddressVector ahAttr;
    public Mtu pathMtu = Mtu.MTU_1024;
    /** Local ACK timeout: 4.096 us x 2^timeout; 0 means infinite (IBTA 9.7.6.1.3). */
    public int timeout;
    public int retryCnt;
    /** RNR retries; 7 means infinite. */
    public int rnrRetry;
    public int rqPsn;
    public int maxRdAtomic;
    /** The RNR NAK timer code (5 bits) this QP's responder sends. */
    public int minRnrTimer;
    public int sqPsn;
    public int maxDestRdAtomic;
    public int destQpNum;

    /** A copy, as ibv_query_qp fills the caller's struct. */
    public QpAttr copy() {
        QpAttr a = new QpAttr();
        a.qpState = qpState;
        a.curQpState = curQpState;
        a.sqDrainNotify = sqDrainNotify;
        a.qpAccessFlags = qpAccessFlags;
        a.pkeyIndex = pkeyIndex;
        a.portNum = portNum;
        a.qkey = qkey;
        a.ahAttr = ahAttr;
        a.pathMtu = pathMtu;
        a.timeout = timeout;
        a.retryCnt = retryCnt;
        a.rnrRetry = rnrRetry;
        a.rqPsn = rqPsn;
        a.maxRdAtomic = maxRdAtomic;
        a.minRnrTimer = minRnrTimer;
        a.sqPsn = sqPsn;
        a.maxDestRdAtomic = maxDestRdAtomic;
        a.destQpNum = destQpNum;
        return a;
    }

    public QpAttr state(QpState s) {
        this.qpState = s;
        return this;
    }

    /**
     * What perftest sets to connect an RC QP (for {@code Nic.modifyToRts}): local write and every remote
     * access, 16 RDMA reads/atomics each way, min_rnr_timer 12 (0.64 ms), timeout 14 (67 ms), 7 retries and
     * unlimited RNR retries. Callers adjust fields before use.
     */
    public static QpAttr rcConnect(Gid dgid, int destQpNum, Mtu pathMtu) {
        QpAttr a = new QpAttr();
        a.qpAccessFlags = org.softrnic.verbs.Access.LOCAL_WRITE | org.softrnic.verbs.Access.REMOTE_ANY;
        a.ahAttr = AddressVector.to(dgid);
        a.pathMtu = pathMtu;
        a.destQpNum = destQpNum;
        a.maxDestRdAtomic = 16;
        a.maxRdAtomic = 16;
        a.minRnrTimer = 12;
        a.timeout = 14;
        a.retryCnt = 7;
        a.rnrRetry = 7;
        return a;
    }
}
