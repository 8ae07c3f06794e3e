package org.softrnic.verbs;

/**
 * struct ibv_wc, mutable so that callers poll into objects they own and reuse. {@code immData} holds the
 * immediate data (IBV_WC_WITH_IMM) or the invalidated rkey (IBV_WC_WITH_INV).
 */
public final class WorkCompletion {
    public static final int WC_GRH = 1;
    public static final int WC_WITH_IMM = 1 << 1;
    public static final int WC_IP_CSUM_OK = 1 << 2;
    public static final int WC_WITH_INV = 1 << 3;

    public long wrId;
    public WcStatus status;
    public WcOpcode opcode;
    public int vendorErr;
    public int byteLen;
    public int immData;
    public int qpNum;
    public int srcQp;
    public int wcFlags;
    public int pkeyIndex;
    public int slid;
    public int sl;
    public int dlidPathBits;

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
