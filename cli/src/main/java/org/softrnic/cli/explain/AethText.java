package org.softrnic.cli.explain;

import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.AethType;
import org.softrnic.wire.header.NakCode;
import org.softrnic.wire.header.RnrTimer;

/**
 * What an AETH syndrome byte means (IBTA 9.3.5): bit 7 is reserved and must be 0; bits 6-5 are the type
 * (00 ACK, 01 RNR NAK, 10 reserved, 11 NAK); bits 4-0 are the credit code, the RNR timer code or the NAK code.
 * The facts (the credit table, the layout, the type) are wire-rocev2's {@link Aeth}; this says them at length.
 */
public final class AethText {
    /** The syndrome's layout, in the one wording every command uses. */
    public static final String LAYOUT = Aeth.LAYOUT;

    /** The credit code that says end-to-end flow control is not used; rxe and softrnic always send it. */
    public static final int CREDITS_INVALID = Aeth.ACK_CREDITS_INVALID;

    /** What an AETH syndrome is. */
    public enum Kind {
        ACK, RNR_NAK, NAK, RESERVED
    }

    private AethText() {
    }

    /** The type of a syndrome byte; any syndrome with bit 7 set, or with bits 6-5 = 10, is reserved. */
    public static Kind kind(int syndrome) {
        check(syndrome);
        return Kind.valueOf(AethType.of(syndrome).name());
    }

    /** The number of credits an ACK credit code 0..30 stands for, or -1 for code 31 (invalid: no end-to-end credits). */
    public static int creditCount(int code) {
        return Aeth.creditCount(code);
    }

    /** "credit code 12 (64 credits)" or "credit code 31 (invalid: no end-to-end credits)". */
    public static String credits(int code) {
        int n = creditCount(code);
        return "credit code " + code + (n < 0 ? " (invalid: no end-to-end credits)" : " (" + n + (n == 1 ? " credit)" : " credits)"));
    }

    /** One line: "ACK credit code 12 (64 credits)", "NAK remote access error", "reserved syndrome (bit 7 must be 0)". */
    public static String describe(int syndrome) {
        int low = syndrome & 0x1f;
        return switch (kind(syndrome)) {
            case ACK -> "ACK " + credits(low);
            case RNR_NAK -> "RNR NAK timer code " + low + " (" + RnrTimer.micros(low) / 1000.0 + " ms)";
            case NAK -> NakCode.of(low) == null ? "NAK reserved code " + low : "NAK " + NakCode.of(low).description;
            case RESERVED -> (syndrome & 0x80) != 0 ? "reserved syndrome (bit 7 must be 0)"
                    : "reserved syndrome (bits 6-5 = 10 are reserved)";
        };
    }

    private static void check(int syndrome) {
        if ((syndrome & ~0xff) != 0) throw new IllegalArgumentException("syndrome " + syndrome + " not 8-bit");
    }
}
