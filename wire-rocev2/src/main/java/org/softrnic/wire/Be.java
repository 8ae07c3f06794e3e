package org.softrnic.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** Network byte order accessors over a MemorySegment; every protocol field is big-endian and unaligned. */
public final class Be {
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt U32_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private Be() {}

    public static int u8(MemorySegment s, long off) {
        return s.get(ValueLayout.JAVA_BYTE, off) & 0xff;
    }

    public static int u16(MemorySegment s, long off) {
        return s.get(U16, off) & 0xffff;
    }

    public static int u24(MemorySegment s, long off) {
        return (u8(s, off) << 16) | u16(s, off + 1);
    }

    public static int u32(MemorySegment s, long off) {
        return s.get(U32, off);
    }

    /** Little-endian: only the ICRC is stored this way. */
    public static int u32le(MemorySegment s, long off) {
        return s.get(U32_LE, off);
    }

    public static void u32le(MemorySegment s, long off, int v) {
        s.set(U32_LE, off, v);
    }

    public static long u64(MemorySegment s, long off) {
        return s.get(U64, off);
    }

    public static void u8(MemorySegment s, long off, int v) {
        s.set(ValueLayout.JAVA_BYTE, off, (byte) v);
    }

    public static void u16(MemorySegment s, long off, int v) {
        s.set(U16, off, (short) v);
    }

    public static void u24(MemorySegment s, long off, int v) {
        u8(s, off, v >>> 16);
        u16(s, off + 1, v);
    }

    public static void u32(MemorySegment s, long off, int v) {
        s.set(U32, off, v);
    }

    public static void u64(MemorySegment s, long off, long v) {
        s.set(U64, off, v);
    }
}
