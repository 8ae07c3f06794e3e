package org.softrnic.wire.mad;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A field of a MAD as IBTA vol. 1 chapter 12 (and the kernel's ibta_vol1_c12.h) places it: {@code bits} bits
 * from bit {@code fromMsb} of byte {@code offset} of the 256-byte MAD, most significant bit first, big-endian.
 * Fields of 64 bits or fewer are numbers; wider ones ({@link #bytes()}) are byte ranges (GIDs, private data).
 *
 * @param name    the field's name in {@code softrnic decode --json} (snake case, the IBTA's words)
 * @param offset  the byte of the MAD the field starts in
 * @param fromMsb the bit of that byte, counted from its most significant, where the field starts
 * @param bits    the field's width
 */
public record MadField(String name, int offset, int fromMsb, int bits) {
    public MadField {
        if (bits <= 0 || fromMsb < 0 || fromMsb > 7 || offset < 0 || offset * 8 + fromMsb + bits > Mad.SIZE * 8) {
            throw new IllegalArgumentException("field " + name + " does not fit a MAD");
        }
        if (bits > 64 && (fromMsb != 0 || bits % 8 != 0)) throw new IllegalArgumentException("wide field " + name + " must be whole bytes");
        if (bits <= 64 && fromMsb + bits > 64) throw new IllegalArgumentException("field " + name + " spans more than 8 bytes");
    }

    /** Whole bytes at a byte boundary, read as a number when 8, 16, 32 or 64 bits wide. */
    static MadField of(String name, int offset, int bits) {
        return new MadField(name, offset, 0, bits);
    }

    public boolean bytes() {
        return bits > 64;
    }

    /** The field's value in {@code mad} (offset 0 is the MAD's first byte). */
    public long get(MemorySegment mad) {
        if (bytes()) throw new IllegalStateException(name + " is " + bits / 8 + " bytes, not a number");
        int first = offset;
        int last = offset + (fromMsb + bits - 1) / 8;
        long v = 0;
        for (int i = first; i <= last; i++) v = v << 8 | (mad.get(ValueLayout.JAVA_BYTE, i) & 0xff);
        int spanBits = (last - first + 1) * 8;
        int shift = spanBits - fromMsb - bits;
        if (spanBits > 64) {
            // a 64-bit field that does not start at a byte boundary cannot occur in chapter 12's tables
            throw new IllegalStateException(name + " spans more than 8 bytes");
        }
        long mask = bits == 64 ? -1L : (1L << bits) - 1;
        return (v >>> shift) & mask;
    }

    /** Writes {@code value} (its low {@code bits} bits) into {@code mad}, leaving the bits around it as they are. */
    public void set(MemorySegment mad, long value) {
        if (bytes()) throw new IllegalStateException(name + " is " + bits / 8 + " bytes, not a number");
        int last = offset + (fromMsb + bits - 1) / 8;
        int spanBits = (last - offset + 1) * 8;
        int shift = spanBits - fromMsb - bits;
        long mask = bits == 64 ? -1L : (1L << bits) - 1;
        long v = 0;
        for (int i = offset; i <= last; i++) v = v << 8 | (mad.get(ValueLayout.JAVA_BYTE, i) & 0xff);
        v = (v & ~(mask << shift)) | ((value & mask) << shift);
        for (int i = last; i >= offset; i--) {
            mad.set(ValueLayout.JAVA_BYTE, i, (byte) v);
            v >>>= 8;
        }
    }

    /** A wide field's bytes. */
    public byte[] read(MemorySegment mad) {
        byte[] out = new byte[bits / 8];
        MemorySegment.copy(mad, ValueLayout.JAVA_BYTE, offset, out, 0, out.length);
        return out;
    }

    /** Writes a wide field; {@code data} shorter than the field leaves the rest zero. */
    public void write(MemorySegment mad, byte[] data) {
        if (data.length > bits / 8) throw new IllegalArgumentException(name + " holds " + bits / 8 + " bytes, not " + data.length);
        mad.asSlice(offset, bits / 8).fill((byte) 0);
        MemorySegment.copy(data, 0, mad, ValueLayout.JAVA_BYTE, offset, data.length);
    }
}
