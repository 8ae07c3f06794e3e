package org.softrnic.wire.frame;

import static org.softrnic.wire.Be.u16;
import static org.softrnic.wire.Be.u32;
import static org.softrnic.wire.Be.u8;

import java.lang.foreign.MemorySegment;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.softrnic.wire.header.HeaderView;

/** IPv6 fixed header (RFC 8200), 40 bytes; RoCEv2 puts UDP directly after it. */
public record Ipv6(int dscp, int ecn, int flowLabel, int payloadLength, int nextHeader, int hopLimit,
                   Inet6Address src, Inet6Address dst) implements IpHeader {
    public static final int LENGTH = 40;
    static final int VTF = 0, PAYLOAD_LENGTH = 4, NEXT_HEADER = 6, HOP_LIMIT = 7, SRC = 8, DST = 24;

    public Ipv6 {
        if ((dscp & ~0x3f) != 0 || (ecn & ~3) != 0) throw new IllegalArgumentException("DSCP/ECN out of range");
        if ((flowLabel & ~0xfffff) != 0) throw new IllegalArgumentException("flow label not 20-bit");
        if ((nextHeader & ~0xff) != 0 || (hopLimit & ~0xff) != 0) throw new IllegalArgumentException("out of range");
    }

    /** A RoCEv2 header as rxe makes it: hop limit 64, flow label 0; payload length filled on encode. */
    public static Ipv6 roce(Inet6Address src, Inet6Address dst, int dscp, int ecn) {
        return new Ipv6(dscp, ecn, 0, 0, Ipv4.PROTO_UDP, 64, src, dst);
    }

    @Override
    public int version() {
        return 6;
    }

    @Override
    public int ttl() {
        return hopLimit;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }

    @Override
    public int etherType() {
        return Ethernet.ETHERTYPE_IPV6;
    }

    public static Ipv6 read(View v) {
        int tc = v.trafficClass();
        return new Ipv6(tc >>> 2, tc & 3, v.flowLabel(), v.payloadLength(), v.nextHeader(), v.hopLimit(),
                v.src(), v.dst());
    }

    public void write(MemorySegment s, long off, int newPayloadLength) {
        u32(s, off + VTF, 6 << 28 | (dscp << 2 | ecn) << 20 | flowLabel);
        u16(s, off + PAYLOAD_LENGTH, newPayloadLength);
        u8(s, off + NEXT_HEADER, nextHeader);
        u8(s, off + HOP_LIMIT, hopLimit);
        MemorySegment.copy(src.getAddress(), 0, s, java.lang.foreign.ValueLayout.JAVA_BYTE, off + SRC, 16);
        MemorySegment.copy(dst.getAddress(), 0, s, java.lang.foreign.ValueLayout.JAVA_BYTE, off + DST, 16);
    }

    static Inet6Address addr(MemorySegment s, long off) {
        byte[] b = new byte[16];
        MemorySegment.copy(s, java.lang.foreign.ValueLayout.JAVA_BYTE, off, b, 0, 16);
        try {
            // getByAddress would turn ::ffff:a.b.c.d into an Inet4Address; keep it IPv6.
            return Inet6Address.getByAddress(null, b, null);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    public static Inet6Address parse(String text) {
        try {
            InetAddress a = InetAddress.getByName(text);
            return a instanceof Inet6Address v6 ? v6 : Inet6Address.getByAddress(null, mapped(a.getAddress()), null);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IPv6 address: " + text, e);
        }
    }

    private static byte[] mapped(byte[] v4) {
        byte[] b = new byte[16];
        b[10] = (byte) 0xff;
        b[11] = (byte) 0xff;
        System.arraycopy(v4, 0, b, 12, 4);
        return b;
    }

    /** Zero-copy view of an IPv6 header. */
    public static final class View extends HeaderView<View> {
        public int version() { return u8(seg, off) >>> 4; }
        public int trafficClass() { return (u32(seg, off + VTF) >>> 20) & 0xff; }
        public int flowLabel() { return u32(seg, off + VTF) & 0xfffff; }
        public int payloadLength() { return u16(seg, off + PAYLOAD_LENGTH); }
        public int nextHeader() { return u8(seg, off + NEXT_HEADER); }
        public int hopLimit() { return u8(seg, off + HOP_LIMIT); }
        public Inet6Address src() { return addr(seg, off + SRC); }
        public Inet6Address dst() { return addr(seg, off + DST); }
    }
}
