package org.softrnic.wire.frame;

import static org.softrnic.wire.Be.u16;
import static org.softrnic.wire.Be.u8;

import java.lang.foreign.MemorySegment;

/** The Internet checksum (RFC 1071): one's complement sum of 16-bit words. */
public final class Checksum {
    private Checksum() {}

    /** Adds {@code len} bytes at {@code off} to a running 32-bit sum. */
    public static long add(long sum, MemorySegment s, long off, int len) {
        int i = 0;
        for (; i + 1 < len; i += 2) {
            sum += u16(s, off + i);
        }
        if (i < len) {
            sum += u8(s, off + i) << 8;
        }
        return sum;
    }

    /** Folds a non-negative sum to 16 bits with end-around carry; four fixed steps suffice for any long. */
    public static int fold(long sum) {
        sum = (sum & 0xffffffffL) + (sum >>> 32);
        sum = (sum & 0xffff) + (sum >>> 16);
        sum = (sum & 0xffff) + (sum >>> 16);
        sum = (sum & 0xffff) + (sum >>> 16);
        return (int) sum;
    }

    /** The checksum field value: the complement of the folded sum. */
    public static int finish(long sum) {
        return ~fold(sum) & 0xffff;
    }
}
