package org.softrnic.wire.frame;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.ParseError;
import org.softrnic.wire.icrc.Icrc;
import org.softrnic.wire.packet.RocePacket;

/** Record-level encode and decode of whole frames, for tests, the CLI and pcap work (not the hot path). */
public final class FrameCodec {
    private final FrameView view;
    private final Icrc icrc = new Icrc();
    private final int rocePort;

    public FrameCodec() {
        this(Udp.ROCE_PORT);
    }

    public FrameCodec(int rocePort) {
        this(rocePort, true);
    }

    /** @param checkUdpChecksum see {@link FrameView#FrameView(int, boolean)} */
    public FrameCodec(int rocePort, boolean checkUdpChecksum) {
        this.view = new FrameView(rocePort, checkUdpChecksum);
        this.rocePort = rocePort;
    }

    /** The UDP destination port that marks RoCEv2 traffic for this codec. */
    public int rocePort() {
        return rocePort;
    }

    /** Encodes the frame, deriving IP and UDP lengths, the IPv4 checksum, a non-zero UDP checksum, and the ICRC. */
    public byte[] encode(RoceFrame f) {
        byte[] out = new byte[f.encodedLength()];
        PacketBuffer buf = PacketBuffer.wrap(out);
        MemorySegment s = buf.segment;
        int ipOff = f.ethernet() == null ? 0 : f.ethernet().write(s, 0);
        int ipLen = f.ipLength();
        int udpOff = ipOff + f.ip().headerLength();
        int roceOff = udpOff + Udp.LENGTH;
        int roceLen = f.roce().write(s, roceOff);
        int udpLen = Udp.LENGTH + roceLen;
        switch (f.ip()) {
            case Ipv4 v4 -> v4.write(s, ipOff, ipLen);
            case Ipv6 v6 -> v6.write(s, ipOff, udpLen);
        }
        f.udp().write(s, udpOff, udpLen);
        icrc.stamp(buf, ipOff, f.ip().version(), roceOff, roceLen);
        if (f.udp().checksum() != 0) {
            view.wrapIp(buf, ipOff, ipLen);
            Udp.View u = new Udp.View().wrap(s, udpOff).checksum(0);
            int sum = Checksum.finish(view.pseudoHeaderSum() + Checksum.add(0, s, udpOff, udpLen));
            u.checksum(sum == 0 ? 0xffff : sum);
        }
        byte[] trailer = f.trailer();
        System.arraycopy(trailer, 0, out, ipOff + ipLen, trailer.length);
        return out;
    }

    /** Decodes an Ethernet frame. */
    public DecodedFrame decodeEthernet(byte[] frame) {
        PacketBuffer buf = PacketBuffer.wrap(frame);
        return toRecord(view.wrapEthernet(buf, 0, frame.length));
    }

    /** Decodes a raw IPv4 or IPv6 packet. */
    public DecodedFrame decodeIp(byte[] packet, int offset) {
        PacketBuffer buf = PacketBuffer.wrap(packet);
        return toRecord(view.wrapIp(buf, offset, packet.length - offset));
    }

    private DecodedFrame toRecord(ParseError error) {
        FrameView v = view;
        Ethernet eth = v.hasEthernet() && v.frameEnd() - v.frameOffset() >= v.ethernet().headerLength()
                ? Ethernet.read(v.buffer().segment, v.frameOffset()) : null;
        IpHeader ip = null;
        if (v.ipOffset() >= 0 && v.udpOffset() >= 0) {
            ip = v.ipVersion() == 4 ? Ipv4.read(v.ipv4()) : Ipv6.read(v.ipv6());
        }
        Udp udp = v.udpOffset() >= 0 ? Udp.read(v.udp()) : null;
        RocePacket packet = null;
        int expected = 0;
        int found = 0;
        if (v.isRoce() && error == null) {
            packet = RocePacket.read(v.roce);
            expected = v.expectedIcrc();
            found = v.roce.icrc();
            if (expected != found) error = ParseError.ICRC_MISMATCH;
        }
        byte[] trailer = new byte[0];
        if (packet != null && v.frameEnd() > v.ipEnd()) {
            trailer = new byte[v.frameEnd() - v.ipEnd()];
            MemorySegment.copy(v.buffer().segment, v.ipEnd(), MemorySegment.ofArray(trailer), 0, trailer.length);
        }
        return new DecodedFrame(eth, ip, udp, v.isRoce(), packet, error, expected, found, trailer);
    }
}
