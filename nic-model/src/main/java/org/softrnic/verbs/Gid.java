package org.softrnic.verbs;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;

/**
 * A RoCEv2 GID: an IPv6 address, or an IPv4 address mapped as ::ffff:a.b.c.d, which RoCEv2 then carries in
 * an IPv4 header.
 */
public record Gid(long hi, long lo) {
    private static final long V4_MAPPED_LO_MASK = 0xffffffff00000000L;
    private static final long V4_MAPPED_LO = 0x0000ffff00000000L;

    public static Gid of(byte[] raw) {
        if (raw.length != 16) throw new IllegalArgumentException("a GID has 16 bytes, not " + raw.length);
        return of(raw, 0);
    }

    /** The GID in the 16 bytes of {@code bytes} from {@code offset} on (an IPv6 address inside a packet). */
    public static Gid of(byte[] bytes, int offset) {
        java.util.Objects.checkFromIndexSize(offset, 16, bytes.length);
        long hi = 0;
        long lo = 0;
        for (int i = offset; i < offset + 8; i++) hi = hi << 8 | (bytes[i] & 0xff);
        for (int i = offset + 8; i < offset + 16; i++) lo = lo << 8 | (bytes[i] & 0xff);
        return new Gid(hi, lo);
    }

    public static Gid of(InetAddress a) {
        if (a instanceof Inet4Address v4) {
            byte[] b = v4.getAddress();
            return new Gid(0, V4_MAPPED_LO | (b[0] & 0xffL) << 24 | (b[1] & 0xffL) << 16 | (b[2] & 0xffL) << 8 | (b[3] & 0xffL));
        }
        return of(a.getAddress());
    }

    /** Parses "192.0.2.1", "::ffff:192.0.2.1", "fe80::1" or 32 hex digits (as ibv_*_pingpong exchange them). */
    public static Gid parse(String text) {
        if (text.matches("[0-9a-fA-F]{32}")) return of(HexFormat.of().parseHex(text));
        try {
            return of(InetAddress.ofLiteral(text)); // an address, never a name to look up
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a GID: " + text, e);
        }
    }

    public boolean isIpv4Mapped() {
        return hi == 0 && (lo & V4_MAPPED_LO_MASK) == V4_MAPPED_LO;
    }

    public byte[] raw() {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) b[i] = (byte) (hi >>> (56 - 8 * i));
        for (int i = 0; i < 8; i++) b[8 + i] = (byte) (lo >>> (56 - 8 * i));
        return b;
    }

    /** The IP address the GID stands for: IPv4 when mapped, else IPv6. */
    public InetAddress toInetAddress() {
        try {
            if (isIpv4Mapped()) {
                int a = (int) lo;
                return InetAddress.getByAddress(new byte[] {(byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a});
            }
            return Inet6Address.getByAddress(null, raw(), null);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** 32 hex digits, the wire form of the pingpong tools' exchange. */
    public String hex() {
        return HexFormat.of().formatHex(raw());
    }

    @Override
    public String toString() {
        return isIpv4Mapped() ? "::ffff:" + toInetAddress().getHostAddress() : toInetAddress().getHostAddress();
    }
}
