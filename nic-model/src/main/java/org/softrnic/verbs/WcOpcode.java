package org.softrnic.verbs;

/** enum ibv_wc_opcode, with rdma-core's values. Receive-side opcodes have bit 7 set. */
public enum WcOpcode {
    SEND(0), RDMA_WRITE(1), RDMA_READ(2), COMP_SWAP(3), FETCH_ADD(4), BIND_MW(5), LOCAL_INV(6), TSO(7), FLUSH(8),
    ATOMIC_WRITE(9), RECV(128), RECV_RDMA_WITH_IMM(129),
    /** Completion of a fast-register MR request (the kernel's IB_WC_REG_MR; no user-space value exists). */
    REG_MR(0x100);

    public final int value;

    WcOpcode(int value) {
        this.value = value;
    }
}
