package org.softrnic.wire.frame;

import static org.softrnic.wire.Be.u16;
import static org.softrnic.wire.Be.u32;

import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import org.softrnic.wire.header.HeaderView;

/**
 * Ethernet II header, optionally 802.1Q tagged: dst(6) src(6) [0x8100 TCI(2)] EtherType(2).
 * MAC addresses are held in the low 48 bits of a long.
 *
 * @param vlanTci the 802.1Q tag control information, or -1 when the frame is untagged
 */
public record Ethernet(long dst, long src, int vlanTci, int etherType) {
    public static final int LENGTH = 14;
    public static final int VLAN_TAG_LENGTH = 4;
    /** What an untagged frame takes on the wire beyond its IP packet: header, FCS, preamble and SFD, inter-frame gap. */
    public static final int FRAMING_BYTES = LENGTH + 4 + 8 + 12;
    public static final int TPID_8021Q = 0x8100;
    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_IPV6 = 0x86dd;
    public static final int ETHERTYPE_ARP = 0x0806;
    /** Frames shorter than this (without FCS) are padded on the wire. */
    public static final int MIN_FRAME = 60;

    public Ethernet {
        if ((dst >>> 48) != 0 || (src >>> 48) != 0) throw new IllegalArgumentException("MAC address not 48-bit");
        if (vlanTci < -1 || vlanTci > 0xffff) throw new IllegalArgumentException("VLAN TCI not 16-bit");
        if ((etherType & ~0xffff) != 0) throw new IllegalArgumentException("EtherType not 16-bit");
    }

    public boolean tagged() {
        return vlanTci >= 0;
    }

    public int length() {
        return LENGTH + (tagged() ? VLAN_TAG_LENGTH : 0);
    }

    public static Ethernet read(MemorySegment s, long off) {
        long dst = readMac(s, off);
        long src = readMac(s, off + 6);
        int type = u16(s, off + 12);
        if (type == TPID_8021Q) {
            return new Ethernet(dst, src, u16(s, off + 14), u16(s, off + 16));
        }
        return new Ethernet(dst, src, -1, type);
    }

    public int write(MemorySegment s, long off) {
        writeMac(s, off, dst);
        writeMac(s, off + 6, src);
        if (tagged()) {
            u16(s, off + 12, TPID_8021Q);
            u16(s, off + 14, vlanTci);
            u16(s, off + 16, etherType);
        } else {
            u16(s, off + 12, etherType);
        }
        return length();
    }

    static long readMac(MemorySegment s, long off) {
        return (Integer.toUnsignedLong(u32(s, off)) << 16) | u16(s, off + 4);
    }

    static void writeMac(MemorySegment s, long off, long mac) {
        u32(s, off, (int) (mac >>> 16));
        u16(s, off + 4, (int) mac);
    }

    public static String formatMac(long mac) {
        String h = HexFormat.of().toHexDigits(mac).substring(4);
        StringBuilder sb = new StringBuilder(17);
        for (int i = 0; i < 12; i += 2) {
            if (i > 0) sb.append(':');
            sb.append(h, i, i + 2);
        }
        return sb.toString();
    }

    public static long parseMac(String text) {
        String[] parts = text.split("[:-]");
        if (parts.length != 6) throw new IllegalArgumentException("not a MAC address: " + text);
        long mac = 0;
        for (String p : parts) {
            if (p.length() != 2) throw new IllegalArgumentException("not a MAC address: " + text);
            mac = mac << 8 | HexFormat.fromHexDigits(p);
        }
        return mac;
    }

    /** Zero-copy view of the EtherType and tag; addresses are rarely needed on the hot path. */
    public static final class View extends HeaderView<View> {
        public boolean tagged() { return u16(seg, off + 12) == TPID_8021Q; }
        public int etherType() { return tagged() ? u16(seg, off + 16) : u16(seg, off + 12); }
        public int headerLength() { return tagged() ? LENGTH + VLAN_TAG_LENGTH : LENGTH; }
        public long dst() { return readMac(seg, off); }
        public long src() { return readMac(seg, off + 6); }
    }
}
