package org.softrnic.nic.transport;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameTemplate;

/**
 * A QP's record ({@link QpLines}): rxe's qp->resp fields that a request reads or writes, the QP's attributes the
 * responder checks it against, mirrored from the {@link QueuePair} whenever they change ({@link #mirror}), and what
 * an answer and the address check need (UDP source port, the peer's and the local IPv4 address, PD, headers), so
 * that a request reads this one record, not the QP's objects. A {@link QpContext} is the view of its own record; a
 * {@link #cursor} is moved from record to record.
 */
class RespLine {
    private static final int PSN = 0;
    private static final int MSN = 4;
    private static final int ACK_PSN = 8;
    private static final int WRITE_RKEY = 12;
    private static final int WRITE_VA = 16;
    /** 64 bits: a receive WQE's buffers may add up to more than 4 GiB. */
    private static final int OFFSET = 24;
    // set from a RETH's 32-bit DMA length, as rxe's u32 resp.resid and resp.length
    private static final int WRITE_REMAINING = 32;
    private static final int WRITE_LENGTH = 36;
    private static final int DEST_QPN = 40;
    private static final int ACCESS_FLAGS = 44;
    private static final int PEER_IPV4 = 48;
    private static final int LOCAL_IPV4 = 52;
    private static final int MTU_BYTES = 56;
    private static final int UDP_SOURCE_PORT = 58;
    private static final int LAST_OPCODE = 60;
    private static final int FLAGS = 61;
    private static final int STATE = 62;
    private static final int TYPE = 63;
    /** In the record's references: the QP's PD and its headers toward the peer. */
    private static final int PD = 0;
    private static final int TEMPLATE = 1;
    /** {@link #LAST_OPCODE} when no packet was accepted: reserved for manufacturers, never one the engine accepts. */
    private static final int NO_OPCODE = 0xff;
    private static final int NAK_SENT = 1;
    private static final int UC_DROPPING = 2;
    /** RC/UC: the QP has its peer's address (rxe check_addr applies), and both its GIDs are IPv4-mapped. */
    private static final int HAS_PEER = 4;
    private static final int IPV4_ADDRESSES = 8;
    private static final QpState[] STATES = QpState.values();
    private static final QpType[] TYPES = QpType.values();

    private final QpLines lines;
    private int slot;
    /** The block of the table that holds the QP's line, and where in it the line starts; its references likewise. */
    private byte[] block;
    private int base;
    private Object[] refs;
    private int refBase;
    private static final VarHandle I = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle L = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle S = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.nativeOrder());

    /** A QP's own record, taken from {@code lines} for its life. */
    RespLine(QpLines lines, ProtectionDomain pd) {
        this.lines = lines;
        place(lines.allocate());
        respLastOpcode(null);
        refs[refBase + PD] = pd;
    }

    private RespLine(QpLines lines) {
        this.lines = lines;
    }

    /**
     * A view that {@link Cursor#at} moves from record to record: the responder reads a request's record through it,
     * found by QPN, without the QP's context object, which lies wherever the collector left it.
     */
    static Cursor cursor(QpLines lines) {
        return new Cursor(lines);
    }

    /** A view that moves; a QP's own view ({@link QpContext}) never does. */
    static final class Cursor extends RespLine {
        private Cursor(QpLines lines) {
            super(lines);
        }

        /** Points this view at {@code slot}'s record. */
        Cursor at(int slot) {
            ((RespLine) this).place(slot); // private to RespLine, so that a QpContext cannot move
            return this;
        }
    }

    private void place(int slot) {
        this.slot = slot;
        this.block = lines.block(slot);
        this.base = QpLines.offset(slot);
        this.refs = lines.refs(slot);
        this.refBase = QpLines.refOffset(slot);
    }

    /** The record's slot in the table. */
    final int slot() {
        return slot;
    }

    /** Gives the line back to the table: the context leaves the engine. */
    final void releaseLines() {
        lines.release(slot);
    }

    /** Copies the attributes the responder reads from {@code qp}: after a modify_qp and each change of state. */
    final void mirror(QueuePair qp) {
        I.set(block, base + DEST_QPN, qp.destQpn());
        S.set(block, base + MTU_BYTES, (short) qp.mtuBytes());
        I.set(block, base + ACCESS_FLAGS, qp.accessFlags());
        block[base + STATE] = (byte) qp.state().ordinal();
        block[base + TYPE] = (byte) qp.type().ordinal();
    }

    /** The QP's state, as {@link #mirror} last copied it. */
    final QpState qpState() { return STATES[block[base + STATE]]; }
    final QpType qpType() { return TYPES[block[base + TYPE]]; }
    final int destQpn() { return (int) I.get(block, base + DEST_QPN); }
    final int mtuBytes() { return (short) S.get(block, base + MTU_BYTES); }
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
    final long respWriteRemaining() { return Integer.toUnsignedLong((int) I.get(block, base + WRITE_REMAINING)); }
    final void respWriteRemaining(long v) { I.set(block, base + WRITE_REMAINING, (int) v); }
    /** The DMA length of the RDMA WRITE in progress, reported as byte_len of a WRITE with immediate. */
    final long respWriteLength() { return Integer.toUnsignedLong((int) I.get(block, base + WRITE_LENGTH)); }
    final void respWriteLength(long v) { I.set(block, base + WRITE_LENGTH, (int) v); }
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

    /** The QP's PD, which never changes: a request's rkey check reads it here. */
    final ProtectionDomain pd() { return (ProtectionDomain) refs[refBase + PD]; }
    /** Headers toward the connected peer (RC, UC), shared with the QPs along the same path; UD takes them per send. */
    final FrameTemplate template() { return (FrameTemplate) refs[refBase + TEMPLATE]; }
    /** The UDP source port of this QP's packets, set in each over the shared template's. */
    final int udpSourcePort() { return (short) S.get(block, base + UDP_SOURCE_PORT) & 0xffff; }
    final void udpSourcePort(int v) { S.set(block, base + UDP_SOURCE_PORT, (short) v); }

    /**
     * RC/UC: the path toward the peer, its headers and, when both GIDs are IPv4-mapped, the two IPv4 addresses
     * packets must come from and to (rxe check_addr), checked on every packet without a look at the GIDs.
     */
    final void path(FrameTemplate headers, Gid peer, Gid local) {
        refs[refBase + TEMPLATE] = headers;
        boolean v4 = peer.isIpv4Mapped() && local.isIpv4Mapped();
        flag(HAS_PEER, true);
        flag(IPV4_ADDRESSES, v4);
        I.set(block, base + PEER_IPV4, v4 ? (int) peer.lo() : 0);
        I.set(block, base + LOCAL_IPV4, v4 ? (int) local.lo() : 0);
    }

    /** Whether packets are checked against a peer's address (RC and UC once connected). */
    final boolean hasPeer() { return flag(HAS_PEER); }
    final boolean ipv4Addresses() { return flag(IPV4_ADDRESSES); }
    final int peerIpv4() { return (int) I.get(block, base + PEER_IPV4); }
    final int localIpv4() { return (int) I.get(block, base + LOCAL_IPV4); }

    private boolean flag(int bit) {
        return (block[base + FLAGS] & bit) != 0;
    }

    private void flag(int bit, boolean v) {
        byte f = block[base + FLAGS];
        block[base + FLAGS] = (byte) (v ? f | bit : f & ~bit);
    }
}
