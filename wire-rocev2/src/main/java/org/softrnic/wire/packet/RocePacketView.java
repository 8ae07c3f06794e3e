package org.softrnic.wire.packet;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.wire.HeaderKind;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.ParseError;
import org.softrnic.wire.header.AtomicAckEth;
import org.softrnic.wire.header.AtomicEth;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.header.Deth;
import org.softrnic.wire.header.Feth;
import org.softrnic.wire.header.Ieth;
import org.softrnic.wire.header.ImmDt;
import org.softrnic.wire.header.Rdeth;
import org.softrnic.wire.header.Reth;

/**
 * Checked, zero-copy view of one RoCEv2 transport packet: BTH, extended headers, payload, pad, ICRC.
 * {@link #wrap} validates the lengths once against the opcode table; after it returns null, every
 * accessor is a plain read inside the packet. One instance is reused for every packet.
 */
public final class RocePacketView {
    public final Bth.View bth = new Bth.View();
    public final Rdeth.View rdeth = new Rdeth.View();
    public final Deth.View deth = new Deth.View();
    public final Feth.View feth = new Feth.View();
    public final Reth.View reth = new Reth.View();
    public final AtomicEth.View atomicEth = new AtomicEth.View();
    public final Aeth.View aeth = new Aeth.View();
    public final AtomicAckEth.View atomicAckEth = new AtomicAckEth.View();
    public final ImmDt.View immDt = new ImmDt.View();
    public final Ieth.View ieth = new Ieth.View();

    private MemorySegment seg;
    private long off;
    private int len;
    private Opcode opcode;

    /**
     * Points this view at {@code len} bytes from {@code offset} (BTH through ICRC) and checks them.
     *
     * @return null when the packet is well formed, else the reason it is not
     */
    public ParseError wrap(MemorySegment segment, long offset, int length) {
        this.seg = segment;
        this.off = offset;
        this.len = length;
        this.opcode = null;
        if (length < Bth.LENGTH + Opcode.ICRC_BYTES || offset < 0 || offset + length > segment.byteSize()) {
            return ParseError.TRUNCATED;
        }
        bth.wrap(segment, offset);
        int value = bth.opcodeValue();
        Opcode op = Opcode.of(value);
        if (op == null) {
            return Opcode.isManufacturerSpecific(value) ? ParseError.UNKNOWN_OPCODE : ParseError.RESERVED_OPCODE;
        }
        this.opcode = op;
        if (bth.tver() != 0) {
            return ParseError.BAD_TVER;
        }
        if (length < op.headerLength + Opcode.ICRC_BYTES) {
            return ParseError.MISSING_HEADERS;
        }
        int region = length - op.headerLength - Opcode.ICRC_BYTES;
        int pad = bth.pad();
        if (!op.payload) {
            if (pad != 0) return ParseError.BAD_PAD;
            if (region != 0) return ParseError.LENGTH_MISMATCH;
        } else {
            if (pad > region || (region & 3) != 0) return ParseError.BAD_PAD;
            if (op == Opcode.RC_ATOMIC_WRITE || op == Opcode.RD_ATOMIC_WRITE) {
                if (region - pad != Opcode.ATOMIC_WRITE_PAYLOAD) return ParseError.LENGTH_MISMATCH;
            }
        }
        wrapHeaders(op);
        return null;
    }

    private void wrapHeaders(Opcode op) {
        if (op.has(HeaderKind.RDETH)) rdeth.wrap(seg, off + op.offsetOf(HeaderKind.RDETH));
        if (op.has(HeaderKind.DETH)) deth.wrap(seg, off + op.offsetOf(HeaderKind.DETH));
        if (op.has(HeaderKind.FETH)) feth.wrap(seg, off + op.offsetOf(HeaderKind.FETH));
        if (op.has(HeaderKind.RETH)) reth.wrap(seg, off + op.offsetOf(HeaderKind.RETH));
        if (op.has(HeaderKind.ATOMIC_ETH)) atomicEth.wrap(seg, off + op.offsetOf(HeaderKind.ATOMIC_ETH));
        if (op.has(HeaderKind.AETH)) aeth.wrap(seg, off + op.offsetOf(HeaderKind.AETH));
        if (op.has(HeaderKind.ATOMIC_ACK_ETH)) atomicAckEth.wrap(seg, off + op.offsetOf(HeaderKind.ATOMIC_ACK_ETH));
        if (op.has(HeaderKind.IMMDT)) immDt.wrap(seg, off + op.offsetOf(HeaderKind.IMMDT));
        if (op.has(HeaderKind.IETH)) ieth.wrap(seg, off + op.offsetOf(HeaderKind.IETH));
    }

    /** The opcode, once {@link #wrap} got past the opcode check; null before that. */
    public Opcode opcode() {
        return opcode;
    }

    public MemorySegment segment() {
        return seg;
    }

    public long offset() {
        return off;
    }

    public int length() {
        return len;
    }

    public long payloadOffset() {
        return off + opcode.headerLength;
    }

    /** Payload bytes, without the pad. */
    public int payloadLength() {
        return len - opcode.headerLength - Opcode.ICRC_BYTES - bth.pad();
    }

    public long icrcOffset() {
        return off + len - Opcode.ICRC_BYTES;
    }

    /** The ICRC the packet carries; rxe stores it little-endian. */
    public int icrc() {
        return seg.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), icrcOffset());
    }
}
