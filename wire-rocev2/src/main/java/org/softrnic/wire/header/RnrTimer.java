package org.softrnic.wire.header;

/** The RNR NAK timer field: 5-bit code to minimum wait (IBTA table 45, "Encoding for RNR NAK Timer"). */
public final class RnrTimer {
    /** Microseconds for codes 0..31; code 0 is the longest, 655.36 ms. */
    private static final int[] MICROS = {
        655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920,
        2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880, 163840, 245760,
        327680, 491520,
    };

    private RnrTimer() {}

    public static int micros(int code) {
        if ((code & ~0x1f) != 0) throw new IllegalArgumentException("RNR timer code " + code + " not 5-bit");
        return MICROS[code];
    }
}
