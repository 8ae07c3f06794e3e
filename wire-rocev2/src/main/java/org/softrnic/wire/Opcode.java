package org.softrnic.wire;

import static org.softrnic.wire.HeaderKind.AETH;
import static org.softrnic.wire.HeaderKind.ATOMIC_ACK_ETH;
import static org.softrnic.wire.HeaderKind.ATOMIC_ETH;
import static org.softrnic.wire.HeaderKind.CNP_PAD;
import static org.softrnic.wire.HeaderKind.DETH;
import static org.softrnic.wire.HeaderKind.FETH;
import static org.softrnic.wire.HeaderKind.IETH;
import static org.softrnic.wire.HeaderKind.IMMDT;
import static org.softrnic.wire.HeaderKind.RDETH;
import static org.softrnic.wire.HeaderKind.RETH;

import java.util.Arrays;
import java.util.List;

/**
 * The one table of BTH opcodes (IBTA 1.5 table 38, rxe_opcode.c, RoCEv2 Annex A17 for the CNP).
 * Every other part of softrnic asks this table; no second list of opcodes exists.
 *
 * <p>Each row: wire value, what the opcode does, its place in a message, whether a payload follows the
 * headers, and the extended headers after the BTH in wire order. RD rows are for decoding only.
 */
public enum Opcode {
    RC_SEND_FIRST(0x00, OpClass.SEND, Position.FIRST, true),
    RC_SEND_MIDDLE(0x01, OpClass.SEND, Position.MIDDLE, true),
    RC_SEND_LAST(0x02, OpClass.SEND, Position.LAST, true),
    RC_SEND_LAST_WITH_IMMEDIATE(0x03, OpClass.SEND, Position.LAST, true, IMMDT),
    RC_SEND_ONLY(0x04, OpClass.SEND, Position.ONLY, true),
    RC_SEND_ONLY_WITH_IMMEDIATE(0x05, OpClass.SEND, Position.ONLY, true, IMMDT),
    RC_RDMA_WRITE_FIRST(0x06, OpClass.RDMA_WRITE, Position.FIRST, true, RETH),
    RC_RDMA_WRITE_MIDDLE(0x07, OpClass.RDMA_WRITE, Position.MIDDLE, true),
    RC_RDMA_WRITE_LAST(0x08, OpClass.RDMA_WRITE, Position.LAST, true),
    RC_RDMA_WRITE_LAST_WITH_IMMEDIATE(0x09, OpClass.RDMA_WRITE, Position.LAST, true, IMMDT),
    RC_RDMA_WRITE_ONLY(0x0a, OpClass.RDMA_WRITE, Position.ONLY, true, RETH),
    RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE(0x0b, OpClass.RDMA_WRITE, Position.ONLY, true, RETH, IMMDT),
    RC_RDMA_READ_REQUEST(0x0c, OpClass.RDMA_READ_REQUEST, Position.ONLY, false, RETH),
    RC_RDMA_READ_RESPONSE_FIRST(0x0d, OpClass.RDMA_READ_RESPONSE, Position.FIRST, true, AETH),
    RC_RDMA_READ_RESPONSE_MIDDLE(0x0e, OpClass.RDMA_READ_RESPONSE, Position.MIDDLE, true),
    RC_RDMA_READ_RESPONSE_LAST(0x0f, OpClass.RDMA_READ_RESPONSE, Position.LAST, true, AETH),
    RC_RDMA_READ_RESPONSE_ONLY(0x10, OpClass.RDMA_READ_RESPONSE, Position.ONLY, true, AETH),
    RC_ACKNOWLEDGE(0x11, OpClass.ACKNOWLEDGE, Position.ONLY, false, AETH),
    RC_ATOMIC_ACKNOWLEDGE(0x12, OpClass.ATOMIC_ACKNOWLEDGE, Position.ONLY, false, AETH, ATOMIC_ACK_ETH),
    RC_COMPARE_SWAP(0x13, OpClass.ATOMIC, Position.ONLY, false, ATOMIC_ETH),
    RC_FETCH_ADD(0x14, OpClass.ATOMIC, Position.ONLY, false, ATOMIC_ETH),
    RC_SEND_LAST_WITH_INVALIDATE(0x16, OpClass.SEND, Position.LAST, true, IETH),
    RC_SEND_ONLY_WITH_INVALIDATE(0x17, OpClass.SEND, Position.ONLY, true, IETH),
    RC_FLUSH(0x1c, OpClass.FLUSH, Position.ONLY, false, FETH, RETH),
    RC_ATOMIC_WRITE(0x1d, OpClass.ATOMIC_WRITE, Position.ONLY, true, RETH),

    UC_SEND_FIRST(0x20, OpClass.SEND, Position.FIRST, true),
    UC_SEND_MIDDLE(0x21, OpClass.SEND, Position.MIDDLE, true),
    UC_SEND_LAST(0x22, OpClass.SEND, Position.LAST, true),
    UC_SEND_LAST_WITH_IMMEDIATE(0x23, OpClass.SEND, Position.LAST, true, IMMDT),
    UC_SEND_ONLY(0x24, OpClass.SEND, Position.ONLY, true),
    UC_SEND_ONLY_WITH_IMMEDIATE(0x25, OpClass.SEND, Position.ONLY, true, IMMDT),
    UC_RDMA_WRITE_FIRST(0x26, OpClass.RDMA_WRITE, Position.FIRST, true, RETH),
    UC_RDMA_WRITE_MIDDLE(0x27, OpClass.RDMA_WRITE, Position.MIDDLE, true),
    UC_RDMA_WRITE_LAST(0x28, OpClass.RDMA_WRITE, Position.LAST, true),
    UC_RDMA_WRITE_LAST_WITH_IMMEDIATE(0x29, OpClass.RDMA_WRITE, Position.LAST, true, IMMDT),
    UC_RDMA_WRITE_ONLY(0x2a, OpClass.RDMA_WRITE, Position.ONLY, true, RETH),
    UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE(0x2b, OpClass.RDMA_WRITE, Position.ONLY, true, RETH, IMMDT),

    RD_SEND_FIRST(0x40, OpClass.SEND, Position.FIRST, true, RDETH, DETH),
    RD_SEND_MIDDLE(0x41, OpClass.SEND, Position.MIDDLE, true, RDETH, DETH),
    RD_SEND_LAST(0x42, OpClass.SEND, Position.LAST, true, RDETH, DETH),
    RD_SEND_LAST_WITH_IMMEDIATE(0x43, OpClass.SEND, Position.LAST, true, RDETH, DETH, IMMDT),
    RD_SEND_ONLY(0x44, OpClass.SEND, Position.ONLY, true, RDETH, DETH),
    RD_SEND_ONLY_WITH_IMMEDIATE(0x45, OpClass.SEND, Position.ONLY, true, RDETH, DETH, IMMDT),
    RD_RDMA_WRITE_FIRST(0x46, OpClass.RDMA_WRITE, Position.FIRST, true, RDETH, DETH, RETH),
    RD_RDMA_WRITE_MIDDLE(0x47, OpClass.RDMA_WRITE, Position.MIDDLE, true, RDETH, DETH),
    RD_RDMA_WRITE_LAST(0x48, OpClass.RDMA_WRITE, Position.LAST, true, RDETH, DETH),
    RD_RDMA_WRITE_LAST_WITH_IMMEDIATE(0x49, OpClass.RDMA_WRITE, Position.LAST, true, RDETH, DETH, IMMDT),
    RD_RDMA_WRITE_ONLY(0x4a, OpClass.RDMA_WRITE, Position.ONLY, true, RDETH, DETH, RETH),
    RD_RDMA_WRITE_ONLY_WITH_IMMEDIATE(0x4b, OpClass.RDMA_WRITE, Position.ONLY, true, RDETH, DETH, RETH, IMMDT),
    RD_RDMA_READ_REQUEST(0x4c, OpClass.RDMA_READ_REQUEST, Position.ONLY, false, RDETH, DETH, RETH),
    RD_RDMA_READ_RESPONSE_FIRST(0x4d, OpClass.RDMA_READ_RESPONSE, Position.FIRST, true, RDETH, AETH),
    RD_RDMA_READ_RESPONSE_MIDDLE(0x4e, OpClass.RDMA_READ_RESPONSE, Position.MIDDLE, true, RDETH),
    RD_RDMA_READ_RESPONSE_LAST(0x4f, OpClass.RDMA_READ_RESPONSE, Position.LAST, true, RDETH, AETH),
    RD_RDMA_READ_RESPONSE_ONLY(0x50, OpClass.RDMA_READ_RESPONSE, Position.ONLY, true, RDETH, AETH),
    RD_ACKNOWLEDGE(0x51, OpClass.ACKNOWLEDGE, Position.ONLY, false, RDETH, AETH),
    RD_ATOMIC_ACKNOWLEDGE(0x52, OpClass.ATOMIC_ACKNOWLEDGE, Position.ONLY, false, RDETH, AETH, ATOMIC_ACK_ETH),
    RD_COMPARE_SWAP(0x53, OpClass.ATOMIC, Position.ONLY, false, RDETH, DETH, ATOMIC_ETH),
    RD_FETCH_ADD(0x54, OpClass.ATOMIC, Position.ONLY, false, RDETH, DETH, ATOMIC_ETH),
    RD_RESYNC(0x55, OpClass.RESYNC, Position.ONLY, false, RDETH, DETH),
    RD_FLUSH(0x5c, OpClass.FLUSH, Position.ONLY, false, RDETH, DETH, FETH, RETH),
    RD_ATOMIC_WRITE(0x5d, OpClass.ATOMIC_WRITE, Position.ONLY, true, RDETH, DETH, RETH),

    UD_SEND_ONLY(0x64, OpClass.SEND, Position.ONLY, true, DETH),
    UD_SEND_ONLY_WITH_IMMEDIATE(0x65, OpClass.SEND, Position.ONLY, true, DETH, IMMDT),

    CNP(0x81, OpClass.CNP, Position.ONLY, false, CNP_PAD);

    /** Size of the BTH, which every opcode carries first. */
    public static final int BTH_BYTES = 12;
    /** Size of the ICRC, which ends every RoCEv2 packet. */
    public static final int ICRC_BYTES = 4;
    /** ATOMIC_WRITE always carries exactly eight bytes of payload (IBTA 1.5 A19). */
    public static final int ATOMIC_WRITE_PAYLOAD = 8;

    private static final Opcode[] BY_VALUE = new Opcode[256];

    static {
        for (Opcode op : values()) {
            BY_VALUE[op.value] = op;
        }
    }

    public final int value;
    /** The transport service, from the opcode's upper three bits. */
    private final Transport transport;
    public final OpClass opClass;
    public final Position position;
    public final boolean payload;
    private final HeaderKind[] headers;
    private final int[] offsets = new int[HeaderKind.values().length];
    /** Bit {@code 1 << kind.ordinal()} set for each header this opcode carries; a plain field for the hot path. */
    private final int headerMask;
    /** Length of BTH plus all extended headers: where the payload starts. */
    public final int headerLength;

    Opcode(int value, OpClass opClass, Position position, boolean payload, HeaderKind... headers) {
        this.value = value;
        this.transport = transportOf(value);
        this.opClass = opClass;
        this.position = position;
        this.payload = payload;
        this.headers = headers;
        Arrays.fill(offsets, -1);
        int off = BTH_BYTES;
        int mask = 0;
        for (HeaderKind h : headers) {
            mask |= 1 << h.ordinal();
            offsets[h.ordinal()] = off;
            off += h.length;
        }
        this.headerLength = off;
        this.headerMask = mask;
    }

    /** The opcode with this BTH value, or null when the value is reserved or manufacturer-specific. */
    public static Opcode of(int value) {
        return value < 0 || value > 255 ? null : BY_VALUE[value];
    }

    /** IBTA reserves 0xC0-0xFF for manufacturer-specific opcodes; everything else not in the table is reserved. */
    public static boolean isManufacturerSpecific(int value) {
        return value >= 0xc0 && value <= 0xff;
    }

    public Transport transport() {
        return transport;
    }

    private static Transport transportOf(int value) {
        for (Transport t : Transport.values()) if (t.base == (value & 0xe0)) return t;
        throw new IllegalArgumentException("no transport for opcode 0x" + Integer.toHexString(value));
    }

    /** The extended headers after the BTH, in wire order. */
    public List<HeaderKind> headers() {
        return List.of(headers);
    }

    public boolean has(HeaderKind h) {
        return (headerMask & 1 << h.ordinal()) != 0;
    }

    /** Offset of header h from the start of the BTH, or -1 if this opcode does not carry it. */
    public int offsetOf(HeaderKind h) {
        return offsets[h.ordinal()];
    }

    public boolean hasReth() {
        return has(HeaderKind.RETH);
    }

    public boolean hasAeth() {
        return has(HeaderKind.AETH);
    }

    public boolean hasImmediate() {
        return has(HeaderKind.IMMDT);
    }

    public boolean hasInvalidate() {
        return has(HeaderKind.IETH);
    }

    public boolean isRequest() {
        return opClass.request;
    }

    /** Responses that acknowledge: ACK, atomic ACK, and the READ responses that carry an AETH or imply one. */
    public boolean isAck() {
        return opClass == OpClass.ACKNOWLEDGE || opClass == OpClass.ATOMIC_ACKNOWLEDGE
                || opClass == OpClass.RDMA_READ_RESPONSE;
    }

    public boolean isRead() {
        return opClass == OpClass.RDMA_READ_REQUEST || opClass == OpClass.RDMA_READ_RESPONSE;
    }

    public boolean isAtomic() {
        return opClass == OpClass.ATOMIC || opClass == OpClass.ATOMIC_ACKNOWLEDGE;
    }

    public boolean isFirst() {
        return position == Position.FIRST;
    }

    public boolean isMiddle() {
        return position == Position.MIDDLE;
    }

    public boolean isLast() {
        return position == Position.LAST;
    }

    public boolean isOnly() {
        return position == Position.ONLY;
    }

    /** Whether the responder consumes a receive WQE for this message (rxe RXE_RWR_MASK). */
    public boolean consumesRecvWqe() {
        return opClass == OpClass.SEND || (opClass == OpClass.RDMA_WRITE && hasImmediate());
    }
}
