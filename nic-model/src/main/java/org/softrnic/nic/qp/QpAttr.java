package org.softrnic.nic.qp;

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

    public QpAttr state(QpState s) {
        this.qpState = s;
        return this;
    }
}
