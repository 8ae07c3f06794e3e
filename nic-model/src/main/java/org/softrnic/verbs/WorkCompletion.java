package org.softrnic.verbs;

/**
 * struct ibv_wc, mutable so that callers poll into objects they own and reuse. {@code immData} holds the
 * immediate data (IBV_WC_WITH_IMM) or the invalidated rkey (IBV_WC_WITH_INV).
 */
public final class WorkCompletion {
    /** IBV_WC_GRH: a UD receive's first 40 bytes hold the packet's GRH (on RoCEv2, the IP header). */
    public static final int WC_GRH = 1;
    /** IBV_WC_WITH_IMM: {@link #immData} holds immediate data. */
    public static final int WC_WITH_IMM = 1 << 1;
    /** IBV_WC_IP_CSUM_OK: the device checked the IP checksum. */
    public static final int WC_IP_CSUM_OK = 1 << 2;
    /** IBV_WC_WITH_INV: {@link #immData} holds the rkey a SEND_WITH_INV invalidated. */
    public static final int WC_WITH_INV = 1 << 3;

    /** The wr_id of the request this completes, as posted. */
    public long wrId;
    /** SUCCESS, or why the request failed (IBV_WC_*); only wrId, status, opcode and qpNum are valid on a failure. */
    public WcStatus status;
    /** What completed (IBV_WC_SEND, IBV_WC_RDMA_WRITE, IBV_WC_RECV, ...). */
    public WcOpcode opcode;
    /** The device's own error detail (vendor_err); 0 on the soft RNIC, whose reasons are in its refusals. */
    public int vendorErr;
    /** Bytes transferred, in bytes: a receive's message length (with the 40-byte GRH on UD), a READ's, an atomic's 8. */
    public int byteLen;
    /** Immediate data (with {@link #WC_WITH_IMM}) or the invalidated rkey (with {@link #WC_WITH_INV}). */
    public int immData;
    /** The local QP's number (qp_num); for an SRQ receive, the QP the message came in on. */
    public int qpNum;
    /** UD receives: the sender's QPN (src_qp). */
    public int srcQp;
    /** The IBV_WC_* flags above, ORed. */
    public int wcFlags;
    /** The P_Key index of a receive (GSI, UD). */
    public int pkeyIndex;
    /** The sender's LID (slid); 0 on RoCE, which has none. */
    public int slid;
    /** The receive's service level (sl). */
    public int sl;
    /** The destination LID's path bits (dlid_path_bits); 0 on RoCE. */
    public int dlidPathBits;

    /** Copies every field of {@code o} into this one; returns this. */
    public WorkCompletion copyFrom(WorkCompletion o) {
        wrId = o.wrId;
        status = o.status;
        opcode = o.opcode;
        vendorErr = o.vendorErr;
        byteLen = o.byteLen;
        immData = o.immData;
        qpNum = o.qpNum;
        srcQp = o.srcQp;
        wcFlags = o.wcFlags;
        pkeyIndex = o.pkeyIndex;
        slid = o.slid;
        sl = o.sl;
        dlidPathBits = o.dlidPathBits;
        return this;
    }

    /** Zeroes every field (status SUCCESS, opcode null); returns this. */
    public WorkCompletion clear() {
        wrId = 0;
        status = WcStatus.SUCCESS;
        opcode = null;
        vendorErr = byteLen = immData = qpNum = srcQp = wcFlags = pkeyIndex = slid = sl = dlidPathBits = 0;
        return this;
    }

    @Override
    public String toString() {
        return "WC[wr_id=" + wrId + " " + (status == null ? null : status.ibvName()) + " " + opcode + " len=" + byteLen
                + " qp=0x" + Integer.toHexString(qpNum) + (srcQp != 0 ? " src_qp=0x" + Integer.toHexString(srcQp) : "")
                + ((wcFlags & WC_WITH_IMM) != 0 ? " imm=0x" + Integer.toHexString(immData) : "")
                + ((wcFlags & WC_WITH_INV) != 0 ? " inv=0x" + Integer.toHexString(immData) : "") + "]";
    }
}
