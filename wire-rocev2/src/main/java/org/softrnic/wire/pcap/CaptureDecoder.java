package org.softrnic.wire.pcap;

import org.softrnic.wire.ParseError;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.frame.FrameCodec;

/** Finds the network layer in a captured frame according to its link type, and decodes from there. */
public final class CaptureDecoder {
    private static final DecodedFrame NOT_ROCE = new DecodedFrame(null, null, null, false, null, null, 0, 0, new byte[0]);
    private final FrameCodec codec;

    public CaptureDecoder() {
        this(new FrameCodec());
    }

    public CaptureDecoder(FrameCodec codec) {
        this.codec = codec;
    }

    public DecodedFrame decode(CapturedFrame f) {
        LinkType type = f.linkType();
        byte[] d = f.data();
        if (type == null) return NOT_ROCE;
        return switch (type) {
            case ETHERNET -> codec.decodeEthernet(d);
            case RAW, RAW_12, RAW_14, IPV4, IPV6 -> codec.decodeIp(d, 0);
            case LINUX_SLL -> cooked(d, LinkType.SLL_LENGTH, 14);
            case LINUX_SLL2 -> cooked(d, LinkType.SLL2_LENGTH, 0);
        };
    }

    /**
     * The packet from its IP header to the end of the UDP datagram, as captured (a link's padding and trailer
     * left out), or null when the frame holds no UDP packet.
     */
    public static byte[] ipPacket(CapturedFrame f, DecodedFrame d) {
        if (d.ip() == null || d.udp() == null) return null;
        int ipLength = (d.ip().version() == 4 ? 20 : 40) + d.udp().length();
        int start = f.data().length - d.trailer().length - ipLength;
        return start < 0 ? null : java.util.Arrays.copyOfRange(f.data(), start, start + ipLength);
    }

    private DecodedFrame cooked(byte[] d, int headerLength, int protocolOffset) {
        if (d.length < headerLength) {
            return new DecodedFrame(null, null, null, false, null, ParseError.TRUNCATED, 0, 0, new byte[0]);
        }
        int proto = (d[protocolOffset] & 0xff) << 8 | (d[protocolOffset + 1] & 0xff);
        if (proto != Ethernet.ETHERTYPE_IPV4 && proto != Ethernet.ETHERTYPE_IPV6) return NOT_ROCE;
        return codec.decodeIp(d, headerLength);
    }
}
