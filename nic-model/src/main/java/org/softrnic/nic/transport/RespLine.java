package org.softrnic.nic.transport;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.wire.Opcode;

/**
 * A QP context's responder line ({@link QpLines}): rxe's qp->resp fields that a request reads or writes, and
 * the QP's attributes the responder checks it against, mirrored from the {@link QueuePair} whenever they change
 * ({@link #mirror}), so that a request reads this one record (on one line or two), not the QP object too.
 */
abstract class RespLine {
    private static final int PSN = 0;
    private static final int MSN = 4;
    private static final int ACK_PSN = 8;
    private static final int WRITE_RKEY = 12;
    private static final int WRITE_VA = 16;
    private static final int WRITE_REMAINING = 24;
    private static final int WRITE_LENGTH = 32;
    private static final int OFFSET = 40;
    private static final int DEST_QPN = 48;
    private static final int MTU_BYTES = 52;
    private static final int ACCESS_FLAGS = 56;
    private static final int LAST_OPCODE = 60;
    private static final int FLAGS = 61;
    private static final int STATE = 62;
    private static final int TYPE = 63;
    /** {@link #LAST_OPCODE} when no packet was accepted: reserved for manufacturers, never one the engine accepts. */
    private static final int NO_OPCODE = 0xff;
    private static final int NAK_SENT = 1;
    private static final int UC_DROPPING = 2;
    private static final QpState[] STATES = QpState.values();
    private static final QpType[] TYPES = QpType.values();

    private final QpLines lines;
    private final int slot;
    /** The block of the table that holds this QP's line, and where in it the line starts. */
    private final byte[] block;
    private final int base;
    private static final VarHandle I = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle L = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    RespLine(QpLines lines) {
        this.lines = lines;
        this.slot = lines.allocate();
        this.block = lines.block(slot);
        this.base = QpLines.offset(slot);
        respLastOpcode(null);
    }

    /** Gives the line back to the table: the context leaves the engine. */
    final void releaseLines() {
        lines.release(slot);
    }

    /** Copies the attributes the responder reads from {@code qp}: after a modify_qp and each change of state. */
    final void mirror(QueuePair qp) {
        I.set(block, base + DEST_QPN, qp.destQpn());
        I.set(block, base + MTU_BYTES, qp.mtuBytes());
        I.set(block, base + ACCESS_FLAGS, qp.accessFlags());
        block[base + STATE] = (byte) qp.state().ordinal();
        block[base + TYPE] = (byte) qp.type().ordinal();
    }

    /** The QP's state, as {@link #mirror} last copied it. */
    final QpState qpState() { return STATES[block[base + STATE]]; }
    final QpType qpType() { return TYPES[block[base + TYPE]]; }
    final int destQpn() { return (int) I.get(block, base + DEST_QPN); }
    final int mtuBytes() { return (int) I.get(block, base + MTU_BYTES); }
    final int accessFlags() { return (int) I.get(block, base + ACCESS_FLAGS); }

    /** The expected PSN. */
    final int respPsn() { return (int) I.get(block, base + PSN); }
    final void respPsn(int v) { I.set(block, base + PSN, v); }
    final int respMsn() { return (int) I.get(block, base + MSN); }
    final void respMsn(int v) { I.set(block, base + MSN, v); }
    /**
     * One past the PSN of the last SEND, WRITE or atomic executed (rxe's resp.ack_psn): a duplicate SEND or
     * WRITE is acknowledged with the PSN before it, which a READ never is, since READs do not advance it.
     */
    final int respAckPsn() { return (int) I.get(block, base + ACK_PSN); }
    final void respAckPsn(int v) { I.set(block, base + ACK_PSN, v); }
    /** The RDMA WRITE in progress: the RETH's rkey, looked up again for each later packet, address, bytes left. */
    final int respWriteRkey() { return (int) I.get(block, base + WRITE_RKEY); }
    final void respWriteRkey(int v) { I.set(block, base + WRITE_RKEY, v); }
    final long respWriteVa() { return (long) L.get(block, base + WRITE_VA); }
    final void respWriteVa(long v) { L.set(block, base + WRITE_VA, v); }
    final long respWriteRemaining() { return (long) L.get(block, base + WRITE_REMAINING); }
    final void respWriteRemaining(long v) { L.set(block, base + WRITE_REMAINING, v); }
    /** The DMA length of the RDMA WRITE in progress, reported as byte_len of a WRITE with immediate. */
    final long respWriteLength() { return (long) L.get(block, base + WRITE_LENGTH); }
    final void respWriteLength(long v) { L.set(block, base + WRITE_LENGTH, v); }
    /** Bytes of the SEND in progress placed in its receive WQE. */
    final long respOffset() { return (long) L.get(block, base + OFFSET); }
    final void respOffset(long v) { L.set(block, base + OFFSET, v); }

    /** Opcode of the last packet accepted, to check that FIRST is followed by MIDDLE or LAST; null for none. */
    final Opcode respLastOpcode() {
        int code = block[base + LAST_OPCODE] & 0xff;
        return code == NO_OPCODE ? null : Opcode.of(code);
    }

    final void respLastOpcode(Opcode op) {
        block[base + LAST_OPCODE] = (byte) (op == null ? NO_OPCODE : op.value);
    }

    final boolean respNakSent() { return flag(NAK_SENT); }
    final void respNakSent(boolean v) { flag(NAK_SENT, v); }
    /** UC: a message lost a packet; drop until the next FIRST or ONLY. */
    final boolean respUcDropping() { return flag(UC_DROPPING); }
    final void respUcDropping(boolean v) { flag(UC_DROPPING, v); }

    private boolean flag(int bit) {
        return (block[base + FLAGS] & bit) != 0;
    }

    private void flag(int bit, boolean v) {
        byte f = block[base + FLAGS];
        block[base + FLAGS] = (byte) (v ? f | bit : f & ~bit);
    }
}
