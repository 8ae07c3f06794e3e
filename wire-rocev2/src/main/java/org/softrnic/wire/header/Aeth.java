package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u24;
import static org.softrnic.wire.Be.u8;

/**
 * ACK Extended Transport Header (IBTA 9.3.5), 4 bytes: Syndrome(1) MSN(3). The syndrome's {@link #LAYOUT}:
 * bit 7 reserved, bits 6-5 the type, bits 4-0 the credit code, the RNR timer code or the NAK code (table 44).
 */
public record Aeth(int syndrome, int msn) {
    public static final int LENGTH = 4;
    /** ACK with credit code 31, "invalid": no end-to-end flow control, which rxe always sends. */
    public static final int ACK_CREDITS_INVALID = 0x1f;
    /** The syndrome's layout, in the one wording every command uses. */
    public static final String LAYOUT = "bit 7 reserved (0); bits 6-5: 00 ACK, 01 RNR NAK, 10 reserved, 11 NAK;"
            + " bits 4-0: the credit code (ACK), the RNR timer code (RNR NAK) or the NAK code (NAK)";
    /**
     * The credits each ACK credit code 0..30 stands for: a logarithmic code, not a count (IBTA's AETH credit
     * codes; Linux hfi1/rdmavt credit_table).
     */
    private static final int[] CREDITS = {
        0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096,
        6144, 8192, 12288, 16384, 24576, 32768,
    };

    public Aeth {
        if ((syndrome & ~0xff) != 0) throw new IllegalArgumentException("syndrome " + syndrome + " not 8-bit");
        if ((msn & ~0xffffff) != 0) throw new IllegalArgumentException("MSN " + msn + " not 24-bit");
    }

    /** An ACK with credit code {@code creditCode} (31: invalid). */
    public static Aeth ack(int creditCode, int msn) {
        return new Aeth(AethType.ACK.syndrome(creditCode), msn);
    }

    /** The number of credits an ACK credit code 0..30 stands for, or -1 for code 31 (invalid: no end-to-end credits). */
    public static int creditCount(int code) {
        if ((code & ~0x1f) != 0) throw new IllegalArgumentException("credit code " + code + " not 5-bit");
        return code == ACK_CREDITS_INVALID ? -1 : CREDITS[code];
    }

    public static Aeth rnrNak(int timerCode, int msn) {
        return new Aeth(AethType.RNR_NAK.syndrome(timerCode), msn);
    }

    public static Aeth nak(NakCode code, int msn) {
        return new Aeth(AethType.NAK.syndrome(code.value), msn);
    }

    public AethType type() {
        return AethType.of(syndrome);
    }

    /** Low five bits: credit code (ACK), RNR timer code (RNR NAK), or NAK code (NAK). */
    public int value() {
        return syndrome & 0x1f;
    }

    /** The NAK code, or null when this is not a NAK or the code is reserved. */
    public NakCode nakCode() {
        return type() == AethType.NAK ? NakCode.of(value()) : null;
    }

    /** One-line meaning of the syndrome, e.g. "ACK credits=invalid" or "NAK remote access error". */
    public String describe() {
        return describe(syndrome);
    }

    /**
     * One line for a syndrome byte: "ACK credits=invalid" (code 31, what rxe sends), "ACK credit code 12 (64
     * credits)", "RNR NAK timer=0.64ms", "NAK PSN sequence error", "NAK reserved code 5",
     * "reserved syndrome 0x81 (bit 7 must be 0)".
     */
    public static String describe(int syndrome) {
        int low = syndrome & 0x1f;
        return switch (AethType.of(syndrome)) {
            case ACK -> low == ACK_CREDITS_INVALID ? "ACK credits=invalid"
                    : "ACK credit code " + low + " (" + creditCount(low) + (creditCount(low) == 1 ? " credit)" : " credits)");
            case RNR_NAK -> "RNR NAK timer=" + RnrTimer.micros(low) / 1000.0 + "ms";
            case NAK -> NakCode.of(low) == null ? "NAK reserved code " + low : "NAK " + NakCode.of(low).description;
            case RESERVED -> "reserved syndrome 0x" + Integer.toHexString(syndrome)
                    + ((syndrome & 0x80) != 0 ? " (bit 7 must be 0)" : " (bits 6-5 = 10 are reserved)");
        };
    }

    public static Aeth read(View v) {
        return new Aeth(v.syndrome(), v.msn());
    }

    public void write(View v) {
        v.syndrome(syndrome).msn(msn);
    }

    /** Zero-copy view of an AETH. */
    public static final class View extends HeaderView<View> {
        public int syndrome() { return u8(seg, off); }
        public int msn() { return u24(seg, off + 1); }

        public View syndrome(int v) { u8(seg, off, v); return this; }
        public View msn(int v) { u24(seg, off + 1, v); return this; }
    }
}
