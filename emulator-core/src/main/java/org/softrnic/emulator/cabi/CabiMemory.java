package org.softrnic.emulator.cabi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The application's memory as the verbs read it: a struct's address is a C pointer, and the hot verbs read their
 * work requests and write their completions through one segment over the whole address space, so that no segment
 * is made per call. Only addresses the application passed in are read or written, as libibverbs itself would.
 */
final class CabiMemory {
    static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private CabiMemory() {
    }

    static long getLong(long addr) {
        return ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, addr);
    }

    static int getInt(long addr) {
        return ALL.get(ValueLayout.JAVA_INT_UNALIGNED, addr);
    }

    static int getByte(long addr) {
        return ALL.get(ValueLayout.JAVA_BYTE, addr) & 0xff;
    }

    static int getShort(long addr) {
        return ALL.get(ValueLayout.JAVA_SHORT_UNALIGNED, addr) & 0xffff;
    }

    static void setLong(long addr, long v) {
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, addr, v);
    }

    static void setInt(long addr, int v) {
        ALL.set(ValueLayout.JAVA_INT_UNALIGNED, addr, v);
    }

    static void setShort(long addr, int v) {
        ALL.set(ValueLayout.JAVA_SHORT_UNALIGNED, addr, (short) v);
    }

    static void setByte(long addr, int v) {
        ALL.set(ValueLayout.JAVA_BYTE, addr, (byte) v);
    }
}
