package org.softrnic.cli.decode;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.softrnic.wire.frame.IpHeader;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.Ipv6;

/**
 * An IPv4 or IPv6 packet that is not RoCEv2, named by its protocol as tshark names it: TCP and UDP with their
 * ports (and the tools' out-of-band exchange on TCP, {@link OobMessage}), ICMP and ICMPv6 by their type.
 */
final class IpTraffic {
    private static final Map<Integer, String> PROTOCOLS = Map.of(1, "ICMP", 2, "IGMP", 6, "TCP", 17, "UDP", 47, "GRE",
            50, "ESP", 58, "ICMPv6", 132, "SCTP");
    private static final Map<Integer, String> ICMP_TYPES = Map.of(0, "echo reply", 3, "destination unreachable", 5, "redirect",
            8, "echo request", 11, "time exceeded");
    private static final Map<Integer, String> ICMPV6_TYPES = Map.ofEntries(Map.entry(1, "destination unreachable"),
            Map.entry(2, "packet too big"), Map.entry(3, "time exceeded"), Map.entry(128, "echo request"), Map.entry(129, "echo reply"),
            Map.entry(130, "multicast listener query"), Map.entry(131, "multicast listener report"),
            Map.entry(132, "multicast listener done"), Map.entry(133, "router solicitation"), Map.entry(134, "router advertisement"),
            Map.entry(135, "neighbor solicitation"), Map.entry(136, "neighbor advertisement"),
            Map.entry(143, "multicast listener report v2"));
    /** ICMPv6 messages about an address, which follows their first 8 bytes (RFC 4861): tshark names it. */
    private static final Set<Integer> ICMPV6_TARGET = Set.of(135, 136);
    /** IPv6 extension headers walked to reach the protocol: hop-by-hop, routing, destination options, fragment, AH. */
    private static final Set<Integer> EXTENSIONS = Set.of(0, 43, 60, 44, 51);
    /** TCP's flag bits from the lowest, in tshark's order. */
    private static final String[] TCP_FLAGS = {"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR"};
    private static final int TCP = 6, UDP = 17, ICMP = 1, ICMPV6 = 58;

    private IpTraffic() {
    }

    static OtherTraffic.Named of(byte[] d, int off, int version, List<Layer> layers) {
        String v = "IPv" + version;
        MemorySegment seg = MemorySegment.ofArray(d);
        IpHeader ip;
        int stop;
        int l4;
        int proto;
        boolean laterFragment;
        if (version == 4) {
            if (d.length - off < Ipv4.LENGTH) return new OtherTraffic.Named(v + " (truncated)", layers);
            Ipv4.View h = new Ipv4.View().wrap(seg, off);
            if (h.version() != 4 || h.headerLength() < Ipv4.LENGTH || off + h.headerLength() > d.length) {
                return new OtherTraffic.Named(v + " (not a valid IPv4 header)", layers);
            }
            ip = Ipv4.read(h);
            stop = h.totalLength() < h.headerLength() ? d.length : Math.min(d.length, off + h.totalLength());
            l4 = off + h.headerLength();
            proto = h.protocol();
            laterFragment = h.fragOffset() != 0;
        } else {
            if (d.length - off < Ipv6.LENGTH) return new OtherTraffic.Named(v + " (truncated)", layers);
            Ipv6.View h = new Ipv6.View().wrap(seg, off);
            if (h.version() != 6) return new OtherTraffic.Named(v + " (not a valid IPv6 header)", layers);
            ip = Ipv6.read(h);
            stop = Math.min(d.length, off + Ipv6.LENGTH + h.payloadLength());
            l4 = off + Ipv6.LENGTH;
            proto = h.nextHeader();
            laterFragment = false;
            while (EXTENSIONS.contains(proto) && l4 + 8 <= stop && !laterFragment) {
                int next = d[l4] & 0xff;
                if (proto == 44) laterFragment = ((d[l4 + 2] & 0xff) << 8 | (d[l4 + 3] & 0xff)) >>> 3 != 0;
                l4 += proto == 44 ? 8 : proto == 51 ? ((d[l4 + 1] & 0xff) + 2) * 4 : ((d[l4 + 1] & 0xff) + 1) * 8;
                proto = next;
            }
        }
        List<Field> ipFields = new ArrayList<>(FrameLayers.ip(ip).fields());
        ipFields.add(new Field("proto", proto, proto + (PROTOCOLS.containsKey(proto) ? " (" + PROTOCOLS.get(proto) + ")" : ""),
                "the protocol IP carries (IPv6: the next header after any extension headers): 1 ICMP, 6 TCP, 17 UDP, 58 ICMPv6"));
        layers.add(new Layer("ip", ipFields, false));
        String src = text(ip.src());
        String dst = text(ip.dst());
        String name = v + " " + PROTOCOLS.getOrDefault(proto, "protocol " + proto);
        if (laterFragment) return new OtherTraffic.Named(name + " " + src + " -> " + dst + ", a later fragment", layers);
        String port = version == 6 ? "[%s]:%d" : "%s:%d";
        return switch (proto) {
            case TCP -> tcp(d, l4, stop, name, src, dst, port, layers);
            case UDP -> udp(d, l4, stop, name, src, dst, port, layers);
            case ICMP, ICMPV6 -> icmp(d, l4, stop, proto == ICMP ? ICMP_TYPES : ICMPV6_TYPES, proto == ICMPV6, name, src, dst, layers);
            default -> new OtherTraffic.Named(name + " " + src + " -> " + dst, layers);
        };
    }

    private static OtherTraffic.Named tcp(byte[] d, int at, int stop, String name, String src, String dst, String port, List<Layer> layers) {
        if (stop - at < 20) return new OtherTraffic.Named(name + " " + src + " -> " + dst + " (truncated)", layers);
        int sport = u16(d, at);
        int dport = u16(d, at + 2);
        long seq = u32(d, at + 4);
        long ack = u32(d, at + 8);
        int payloadAt = Math.min(stop, at + ((d[at + 12] & 0xff) >>> 4) * 4);
        int flags = d[at + 13] & 0xff;
        List<String> set = new ArrayList<>();
        for (int i = 0; i < TCP_FLAGS.length; i++) if ((flags & 1 << i) != 0) set.add(TCP_FLAGS[i]);
        byte[] payload = java.util.Arrays.copyOfRange(d, payloadAt, stop);
        layers.add(Layer.of("tcp",
                new Field("sport", sport, Integer.toString(sport), "source port"),
                new Field("dport", dport, Integer.toString(dport), "destination port; " + OobMessage.TOOL_PORT
                        + " is where ibv_*_pingpong and perftest exchange their QPs' addresses"),
                new Field("seq", seq, Long.toString(seq), "sequence number of the segment's first payload byte"),
                new Field("ack", ack, Long.toString(ack), "acknowledgement: the next sequence number the sender expects (with ACK)"),
                new Field("flags", String.join(",", set), String.join(",", set),
                        "SYN opens, FIN closes, RST refuses or aborts, PSH pushes the data up, ACK makes ack valid"),
                new Field("len", payload.length, Integer.toString(payload.length), "payload bytes in this segment")));
        String summary = String.format("%s " + port + " -> " + port + " [%s] len=%d", name, src, sport, dst, dport,
                String.join(", ", set), payload.length);
        boolean toolPort = sport == OobMessage.TOOL_PORT || dport == OobMessage.TOOL_PORT;
        OobMessage.Found found = OobMessage.find(payload, toolPort);
        if (!toolPort && found == null) return new OtherTraffic.Named(summary, layers);
        List<Field> oob = new ArrayList<>();
        String msg = found != null ? found.message().key() : payload.length == 0 ? null : "unknown";
        oob.add(new Field("msg", msg, msg == null ? "(no payload)" : msg, "which message of the exchange: "
                + "pingpong_dest (ibv_*_pingpong's LID:QPN:PSN:GID), perftest_key, perftest_version, perftest_mtu,"
                + " perftest_sys_data, perftest_report, done"));
        if (found != null) {
            oob.add(new Field("tool", found.message().tool, found.message().tool, "the tools that send this message"));
            if (found.count() > 1) oob.add(new Field("count", found.count(), Integer.toString(found.count()),
                    "messages of this kind in the segment; the fields are the first one's"));
            oob.addAll(found.fields());
        }
        layers.add(new Layer("oob", oob, false));
        return new OtherTraffic.Named(summary + ": " + OobMessage.EXCHANGE, layers);
    }

    private static OtherTraffic.Named udp(byte[] d, int at, int stop, String name, String src, String dst, String port, List<Layer> layers) {
        if (stop - at < 8) return new OtherTraffic.Named(name + " " + src + " -> " + dst + " (truncated)", layers);
        int sport = u16(d, at);
        int dport = u16(d, at + 2);
        int length = u16(d, at + 4);
        layers.add(Layer.of("udp",
                new Field("sport", sport, Integer.toString(sport), "source port"),
                new Field("dport", dport, Integer.toString(dport), "destination port; 4791 would make it RoCEv2"),
                new Field("len", length, Integer.toString(length), "UDP length: the 8-byte header and the payload"),
                new Field("checksum", u16(d, at + 6), String.format("0x%04x", u16(d, at + 6)), "UDP checksum (0: none, IPv4 only)")));
        return new OtherTraffic.Named(String.format("%s " + port + " -> " + port + " len=%d", name, src, sport, dst, dport,
                Math.max(0, length - 8)), layers);
    }

    private static OtherTraffic.Named icmp(byte[] d, int at, int stop, Map<Integer, String> types, boolean v6, String name, String src,
                                           String dst, List<Layer> layers) {
        if (stop - at < 4) return new OtherTraffic.Named(name + " " + src + " -> " + dst + " (truncated)", layers);
        int type = d[at] & 0xff;
        int code = d[at + 1] & 0xff;
        String typeName = types.getOrDefault(type, "type " + type);
        layers.add(Layer.of(v6 ? "icmpv6" : "icmp",
                new Field("type", type, type + " (" + typeName + ")", "message type"),
                new Field("code", code, Integer.toString(code), "code: the reason within the type")));
        String about = v6 && ICMPV6_TARGET.contains(type) && stop - at >= 24
                ? " for " + OtherTraffic.address(java.util.Arrays.copyOfRange(d, at + 8, at + 24)) : "";
        return new OtherTraffic.Named(name + " " + src + " -> " + dst + " " + typeName + about, layers);
    }

    private static String text(java.net.InetAddress a) {
        return a.getAddress().length == 16 ? org.softrnic.cli.oob.ToolSockets.ipv6Text(a.getAddress()) : a.getHostAddress();
    }

    private static int u16(byte[] d, int at) {
        return (d[at] & 0xff) << 8 | (d[at + 1] & 0xff);
    }

    private static long u32(byte[] d, int at) {
        return Integer.toUnsignedLong(java.nio.ByteBuffer.wrap(d, at, 4).getInt());
    }
}
