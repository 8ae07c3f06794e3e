package org.softrnic.verbs;

import java.util.EnumSet;
import java.util.Set;

/**
 * enum ibv_wr_opcode, with rdma-core's values: one row per opcode, as rxe's rxe_wr_opcode_info table has
 * them: the completion opcode it reports, the QP types that may post it, and what kind of request it is.
 */
public enum SendOpcode {
    RDMA_WRITE(0, WcOpcode.RDMA_WRITE, Kinds.RC_UC, Kinds.WRITE),
    RDMA_WRITE_WITH_IMM(1, WcOpcode.RDMA_WRITE, Kinds.RC_UC, Kinds.WRITE | Kinds.IMM),
    SEND(2, WcOpcode.SEND, Kinds.ALL, Kinds.SEND_KIND),
    SEND_WITH_IMM(3, WcOpcode.SEND, Kinds.ALL, Kinds.SEND_KIND | Kinds.IMM),
    RDMA_READ(4, WcOpcode.RDMA_READ, Kinds.RC_ONLY, Kinds.READ | Kinds.RESPONSE),
    ATOMIC_CMP_AND_SWP(5, WcOpcode.COMP_SWAP, Kinds.RC_ONLY, Kinds.ATOMIC | Kinds.RESPONSE),
    ATOMIC_FETCH_AND_ADD(6, WcOpcode.FETCH_ADD, Kinds.RC_ONLY, Kinds.ATOMIC | Kinds.RESPONSE),
    LOCAL_INV(7, WcOpcode.LOCAL_INV, Kinds.RC_UC, Kinds.LOCAL),
    BIND_MW(8, WcOpcode.BIND_MW, Kinds.RC_UC, Kinds.LOCAL),
    /** UC has no SEND with invalidate opcodes (IBTA 9.2, rxe's next_opcode_uc). */
    SEND_WITH_INV(9, WcOpcode.SEND, Kinds.RC_ONLY, Kinds.SEND_KIND),
    FLUSH(14, WcOpcode.FLUSH, Kinds.RC_ONLY, Kinds.RESPONSE),
    ATOMIC_WRITE(15, WcOpcode.ATOMIC_WRITE, Kinds.RC_ONLY, Kinds.RESPONSE),
    /** Fast-register MR: the kernel verbs' IB_WR_REG_MR (0x20); rdma-core has no user-space counterpart. */
    REG_MR(0x20, WcOpcode.REG_MR, Kinds.RC_UC, Kinds.LOCAL);

    public final int value;
    public final WcOpcode wcOpcode;
    private final Set<QpType> postableOn;
    private final int kind;

    SendOpcode(int value, WcOpcode wcOpcode, String qpTypes, int kind) {
        this.value = value;
        this.wcOpcode = wcOpcode;
        this.postableOn = Kinds.types(qpTypes);
        this.kind = kind;
    }

    /** The table's columns: the QP types spelt once, and what kind of request a row is (rxe's WR_*_MASK bits). */
    private static final class Kinds {
        static final String ALL = "RC UC UD";
        static final String RC_UC = "RC UC";
        static final String RC_ONLY = "RC";
        static final int SEND_KIND = 1;
        static final int WRITE = 1 << 1;
        static final int READ = 1 << 2;
        static final int ATOMIC = 1 << 3;
        static final int LOCAL = 1 << 4;
        static final int IMM = 1 << 5;
        /** Answered by a response the completer waits for (READ, atomics, FLUSH, ATOMIC_WRITE). */
        static final int RESPONSE = 1 << 6;

        static Set<QpType> types(String names) {
            Set<QpType> s = EnumSet.noneOf(QpType.class);
            for (String n : names.split(" ")) s.add(QpType.valueOf(n));
            return s;
        }
    }

    /** Whether a QP of {@code type} may post this opcode (else ibv_post_send is EINVAL). */
    public boolean postableOn(QpType type) {
        return postableOn.contains(type);
    }

    public boolean isSend() {
        return (kind & Kinds.SEND_KIND) != 0;
    }

    public boolean isWrite() {
        return (kind & Kinds.WRITE) != 0;
    }

    public boolean isAtomic() {
        return (kind & Kinds.ATOMIC) != 0;
    }

    /** Operations that need a response with data and count against max_rd_atomic. */
    public boolean isReadOrAtomic() {
        return (kind & (Kinds.READ | Kinds.ATOMIC)) != 0;
    }

    /** Requests answered by a response the completer waits for (READ, atomics, FLUSH, ATOMIC_WRITE). */
    public boolean needsResponse() {
        return (kind & Kinds.RESPONSE) != 0;
    }

    public boolean isLocal() {
        return (kind & Kinds.LOCAL) != 0;
    }

    public boolean hasImmediate() {
        return (kind & Kinds.IMM) != 0;
    }
}
