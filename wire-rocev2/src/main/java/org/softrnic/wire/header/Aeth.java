package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u24;
import static org.softrnic.wire.Be.u8;

/**
 * ACK Extended Transport Header (IBTA 9.3.5), 4 bytes: Syndrome(1) MSN(3).
 * The syndrome's bits 6-5 say ACK, RNR NAK or NAK; bits 4-0 carry the credit count, the RNR timer code
 * or the NAK code (IBTA table 44).
 */
public record Aeth(int syndrome, int msn) {
    public static final int LENGTH = 4;
    /** ACK with credit count "invalid", which rxe always sends. */
    public static final int ACK_CREDITS_INVALID = 0x1f;

    public Aeth {
        if ((syndrome & ~0xff) != 0) throw new IllegalArgumentException("syndrome " + syndrome + " not 8-bit");
        if ((msn & ~0xffffff) != 0) throw new IllegalArgumentException("MSN " + msn + " not 24-bit");
    }

    public static Aeth ack(int credits, int msn) {
        return new Aeth(AethType.ACK.syndrome(credits), msn);
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

    /** Low five bits: credit count (ACK), RNR timer code (RNR NAK), or NAK code (NAK). */
    public int value() {
        return syndrome & 0x1f;
    }

    /** The NAK code, or null when this is not a NAK or the code is reserved. */
    public NakCode nakCode() {
        return type() == AethType.NAK ? NakCode.of(value()) : null;
    }

    /** One-line meaning of the syndrome, e.g. "ACK credits=invalid" or "NAK remote access error". */
    public String describe() {
        return switch (type()) {
            case ACK -> "ACK credits=" + (value() == ACK_CREDITS_INVALID ? "invalid" : Integer.toString(value()));
            case RNR_NAK -> "RNR NAK timer=" + RnrTimer.micros(value()) / 1000.0 + "ms";
            case NAK -> nakCode() == null ? "NAK reserved code " + value() : "NAK " + nakCode().description;
            case RESERVED -> "reserved syndrome 0x" + Integer.toHexString(syndrome);
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
