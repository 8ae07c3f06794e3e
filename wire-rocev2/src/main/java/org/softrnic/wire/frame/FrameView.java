package org.softrnic.wire.frame;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.Be;
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
    private final Ethernet.View ethernet = new Ethernet.View();
    private final Ipv4.View ipv4 = new Ipv4.View();
    private final Ipv6.View ipv6 = new Ipv6.View();
    private final Udp.View udp = new Udp.View();
    public final RocePacketView roce = new RocePacketView();
    private final Icrc icrc = new Icrc();
    private final int rocePort;
    private final boolean checkUdpChecksum;

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
        this(rocePort, true);
    }

    /**
     * @param checkUdpChecksum verify a non-zero UDP checksum; off for captures taken on a sending host,
     *                         where checksum offload leaves it unfinished (as Wireshark assumes by default)
     */
    public FrameView(int rocePort, boolean checkUdpChecksum) {
        this.rocePort = rocePort;
        this.checkUdpChecksum = checkUdpChecksum;
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
        this.hasEthernet = true;
        int type = Be.u16(b.segment, off + 12);
        int ip = off + Ethernet.LENGTH;
        if (type == Ethernet.TPID_8021Q) {
            if (len < Ethernet.LENGTH + Ethernet.VLAN_TAG_LENGTH) return ParseError.TRUNCATED;
            type = Be.u16(b.segment, off + 16);
            ip += Ethernet.VLAN_TAG_LENGTH;
        }
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

    // The hot path reads each header in a few 64-bit words rather than field by field.
    private ParseError ipv4(int off, int len) {
        if (len < Ipv4.LENGTH) return ParseError.TRUNCATED;
        MemorySegment s = buf.segment;
        long w0 = Be.u64(s, off);        // version/IHL, TOS, total length, identification, flags/fragment
        long w1 = Be.u64(s, off + 8);    // TTL, protocol, checksum, source
        if ((int) (w0 >>> 60) != 4) return ParseError.BAD_IP_VERSION;
        int ihl = (int) (w0 >>> 54) & 0x3c;
        if (ihl < Ipv4.LENGTH || ihl > len) return ParseError.BAD_IP_HEADER_LENGTH;
        if ((int) (w1 >>> 48 & 0xff) != Ipv4.PROTO_UDP) return null;
        int flagsFrag = (int) w0 & 0xffff;
        if ((flagsFrag & 0x1fff) != 0) return null; // a later fragment: no UDP header to look at
        if (len < ihl + Udp.LENGTH) return ParseError.TRUNCATED;
        udpOffset = off + ihl;
        long u = Be.u64(s, udpOffset);  // source port, destination port, length, checksum
        if ((int) (u >>> 32 & 0xffff) != rocePort) return null;
        isRoce = true;
        if ((flagsFrag & 0x2000) != 0) return ParseError.IP_FRAGMENT;
        int total = (int) (w0 >>> 32) & 0xffff;
        if (total < ihl + Udp.LENGTH || total > len) return ParseError.BAD_IP_LENGTH;
        ipEnd = off + total;
        long sum = ihl == Ipv4.LENGTH
                ? (w0 >>> 32) + (w0 & 0xffffffffL) + (w1 >>> 32) + (w1 & 0xffffffffL) + Integer.toUnsignedLong(Be.u32(s, off + 16))
                : Checksum.add(0, s, off, ihl);
        if (Checksum.fold(sum) != 0xffff) return ParseError.BAD_IP_CHECKSUM;
        int udpLength = (int) (u >>> 16) & 0xffff;
        if (udpLength != total - ihl) return ParseError.BAD_UDP_LENGTH;
        if (checkUdpChecksum && (u & 0xffff) != 0 && !udpChecksumOk(udpLength)) return ParseError.BAD_UDP_CHECKSUM;
        return roce(udpLength);
    }

    private ParseError ipv6(int off, int len) {
        if (len < Ipv6.LENGTH) return ParseError.TRUNCATED;
        MemorySegment s = buf.segment;
        long w0 = Be.u64(s, off);        // version, traffic class, flow label, payload length, next header, hops
        if ((int) (w0 >>> 60) != 6) return ParseError.BAD_IP_VERSION;
        if ((int) (w0 >>> 8 & 0xff) != Ipv4.PROTO_UDP) return null;
        if (len < Ipv6.LENGTH + Udp.LENGTH) return ParseError.TRUNCATED;
        udpOffset = off + Ipv6.LENGTH;
        long u = Be.u64(s, udpOffset);
        if ((int) (u >>> 32 & 0xffff) != rocePort) return null;
        isRoce = true;
        int payload = (int) (w0 >>> 16) & 0xffff;
        if (payload < Udp.LENGTH || Ipv6.LENGTH + payload > len) return ParseError.BAD_IP_LENGTH;
        ipEnd = off + Ipv6.LENGTH + payload;
        if (((int) (u >>> 16) & 0xffff) != payload) return ParseError.BAD_UDP_LENGTH;
        if (checkUdpChecksum && (u & 0xffff) != 0 && !udpChecksumOk(payload)) return ParseError.BAD_UDP_CHECKSUM;
        return roce(payload);
    }

    private ParseError roce(int udpLength) {
        roceOffset = udpOffset + Udp.LENGTH;
        roceLength = udpLength - Udp.LENGTH;
        return roce.wrap(buf.segment, roceOffset, roceLength);
    }

    private boolean udpChecksumOk(int udpLength) {
        return Checksum.fold(pseudoHeaderSum() + Checksum.add(0, buf.segment, udpOffset, udpLength)) == 0xffff;
    }

    /** Sum of the UDP pseudo-header (RFC 768 / RFC 8200 8.1) for the current IP and UDP headers. */
    long pseudoHeaderSum() {
        int ulen = Be.u16(buf.segment, udpOffset + 4);
        if (ipVersion == 4) {
            return Checksum.add(0, buf.segment, ipOffset + 12, 8) + Ipv4.PROTO_UDP + ulen;
        }
        return Checksum.add(0, buf.segment, ipOffset + 8, 32) + Ipv4.PROTO_UDP + ulen;
    }

    /** The ICRC this packet should carry, computed over the frame as it is. */
    public int expectedIcrc() {
        return icrc.compute(buf, ipOffset, ipVersion, roceOffset, roceLength);
    }

    /** Writes the ICRC the packet should carry: a link that skipped it stamps it before a tap reads the packet. */
    public void stampIcrc() {
        icrc.stamp(buf, ipOffset, ipVersion, roceOffset, roceLength);
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

    /** The Ethernet header; valid when {@link #hasEthernet()}. */
    public Ethernet.View ethernet() {
        return ethernet.wrap(buf.segment, frameOffset);
    }

    /** The IPv4 header; valid when {@link #ipVersion()} is 4. */
    public Ipv4.View ipv4() {
        return ipv4.wrap(buf.segment, ipOffset);
    }

    /** The IPv6 header; valid when {@link #ipVersion()} is 6. */
    public Ipv6.View ipv6() {
        return ipv6.wrap(buf.segment, ipOffset);
    }

    /** The UDP header; valid when {@link #udpOffset()} is not negative. */
    public Udp.View udp() {
        return udp.wrap(buf.segment, udpOffset);
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

    /** The ECN codepoint ({@link Ecn#bits}): the low two bits of IPv4's TOS or IPv6's traffic class. */
    public int ecnBits() {
        int second = Be.u8(buf.segment, ipOffset + 1);
        return ipVersion == 4 ? second & 3 : (second >>> 4) & 3;
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
