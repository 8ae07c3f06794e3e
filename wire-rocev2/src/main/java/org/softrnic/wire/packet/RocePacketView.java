package org.softrnic.wire.packet;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.Be;
import org.softrnic.wire.OpClass;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.ParseError;
import org.softrnic.wire.header.Bth;

/**
 * Checked, zero-copy view of one RoCEv2 transport packet: BTH, extended headers, payload, pad, ICRC.
 * {@link #wrap} validates the lengths once against the opcode table; after it returns null, every
 * accessor is a plain read inside the packet. One instance is reused for every packet.
 */
public final class RocePacketView extends HeaderViews {
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
        int w0 = Be.u32(segment, offset); // opcode, SE M PadCnt TVer, P_Key
        int value = w0 >>> 24;
        Opcode op = Opcode.of(value);
        if (op == null) {
            return Opcode.isManufacturerSpecific(value) ? ParseError.UNKNOWN_OPCODE : ParseError.RESERVED_OPCODE;
        }
        this.opcode = op;
        if ((w0 >>> 16 & 0xf) != 0) {
            return ParseError.BAD_TVER;
        }
        if (length < op.headerLength + Opcode.ICRC_BYTES) {
            return ParseError.MISSING_HEADERS;
        }
        int region = length - op.headerLength - Opcode.ICRC_BYTES;
        int pad = w0 >>> 20 & 3;
        if (!op.payload) {
            if (pad != 0) return ParseError.BAD_PAD;
            if (region != 0) return ParseError.LENGTH_MISMATCH;
        } else {
            if (pad > region || (region & 3) != 0) return ParseError.BAD_PAD;
            if (op.opClass == OpClass.ATOMIC_WRITE && region - pad != Opcode.ATOMIC_WRITE_PAYLOAD) {
                return ParseError.LENGTH_MISMATCH;
            }
        }
        point(segment, offset, op);
        return null;
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
        return len - opcode.headerLength - Opcode.ICRC_BYTES - bth().pad();
    }

    public long icrcOffset() {
        return off + len - Opcode.ICRC_BYTES;
    }

    /** The ICRC the packet carries; rxe stores it little-endian. */
    public int icrc() {
        return Be.u32le(seg, icrcOffset());
    }
}
