package org.softrnic.wire.frame;

import static org.softrnic.wire.Be.u16;
import static org.softrnic.wire.Be.u32;
import static org.softrnic.wire.Be.u8;

import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.softrnic.wire.header.HeaderView;

/**
 * IPv4 header (RFC 791) without options. rxe sends DF set, TTL 64, TOS 0 and a per-direction
 * identification counter; the ICRC covers the identification, so it must be reproduced exactly.
 */
public record Ipv4(int dscp, int ecn, int totalLength, int id, boolean df, boolean mf, int fragOffset, int ttl,
                   int protocol, int checksum, Inet4Address src, Inet4Address dst) implements IpHeader {
    public static final int LENGTH = 20;
    public static final int PROTO_UDP = 17;
    static final int VER_IHL = 0, TOS = 1, TOTAL_LENGTH = 2, ID = 4, FLAGS_FRAG = 6, TTL = 8, PROTOCOL = 9,
            CHECKSUM = 10, SRC = 12, DST = 16;
    /** Fields the ICRC masks to all ones (rxe_icrc.c): TOS, TTL and header checksum. */
    public static final int[][] ICRC_MASKED = {{TOS, 1}, {TTL, 1}, {CHECKSUM, 2}};

    public Ipv4 {
        if ((dscp & ~0x3f) != 0 || (ecn & ~3) != 0) throw new IllegalArgumentException("DSCP/ECN out of range");
        if ((id & ~0xffff) != 0 || (ttl & ~0xff) != 0 || (protocol & ~0xff) != 0) {
            throw new IllegalArgumentException("id/ttl/protocol out of range");
        }
        if ((fragOffset & ~0x1fff) != 0) throw new IllegalArgumentException("fragment offset not 13-bit");
    }

    /** A RoCEv2 header as rxe makes it: DF, TTL 64, TOS from dscp/ecn; lengths and checksum filled on encode. */
    public static Ipv4 roce(Inet4Address src, Inet4Address dst, int id, int dscp, int ecn) {
        return new Ipv4(dscp, ecn, 0, id, true, false, 0, 64, PROTO_UDP, 0, src, dst);
    }

    @Override
    public int version() {
        return 4;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }

    @Override
    public int etherType() {
        return Ethernet.ETHERTYPE_IPV4;
    }

    public static Ipv4 read(View v) {
        return new Ipv4(v.tos() >>> 2, v.tos() & 3, v.totalLength(), v.id(), v.df(), v.mf(), v.fragOffset(), v.ttl(),
                v.protocol(), v.checksum(), addr(v.srcInt()), addr(v.dstInt()));
    }

    /** Writes this header with the given total length and a freshly computed checksum. */
    public void write(MemorySegment s, long off, int newTotalLength) {
        write(s, off, dscp << 2 | ecn, newTotalLength, id, (df ? 0x4000 : 0) | (mf ? 0x2000 : 0) | fragOffset, ttl, protocol,
                toInt(src), toInt(dst));
    }

    /**
     * Writes a 20-byte header from raw fields (addresses as ints, flags and fragment offset as their 16 bits)
     * with a freshly computed checksum: for a hot path that keeps no record.
     */
    public static void write(MemorySegment s, long off, int tos, int totalLength, int id, int flagsFrag, int ttl,
                             int protocol, int src, int dst) {
        u8(s, off + VER_IHL, 0x45);
        u8(s, off + TOS, tos);
        u16(s, off + TOTAL_LENGTH, totalLength);
        u16(s, off + ID, id);
        u16(s, off + FLAGS_FRAG, flagsFrag);
        u8(s, off + TTL, ttl);
        u8(s, off + PROTOCOL, protocol);
        u32(s, off + SRC, src);
        u32(s, off + DST, dst);
        refreshChecksum(s, off);
    }

    /** Recomputes the checksum of the IPv4 header at {@code off} (its length from IHL) after a field changed. */
    public static void refreshChecksum(MemorySegment s, long off) {
        u16(s, off + CHECKSUM, 0);
        u16(s, off + CHECKSUM, Checksum.finish(Checksum.add(0, s, off, (s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, off) & 0xf) * 4)));
    }

    public static Inet4Address addr(int a) {
        try {
            return (Inet4Address) InetAddress.getByAddress(new byte[] {(byte) (a >>> 24), (byte) (a >>> 16),
                    (byte) (a >>> 8), (byte) a});
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    public static int toInt(Inet4Address a) {
        byte[] b = a.getAddress();
        return (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
    }

    /** Zero-copy view of an IPv4 header. */
    public static final class View extends HeaderView<View> {
        public int version() { return u8(seg, off + VER_IHL) >>> 4; }
        /** Header length in bytes (IHL x 4). */
        public int headerLength() { return (u8(seg, off + VER_IHL) & 0xf) * 4; }
        public int tos() { return u8(seg, off + TOS); }
        public int totalLength() { return u16(seg, off + TOTAL_LENGTH); }
        public int id() { return u16(seg, off + ID); }
        public boolean df() { return (u16(seg, off + FLAGS_FRAG) & 0x4000) != 0; }
        public boolean mf() { return (u16(seg, off + FLAGS_FRAG) & 0x2000) != 0; }
        public int fragOffset() { return u16(seg, off + FLAGS_FRAG) & 0x1fff; }
        public int ttl() { return u8(seg, off + TTL); }
        public int protocol() { return u8(seg, off + PROTOCOL); }
        public int checksum() { return u16(seg, off + CHECKSUM); }
        public int srcInt() { return u32(seg, off + SRC); }
        public int dstInt() { return u32(seg, off + DST); }
        /** True when the header checksum verifies (the one's complement sum folds to 0xffff). */
        public boolean checksumOk() { return Checksum.fold(Checksum.add(0, seg, off, headerLength())) == 0xffff; }
    }
}
