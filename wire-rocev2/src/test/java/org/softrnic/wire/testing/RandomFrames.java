package org.softrnic.wire.testing;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.Random;
import org.softrnic.wire.HeaderKind;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.frame.IpHeader;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.Ipv6;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.frame.Udp;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.AtomicAckEth;
import org.softrnic.wire.header.AtomicEth;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.header.Deth;
import org.softrnic.wire.header.Feth;
import org.softrnic.wire.header.Ieth;
import org.softrnic.wire.header.ImmDt;
import org.softrnic.wire.header.Rdeth;
import org.softrnic.wire.header.Reth;
import org.softrnic.wire.packet.RocePacket;

/** Random but well-formed frames for every opcode, from a seed, for property and cross-decoder tests. */
public final class RandomFrames {
    public enum Link { RAW_IPV4, RAW_IPV6, ETHERNET_IPV4, ETHERNET_IPV6, VLAN_IPV4 }

    private RandomFrames() {}

    public static RoceFrame frame(Random r, Opcode op, Link link, int maxPayload) {
        boolean v6 = link == Link.RAW_IPV6 || link == Link.ETHERNET_IPV6;
        IpHeader ip = v6
                ? new Ipv6(r.nextInt(64), r.nextInt(4), r.nextInt(1 << 20), 0, Ipv4.PROTO_UDP, 1 + r.nextInt(255),
                        Ipv6.parse(randomV6(r)), Ipv6.parse(randomV6(r)))
                : Ipv4.roce(Ipv4.addr(r.nextInt()), Ipv4.addr(r.nextInt()), r.nextInt(1 << 16), r.nextInt(64), r.nextInt(4));
        Ethernet eth = switch (link) {
            case RAW_IPV4, RAW_IPV6 -> null;
            case ETHERNET_IPV4, ETHERNET_IPV6 -> new Ethernet(mac(r), mac(r), -1, ip.etherType());
            case VLAN_IPV4 -> new Ethernet(mac(r), mac(r), r.nextInt(1 << 16), ip.etherType());
        };
        Udp udp = new Udp(0xc000 | r.nextInt(1 << 14), Udp.ROCE_PORT, 0, 0);
        return new RoceFrame(eth, ip, udp, packet(r, op, maxPayload), null);
    }

    public static RocePacket packet(Random r, Opcode op, int maxPayload) {
        int len = !op.payload ? 0 : op == Opcode.RC_ATOMIC_WRITE || op == Opcode.RD_ATOMIC_WRITE
                ? Opcode.ATOMIC_WRITE_PAYLOAD : r.nextInt(maxPayload + 1);
        byte[] payload = new byte[len];
        r.nextBytes(payload);
        Bth bth = new Bth(op, r.nextBoolean(), r.nextBoolean(), RocePacket.padFor(len), 0, r.nextInt(1 << 16),
                r.nextBoolean(), r.nextBoolean(), r.nextInt(1 << 24), r.nextBoolean(), r.nextInt(1 << 24));
        return new RocePacket(bth,
                op.has(HeaderKind.RDETH) ? new Rdeth(r.nextInt(1 << 24)) : null,
                op.has(HeaderKind.DETH) ? new Deth(r.nextInt(), r.nextInt(1 << 24)) : null,
                op.has(HeaderKind.FETH) ? new Feth(r.nextInt(16), r.nextInt(4)) : null,
                op.has(HeaderKind.RETH) ? new Reth(r.nextLong(), r.nextInt(), r.nextInt()) : null,
                op.has(HeaderKind.ATOMIC_ETH) ? new AtomicEth(r.nextLong(), r.nextInt(), r.nextLong(), r.nextLong()) : null,
                op.has(HeaderKind.AETH) ? new Aeth(r.nextInt(256), r.nextInt(1 << 24)) : null,
                op.has(HeaderKind.ATOMIC_ACK_ETH) ? new AtomicAckEth(r.nextLong()) : null,
                op.has(HeaderKind.IMMDT) ? new ImmDt(r.nextInt()) : null,
                op.has(HeaderKind.IETH) ? new Ieth(r.nextInt()) : null,
                payload, 0);
    }

    private static long mac(Random r) {
        return r.nextLong() & 0xfeffffffffffL; // unicast
    }

    private static String randomV6(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i > 0) sb.append(':');
            sb.append(Integer.toHexString(r.nextInt(1 << 16)));
        }
        return sb.toString();
    }

    public static Inet4Address v4(String dotted) {
        String[] p = dotted.split("\\.");
        return Ipv4.addr(Integer.parseInt(p[0]) << 24 | Integer.parseInt(p[1]) << 16 | Integer.parseInt(p[2]) << 8
                | Integer.parseInt(p[3]));
    }

    public static Inet6Address v6(String text) {
        return Ipv6.parse(text);
    }
}
