package org.softrnic.verbs;


/** enum ibv_wr_opcode, with rdma-core's values and the completion opcode each one reports. */
public enum SendOpcode {
    RDMA_WRITE(0, WcOpcode.RDMA_WRITE),
    RDMA_WRITE_WITH_IMM(1, WcOpcode.RDMA_WRITE),
    SEND(2, WcOpcode.SEND),
    SEND_WITH_IMM(3, WcOpcode.SEND),
    RDMA_READ(4, WcOpcode.RDMA_READ),
    ATOMIC_CMP_AND_SWP(5, WcOpcode.COMP_SWAP),
    ATOMIC_FETCH_AND_ADD(6, WcOpcode.FETCH_ADD),
    LOCAL_INV(7, WcOpcode.LOCAL_INV),
    BIND_MW(8, WcOpcode.BIND_MW),
    SEND_WITH_INV(9, WcOpcode.SEND),
    FLUSH(14, WcOpcode.FLUSH),
    ATOMIC_WRITE(15, WcOpcode.ATOMIC_WRITE),
    /** Fast-register MR: the kernel verbs' IB_WR_REG_MR (0x20); rdma-core has no user-space counterpart. */
    REG_MR(0x20, WcOpcode.REG_MR);

    public final int value;
    public final WcOpcode wcOpcode;

    SendOpcode(int value, WcOpcode wcOpcode) {
        this.value = value;
        this.wcOpcode = wcOpcode;
    }

    public boolean isSend() {
        return this == SEND || this == SEND_WITH_IMM || this == SEND_WITH_INV;
    }

    public boolean isWrite() {
        return this == RDMA_WRITE || this == RDMA_WRITE_WITH_IMM;
    }

    public boolean isAtomic() {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }

    /** Operations that need a response with data and count against max_rd_atomic. */
    public boolean isReadOrAtomic() {
        return this == RDMA_READ || isAtomic();
    }

    /** Requests answered by a response the completer waits for (READ, atomics, FLUSH, ATOMIC_WRITE). */
    public boolean needsResponse() {
        return isReadOrAtomic() || this == FLUSH || this == ATOMIC_WRITE;
    }

    public boolean isLocal() {
        return this == LOCAL_INV || this == BIND_MW || this == REG_MR;
    }

    public boolean hasImmediate() {
        return this == RDMA_WRITE_WITH_IMM || this == SEND_WITH_IMM;
    }
}
