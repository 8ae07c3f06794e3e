package org.softrnic.wire.header;

/** AETH syndrome bits 6-5 (IBTA table 44). Bit 7 is reserved and sent as zero. */
public enum AethType {
    ACK(0b00), RNR_NAK(0b01), RESERVED(0b10), NAK(0b11);

    private static final AethType[] BY_BITS = {ACK, RNR_NAK, RESERVED, NAK};
    public final int bits;

    AethType(int bits) {
        this.bits = bits;
    }

    public static AethType of(int syndrome) {
        return BY_BITS[(syndrome >>> 5) & 3];
    }

    public int syndrome(int low5) {
        if ((low5 & ~0x1f) != 0) throw new IllegalArgumentException("syndrome value " + low5 + " not 5-bit");
        return bits << 5 | low5;
    }
}
