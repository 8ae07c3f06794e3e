package org.softrnic.wire.header;

/**
 * The AETH syndrome's type (IBTA table 44): bits 6-5, with bit 7 reserved. A syndrome with bit 7 set, or with
 * bits 6-5 = 10, is RESERVED (rxe masks the type with 0xe0 too).
 */
public enum AethType {
    ACK(0b00), RNR_NAK(0b01), RESERVED(0b10), NAK(0b11);

    private static final AethType[] BY_BITS = {ACK, RNR_NAK, RESERVED, NAK};
    public final int bits;

    AethType(int bits) {
        this.bits = bits;
    }

    public static AethType of(int syndrome) {
        return (syndrome & 0x80) != 0 ? RESERVED : BY_BITS[(syndrome >>> 5) & 3];
    }

    public int syndrome(int low5) {
        if ((low5 & ~0x1f) != 0) throw new IllegalArgumentException("syndrome value " + low5 + " not 5-bit");
        return bits << 5 | low5;
    }
}
