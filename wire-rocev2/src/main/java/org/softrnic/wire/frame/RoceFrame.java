package org.softrnic.wire.frame;

import java.util.Arrays;
import java.util.Objects;
import org.softrnic.wire.packet.RocePacket;

/**
 * Immutable value of a whole RoCEv2 frame. Lengths, the IPv4 checksum and the ICRC are derived when the
 * frame is encoded; the values held here are what was parsed.
 *
 * @param ethernet null for a raw IP frame
 * @param trailer  bytes after the IP packet (Ethernet minimum-size padding); empty when there are none
 */
public record RoceFrame(Ethernet ethernet, IpHeader ip, Udp udp, RocePacket roce, byte[] trailer) {
    public RoceFrame {
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(udp, "udp");
        Objects.requireNonNull(roce, "roce");
        trailer = trailer == null ? new byte[0] : trailer.clone();
        if (ethernet != null && ethernet.etherType() != ip.etherType()) {
            throw new IllegalArgumentException("EtherType 0x" + Integer.toHexString(ethernet.etherType())
                    + " does not match IPv" + ip.version());
        }
    }

    @Override
    public byte[] trailer() {
        return trailer.clone();
    }

    /** Length of the IP packet: IP header, UDP header, and BTH through ICRC. */
    public int ipLength() {
        return ip.headerLength() + Udp.LENGTH + roce.encodedLength();
    }

    public int encodedLength() {
        return (ethernet == null ? 0 : ethernet.length()) + ipLength() + trailer.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RoceFrame f && Objects.equals(ethernet, f.ethernet) && ip.equals(f.ip)
                && udp.equals(f.udp) && roce.equals(f.roce) && Arrays.equals(trailer, f.trailer);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ethernet, ip, udp, roce, Arrays.hashCode(trailer));
    }

    @Override
    public String toString() {
        return "RoceFrame[" + ethernet + ", " + ip + ", " + udp + ", " + roce + ", trailer=" + trailer.length + "B]";
    }
}
