package org.softrnic.nic.transport;

/** 24-bit packet sequence number arithmetic, with wrap-around (IBTA 9.7.1). */
public final class Psn {
    public static final int MASK = 0xffffff;

    private Psn() {}

    public static int add(int psn, int n) {
        return (psn + n) & MASK;
    }

    /** Signed distance a - b in the 24-bit circle: negative when a is before b. */
    public static int diff(int a, int b) {
        return ((a - b) << 8) >> 8;
    }
}
