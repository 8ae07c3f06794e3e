package org.softrnic.wire.frame;

import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.ParseError;
import org.softrnic.wire.icrc.Icrc;
import org.softrnic.wire.packet.RocePacketView;

/**
 * Checked, zero-copy view of a whole frame: optional Ethernet (802.1Q or not), IPv4 or IPv6, UDP, and
 * the RoCEv2 packet. {@code wrap*} validates every layer once and says why a frame is refused; after a
 * null result, {@link #isRoce()} tells RoCEv2 traffic from other traffic. Reused for every frame.
 */
public final class FrameView {
    public final Ethernet.View ethernet = new Ethernet.View();
    public final Ipv4.View ipv4 = new Ipv4.View();
    public final Ipv6.View ipv6 = new Ipv6.View();
    public final Udp.View udp = new Udp.View();
    public final RocePacketView roce = new RocePacketView();
    private final Icrc icrc = new Icrc();
    private final int rocePort;

    private PacketBuffer buf;
    private int frameOffset;
    private int frameEnd;
    private boolean hasEthernet;
    private int ipOffset = -1;
    private int ipVersion;
    private int ipEnd;
    private int udpOffset = -1;
    private int roceOffset = -1;
    private int roceLength;
    private boolean isRoce;

    public FrameView() {
        this(Udp.ROCE_PORT);
    }

    /** @param rocePort the UDP destination port that marks RoCEv2 traffic (4791 unless configured) */
    public FrameView(int rocePort) {
        this.rocePort = rocePort;
    }

    private void reset(PacketBuffer b, int off, int len) {
        this.buf = b;
        this.frameOffset = off;
        this.frameEnd = off + len;
        this.hasEthernet = false;
        this.ipOffset = -1;
        this.udpOffset = -1;
        this.roceOffset = -1;
        this.roceLength = 0;
        this.ipVersion = 0;
        this.ipEnd = off + len;
        this.isRoce = false;
    }

    /** Validates an Ethernet II frame (without FCS) of {@code len} bytes at {@code off}. */
    public ParseError wrapEthernet(PacketBuffer b, int off, int len) {
        reset(b, off, len);
        if (off < 0 || len < Ethernet.LENGTH || off + len > b.length()) return ParseError.TRUNCATED;
        ethernet.wrap(b.segment, off);
        this.hasEthernet = true;
        boolean tagged = ethernet.tagged();
        if (tagged && len < Ethernet.LENGTH + Ethernet.VLAN_TAG_LENGTH) return ParseError.TRUNCATED;
        int type = ethernet.etherType();
        int ip = off + ethernet.headerLength();
        if (type == Ethernet.ETHERTYPE_IPV4) return ip(ip, frameEnd - ip, 4);
        if (type == Ethernet.ETHERTYPE_IPV6) return ip(ip, frameEnd - ip, 6);
        return null;
    }

    /** Validates a raw IP packet (version taken from its first nibble) of {@code len} bytes at {@code off}. */
    public ParseError wrapIp(PacketBuffer b, int off, int len) {
        reset(b, off, len);
        if (off < 0 || len < 1 || off + len > b.length()) return ParseError.TRUNCATED;
        int version = (b.segment.get(java.lang.foreign.ValueLayout.JAVA_BYTE, off) & 0xf0) >>> 4;
        return ip(off, len, version);
    }

    private ParseError ip(int off, int len, int expectedVersion) {
        ipOffset = off;
        ipVersion = expectedVersion;
        return expectedVersion == 4 ? ipv4(off, len) : expectedVersion == 6 ? ipv6(off, len) : ParseError.BAD_IP_VERSION;
    }

    private ParseError ipv4(int off, int len) {
        if (len < Ipv4.LENGTH) return ParseError.TRUNCATED;
        ipv4.wrap(buf.segment, off);
        if (ipv4.version() != 4) return ParseError.BAD_IP_VERSION;
        int ihl = ipv4.headerLength();
        if (ihl < Ipv4.LENGTH || ihl > len) return ParseError.BAD_IP_HEADER_LENGTH;
        if (ipv4.protocol() != Ipv4.PROTO_UDP) return null;
        if (ipv4.fragOffset() != 0) return null; // a later fragment: no UDP header to look at
        if (len < ihl + Udp.LENGTH) return ParseError.TRUNCATED;
        udpOffset = off + ihl;
        udp.wrap(buf.segment, udpOffset);
        if (udp.dport() != rocePort) return null;
        isRoce = true;
        if (ipv4.mf()) return ParseError.IP_FRAGMENT;
        int total = ipv4.totalLength();
        if (total < ihl + Udp.LENGTH || total > len) return ParseError.BAD_IP_LENGTH;
        ipEnd = off + total;
        if (!ipv4.checksumOk()) return ParseError.BAD_IP_CHECKSUM;
        if (udp.length() != total - ihl) return ParseError.BAD_UDP_LENGTH;
        if (udp.checksum() != 0 && !udpChecksumOk()) return ParseError.BAD_UDP_CHECKSUM;
        return roce();
    }

    private ParseError ipv6(int off, int len) {
        if (len < Ipv6.LENGTH) return ParseError.TRUNCATED;
        ipv6.wrap(buf.segment, off);
        if (ipv6.version() != 6) return ParseError.BAD_IP_VERSION;
        if (ipv6.nextHeader() != Ipv4.PROTO_UDP) return null;
        if (len < Ipv6.LENGTH + Udp.LENGTH) return ParseError.TRUNCATED;
        udpOffset = off + Ipv6.LENGTH;
        udp.wrap(buf.segment, udpOffset);
        if (udp.dport() != rocePort) return null;
        isRoce = true;
        int payload = ipv6.payloadLength();
        if (payload < Udp.LENGTH || Ipv6.LENGTH + payload > len) return ParseError.BAD_IP_LENGTH;
        ipEnd = off + Ipv6.LENGTH + payload;
        if (udp.length() != payload) return ParseError.BAD_UDP_LENGTH;
        if (udp.checksum() != 0 && !udpChecksumOk()) return ParseError.BAD_UDP_CHECKSUM;
        return roce();
    }

    private ParseError roce() {
        roceOffset = udpOffset + Udp.LENGTH;
        roceLength = udp.length() - Udp.LENGTH;
        return roce.wrap(buf.segment, roceOffset, roceLength);
    }

    private boolean udpChecksumOk() {
        return Checksum.fold(pseudoHeaderSum() + Checksum.add(0, buf.segment, udpOffset, udp.length())) == 0xffff;
    }

    /** Sum of the UDP pseudo-header (RFC 768 / RFC 8200 8.1) for the current IP header. */
    long pseudoHeaderSum() {
        int ulen = udp.length();
        if (ipVersion == 4) {
            return Checksum.add(0, buf.segment, ipOffset + 12, 8) + Ipv4.PROTO_UDP + ulen;
        }
        return Checksum.add(0, buf.segment, ipOffset + 8, 32) + Ipv4.PROTO_UDP + ulen;
    }

    /** The ICRC this packet should carry, computed over the frame as it is. */
    public int expectedIcrc() {
        return icrc.compute(buf, ipOffset, ipVersion, roceOffset, roceLength);
    }

    /** Null when the carried ICRC equals the computed one, else {@link ParseError#ICRC_MISMATCH}. */
    public ParseError verifyIcrc() {
        return expectedIcrc() == roce.icrc() ? null : ParseError.ICRC_MISMATCH;
    }

    /** Full check: the layers, then the ICRC when the frame is RoCEv2. */
    public ParseError wrapAndVerify(PacketBuffer b, int off, int len, boolean ethernetFrame) {
        ParseError e = ethernetFrame ? wrapEthernet(b, off, len) : wrapIp(b, off, len);
        if (e != null || !isRoce) return e;
        return verifyIcrc();
    }

    /** True when the frame carries UDP to the RoCEv2 port. */
    public boolean isRoce() {
        return isRoce;
    }

    public boolean hasEthernet() {
        return hasEthernet;
    }

    public PacketBuffer buffer() {
        return buf;
    }

    public int frameOffset() {
        return frameOffset;
    }

    public int frameEnd() {
        return frameEnd;
    }

    public int ipOffset() {
        return ipOffset;
    }

    public int ipVersion() {
        return ipVersion;
    }

    /** End of the IP packet; bytes from here to {@link #frameEnd()} are link padding. */
    public int ipEnd() {
        return ipEnd;
    }

    public int udpOffset() {
        return udpOffset;
    }

    public int roceOffset() {
        return roceOffset;
    }

    public int roceLength() {
        return roceLength;
    }
}
