package org.softrnic.wire.frame;

import java.lang.foreign.MemorySegment;

/**
 * The headers below the BTH (optional Ethernet, IP, UDP) that stay the same for every packet of a flow,
 * encoded once. {@link FrameWriter} copies them in front of each packet and fills the lengths, the IPv4
 * identification and checksum, and the ICRC.
 */
public final class FrameTemplate {
    final byte[] prefix;
    final int ipOffset;
    final int ipVersion;
    final int udpOffset;

    private FrameTemplate(byte[] prefix, int ipOffset, int ipVersion) {
        this.prefix = prefix;
        this.ipOffset = ipOffset;
        this.ipVersion = ipVersion;
        this.udpOffset = ipOffset + (ipVersion == 4 ? Ipv4.LENGTH : Ipv6.LENGTH);
    }

    /** @param ethernet null for raw IP frames (as a UDP socket sends them, without the Ethernet header) */
    public static FrameTemplate of(Ethernet ethernet, IpHeader ip, Udp udp) {
        if (ethernet != null && ethernet.etherType() != ip.etherType()) {
            throw new IllegalArgumentException("EtherType does not match IPv" + ip.version());
        }
        int ipOff = ethernet == null ? 0 : ethernet.length();
        byte[] prefix = new byte[ipOff + ip.headerLength() + Udp.LENGTH];
        MemorySegment s = MemorySegment.ofArray(prefix);
        if (ethernet != null) ethernet.write(s, 0);
        switch (ip) {
            case Ipv4 v4 -> v4.write(s, ipOff, 0);
            case Ipv6 v6 -> v6.write(s, ipOff, 0);
        }
        udp.write(s, ipOff + ip.headerLength(), 0);
        return new FrameTemplate(prefix, ipOff, ip.version());
    }

    /** Bytes before the BTH. */
    public int length() {
        return prefix.length;
    }

    public int ipVersion() {
        return ipVersion;
    }
}
