package org.softrnic.wire.pcap;

import org.softrnic.wire.Opcode;
import org.softrnic.wire.ParseError;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.Udp;

/** Finds the network layer in a captured frame according to its link type, and decodes from there. */
public final class CaptureDecoder {
    private static final DecodedFrame NOT_ROCE = new DecodedFrame(null, null, null, false, null, null, 0, 0, new byte[0]);
    private final FrameCodec codec;
    /** For frames a short snaplen cut: the UDP checksum covers bytes that were not captured. */
    private FrameCodec cutCodec;

    public CaptureDecoder() {
        this(new FrameCodec());
    }

    public CaptureDecoder(FrameCodec codec) {
        this.codec = codec;
    }

    public DecodedFrame decode(CapturedFrame f) {
        LinkType type = f.linkType();
        if (type == null) return NOT_ROCE;
        if (f.data().length < f.originalLength()) return cut(f, type);
        return decode(codec, type, f.data());
    }

    /**
     * A frame the capture cut short (as Wireshark does, the headers that were captured are decoded): decoded as if
     * the missing bytes were zeros, then kept only when the RoCE headers lie inside the captured part.
     */
    private DecodedFrame cut(CapturedFrame f, LinkType type) {
        if (cutCodec == null) cutCodec = new FrameCodec(codec.rocePort(), false);
        byte[] whole = java.util.Arrays.copyOf(f.data(), f.originalLength());
        DecodedFrame d = decode(cutCodec, type, whole);
        if (!d.roce()) return d;
        if (d.ip() == null || d.udp() == null) {
            return new DecodedFrame(d.ethernet(), d.ip(), d.udp(), true, null, ParseError.TRUNCATED, 0, 0, new byte[0]);
        }
        if (d.packet() == null) {
            // refused for what the captured headers say (the lengths), unless the BTH itself was cut
            boolean bthCaptured = whole.length - d.udp().length() + Udp.LENGTH + Opcode.BTH_BYTES <= f.data().length;
            return bthCaptured ? d : new DecodedFrame(d.ethernet(), d.ip(), d.udp(), true, null, ParseError.TRUNCATED, 0, 0, new byte[0]);
        }
        int roceStart = whole.length - d.trailer().length - d.udp().length() + Udp.LENGTH;
        if (roceStart + d.packet().opcode().headerLength > f.data().length) {
            return new DecodedFrame(d.ethernet(), d.ip(), d.udp(), true, null, ParseError.TRUNCATED, 0, 0, new byte[0]);
        }
        return new DecodedFrame(d.ethernet(), d.ip(), d.udp(), true, d.packet(), ParseError.CAPTURE_CUT, 0, 0, d.trailer());
    }

    private static DecodedFrame decode(FrameCodec codec, LinkType type, byte[] d) {
        return switch (type) {
            case ETHERNET -> codec.decodeEthernet(d);
            case RAW, RAW_12, RAW_14, IPV4, IPV6 -> codec.decodeIp(d, 0);
            case LINUX_SLL -> cooked(codec, d, LinkType.SLL_LENGTH, 14);
            case LINUX_SLL2 -> cooked(codec, d, LinkType.SLL2_LENGTH, 0);
        };
    }

    /**
     * The packet from its IP header to the end of the UDP datagram, as captured (a link's padding and trailer
     * left out), or null when the frame holds no UDP packet.
     */
    public static byte[] ipPacket(CapturedFrame f, DecodedFrame d) {
        if (d.ip() == null || d.udp() == null) return null;
        // a frame the snaplen cut: its bytes past the capture are zeros here (their lengths are the headers')
        byte[] data = f.data().length < f.originalLength() ? java.util.Arrays.copyOf(f.data(), f.originalLength()) : f.data();
        int ipLength = (d.ip().version() == 4 ? 20 : 40) + d.udp().length();
        int start = data.length - d.trailer().length - ipLength;
        return start < 0 ? null : java.util.Arrays.copyOfRange(data, start, start + ipLength);
    }

    private static DecodedFrame cooked(FrameCodec codec, byte[] d, int headerLength, int protocolOffset) {
        if (d.length < headerLength) {
            return new DecodedFrame(null, null, null, false, null, ParseError.TRUNCATED, 0, 0, new byte[0]);
        }
        int proto = (d[protocolOffset] & 0xff) << 8 | (d[protocolOffset + 1] & 0xff);
        if (proto != Ethernet.ETHERTYPE_IPV4 && proto != Ethernet.ETHERTYPE_IPV6) return NOT_ROCE;
        return codec.decodeIp(d, headerLength);
    }
}
