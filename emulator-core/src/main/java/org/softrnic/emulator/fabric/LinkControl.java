package org.softrnic.emulator.fabric;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.Be;
import org.softrnic.wire.frame.Checksum;
import org.softrnic.wire.frame.Ethernet;

/**
 * The frames a frame port writes to find its neighbours and be found: ARP (RFC 826) for IPv4, and IPv6
 * neighbour discovery (RFC 4861: solicitation to the solicited-node group, advertisement back) with its
 * ICMPv6 checksum. Each writes a whole Ethernet frame at offset 0 and returns its length.
 */
final class LinkControl {
    static final int ICMPV6 = 58;
    static final int NS = 135;
    static final int NA = 136;
    static final long BROADCAST = 0xffff_ffff_ffffL;
    /** ND options: source and target link-layer address. */
    static final int OPT_SLLA = 1;
    static final int OPT_TLLA = 2;
    /** An NS or NA: 4 bytes of type, code and checksum, 4 of flags, the target, one 8-byte MAC option. */
    private static final int ND_LENGTH = 32;

    private LinkControl() {
    }

    static void ethernet(MemorySegment s, long at, long dst, long src, int etherType) {
        Be.u16(s, at, (int) (dst >>> 32));
        Be.u32(s, at + 2, (int) dst);
        Be.u16(s, at + 6, (int) (src >>> 32));
        Be.u32(s, at + 8, (int) src);
        Be.u16(s, at + 12, etherType);
    }

    static long mac(MemorySegment s, long at) {
        return (long) Be.u16(s, at) << 32 | Integer.toUnsignedLong(Be.u32(s, at + 2));
    }

    /** ARP: {@code op} 1 request (to broadcast), 2 reply (to {@code targetMac}). */
    static int arp(MemorySegment a, int op, long mac, int ip, long targetMac, int targetIp) {
        ethernet(a, 0, op == 1 ? BROADCAST : targetMac, mac, Ethernet.ETHERTYPE_ARP);
        Be.u16(a, 14, 1);
        Be.u16(a, 16, 0x0800);
        Be.u8(a, 18, 6);
        Be.u8(a, 19, 4);
        Be.u16(a, 20, op);
        Be.u16(a, 22, (int) (mac >>> 32));
        Be.u32(a, 24, (int) mac);
        Be.u32(a, 28, ip);
        Be.u16(a, 32, (int) (targetMac >>> 32));
        Be.u32(a, 34, (int) targetMac);
        Be.u32(a, 38, targetIp);
        return 42;
    }

    /** A neighbour solicitation for {@code target}, to its solicited-node group ff02::1:ffXX:XXXX (MAC 33:33:ff:XX:XX:XX). */
    static int solicit(MemorySegment s, long mac, long srcHi, long srcLo, long targetHi, long targetLo) {
        long groupHi = 0xff02_0000_0000_0000L;
        long groupLo = 0x0000_0001_ff00_0000L | (targetLo & 0xff_ffffL);
        ethernet(s, 0, 0x3333_ff00_0000L | (targetLo & 0xff_ffffL), mac, Ethernet.ETHERTYPE_IPV6);
        return nd(s, NS, 0, mac, OPT_SLLA, srcHi, srcLo, groupHi, groupLo, targetHi, targetLo);
    }

    /** A solicited neighbour advertisement for our own address, back to the one who asked. */
    static int advertise(MemorySegment s, long mac, long ourHi, long ourLo, long toMac, long toHi, long toLo) {
        ethernet(s, 0, toMac, mac, Ethernet.ETHERTYPE_IPV6);
        return nd(s, NA, 0x6000_0000, mac, OPT_TLLA, ourHi, ourLo, toHi, toLo, ourHi, ourLo);
    }

    private static int nd(MemorySegment s, int type, int flags, long mac, int option, long srcHi, long srcLo, long dstHi,
                          long dstLo, long targetHi, long targetLo) {
        int ip = Ethernet.LENGTH;
        Be.u32(s, ip, 0x6000_0000);
        Be.u16(s, ip + 4, ND_LENGTH);
        Be.u8(s, ip + 6, ICMPV6);
        Be.u8(s, ip + 7, 255); // ND refuses anything that may have crossed a router
        Be.u64(s, ip + 8, srcHi);
        Be.u64(s, ip + 16, srcLo);
        Be.u64(s, ip + 24, dstHi);
        Be.u64(s, ip + 32, dstLo);
        int icmp = ip + 40;
        Be.u8(s, icmp, type);
        Be.u8(s, icmp + 1, 0);
        Be.u16(s, icmp + 2, 0);
        Be.u32(s, icmp + 4, flags);
        Be.u64(s, icmp + 8, targetHi);
        Be.u64(s, icmp + 16, targetLo);
        Be.u8(s, icmp + 24, option);
        Be.u8(s, icmp + 25, 1); // in units of 8 bytes
        Be.u16(s, icmp + 26, (int) (mac >>> 32));
        Be.u32(s, icmp + 28, (int) mac);
        Be.u16(s, icmp + 2, icmpv6Checksum(s, ip, ND_LENGTH));
        return Ethernet.LENGTH + 40 + ND_LENGTH;
    }

    /** ICMPv6's checksum: the pseudo-header (addresses, length, next header) and the message. */
    static int icmpv6Checksum(MemorySegment s, long ip, int length) {
        long sum = Checksum.add(0, s, ip + 8, 32);
        sum += length + ICMPV6;
        return Checksum.finish(Checksum.add(sum, s, ip + 40, length));
    }

    /** The MAC in an ND message's option of {@code type} (ICMPv6 message at {@code icmp}, {@code length} bytes), or -1. */
    static long ndOption(MemorySegment s, long icmp, int length, int type) {
        for (int at = 24; at + 8 <= length; ) {
            int t = Be.u8(s, icmp + at);
            int units = Be.u8(s, icmp + at + 1);
            if (units == 0) return -1; // malformed: RFC 4861 says drop
            if (t == type && units == 1) return mac(s, icmp + at + 2);
            at += units * 8;
        }
        return -1;
    }
}
