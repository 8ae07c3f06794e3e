package org.softrnic.wire.frame;

/** ECN codepoints in the IP header's low two TOS bits (RFC 3168); RoCEv2 congestion control marks CE. */
public enum Ecn {
    NOT_ECT(0b00), ECT1(0b01), ECT0(0b10), CE(0b11);

    public final int bits;

    Ecn(int bits) {
        this.bits = bits;
    }

    public static Ecn of(int bits) {
        return values()[bits & 3];
    }
}
