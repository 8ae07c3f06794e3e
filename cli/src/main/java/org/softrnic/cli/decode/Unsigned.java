package org.softrnic.cli.decode;

import java.math.BigInteger;

/** Protocol fields are unsigned; JSON numbers must show them so. */
final class Unsigned {
    private Unsigned() {}

    static Number u32(int v) {
        return Integer.toUnsignedLong(v);
    }

    static Number u64(long v) {
        return v >= 0 ? (Number) v : new BigInteger(Long.toUnsignedString(v));
    }

    static String hex32(int v) {
        return String.format("0x%08x", v);
    }

    static String hex64(long v) {
        return String.format("0x%016x", v);
    }
}
