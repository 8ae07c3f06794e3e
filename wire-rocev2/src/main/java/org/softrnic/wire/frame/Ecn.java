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

    /**
     * Sets ECN to CE in the IP packet at {@code ip}, as RFC 3168 lets a congested router do, when the packet
     * is ECN-capable (ECT0 or ECT1); an IPv4 header checksum is updated. Returns whether it marked.
     */
    public static boolean markCongestion(java.lang.foreign.MemorySegment s, long ip) {
        int b0 = s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, ip) & 0xff;
        int b1 = s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, ip + 1) & 0xff;
        boolean v4 = (b0 & 0xf0) == 0x40;
        int ecn = v4 ? b1 & 3 : (b1 >>> 4) & 3;
        if (ecn == NOT_ECT.bits || ecn == CE.bits) return false;
        if (!v4) {
            s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, ip + 1, (byte) (b1 | 0x30));
            return true;
        }
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, ip + 1, (byte) (b1 | 3));
        Ipv4.refreshChecksum(s, ip);
        return true;
    }
}
