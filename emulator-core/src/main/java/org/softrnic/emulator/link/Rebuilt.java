package org.softrnic.emulator.link;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.Be;
import org.softrnic.wire.frame.Ipv4;

/**
 * The IP and UDP headers a kernel socket hid from a received datagram, rebuilt in front of it with what the
 * socket told: the sender's address and port, and the received TOS or traffic class (the ECN bits in it).
 * Identification 0, DF and TTL 64, as an unconnected socket with IP_DONTFRAGMENT sends; the ICRC masks TTL,
 * and a sender's other identification is recovered from the ICRC by the device.
 */
final class Rebuilt {
    private Rebuilt() {
    }

    static void ipv4(MemorySegment s, long at, int tos, int udpPayload, int src, int dst) {
        Ipv4.write(s, at, tos, 20 + 8 + udpPayload, 0, 0x4000, 64, Ipv4.PROTO_UDP, src, dst);
    }

    /** Flow label 0 and hop limit 64: the ICRC masks both, and the traffic class. */
    static void ipv6(MemorySegment s, long at, int trafficClass, int udpPayload, MemorySegment src, long srcAt, MemorySegment dst,
                     long dstAt) {
        Be.u32(s, at, 0x6000_0000 | (trafficClass & 0xff) << 20);
        Be.u16(s, at + 4, 8 + udpPayload);
        Be.u8(s, at + 6, Ipv4.PROTO_UDP);
        Be.u8(s, at + 7, 64);
        MemorySegment.copy(src, srcAt, s, at + 8, 16);
        MemorySegment.copy(dst, dstAt, s, at + 24, 16);
    }

    /** Checksum 0: the kernel checked it, and the ICRC does not cover it. */
    static void udp(MemorySegment s, long at, int sport, int dport, int udpPayload) {
        Be.u16(s, at, sport);
        Be.u16(s, at + 2, dport);
        Be.u16(s, at + 4, 8 + udpPayload);
        Be.u16(s, at + 6, 0);
    }
}
