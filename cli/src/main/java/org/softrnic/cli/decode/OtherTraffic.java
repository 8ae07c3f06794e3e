package org.softrnic.cli.decode;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.pcap.CapturedFrame;
import org.softrnic.wire.pcap.LinkType;

/**
 * A frame that is not RoCEv2, named the way tshark names it: ARP's who-has and is-at with their addresses, IP with
 * its protocol ({@link IpTraffic}), another EtherType by its name. wire-rocev2's decoder stops at "not RoCE"; what
 * the frame is instead is for the reader of a capture, so it is said here.
 */
final class OtherTraffic {
    /** The frame in one line, and its layers for --explain and --json. */
    record Named(String summary, List<Layer> layers) {}

    /** EtherTypes met on a RoCE link besides IPv4, IPv6 and ARP. */
    private static final Map<Integer, String> ETHER_TYPES = Map.of(
            0x8915, "RoCE v1 (InfiniBand's GRH over Ethernet; softrnic decodes RoCEv2 only)",
            0x88cc, "LLDP (link layer discovery)",
            0x8808, "Ethernet flow control (PAUSE or PFC)",
            0x88f7, "PTP (precision time protocol)",
            0x8035, "RARP",
            0x8847, "MPLS");
    private static final Map<Integer, String> ARP_OPS = Map.of(1, "request", 2, "reply");

    private OtherTraffic() {
    }

    static Named of(CapturedFrame f) {
        byte[] d = f.data();
        LinkType type = f.linkType();
        if (type == null) return new Named("link type " + f.linkTypeValue() + ": not decoded", List.of());
        List<Layer> layers = new ArrayList<>();
        // where the network layer starts, by link type, as wire-rocev2's CaptureDecoder finds it
        int start;
        int etherType;
        switch (type) {
            case ETHERNET -> {
                if (d.length < Ethernet.LENGTH) return new Named("Ethernet (truncated)", layers);
                Ethernet e = Ethernet.read(MemorySegment.ofArray(d), 0);
                if (d.length < e.length()) return new Named("Ethernet (truncated)", layers);
                layers.add(FrameLayers.ethernet(e));
                start = e.length();
                etherType = e.etherType();
            }
            case LINUX_SLL, LINUX_SLL2 -> {
                start = type == LinkType.LINUX_SLL ? LinkType.SLL_LENGTH : LinkType.SLL2_LENGTH;
                if (d.length < start) return new Named("Linux cooked header (truncated)", layers);
                int at = type == LinkType.LINUX_SLL ? 14 : 0;
                etherType = (d[at] & 0xff) << 8 | (d[at + 1] & 0xff);
            }
            default -> {
                start = 0;
                int version = d.length == 0 ? 0 : (d[0] & 0xff) >>> 4;
                etherType = version == 4 ? Ethernet.ETHERTYPE_IPV4 : version == 6 ? Ethernet.ETHERTYPE_IPV6 : -1;
                if (etherType < 0) return new Named("raw IP with version " + version + ": not decoded", layers);
            }
        }
        return switch (etherType) {
            case Ethernet.ETHERTYPE_ARP -> arp(d, start, layers);
            case org.softrnic.wire.frame.PauseFrame.ETHERTYPE -> pause(d, start, layers);
            case Ethernet.ETHERTYPE_IPV4 -> IpTraffic.of(d, start, 4, layers);
            case Ethernet.ETHERTYPE_IPV6 -> IpTraffic.of(d, start, 6, layers);
            default -> new Named(String.format("EtherType 0x%04x", etherType)
                    + (ETHER_TYPES.containsKey(etherType) ? ": " + ETHER_TYPES.get(etherType) : ""), layers);
        };
    }

    /** RFC 826 for Ethernet and IPv4: who has the target's address, or the sender is at its MAC address. */
    private static Named arp(byte[] d, int at, List<Layer> layers) {
        if (d.length < at + 28 || (d[at + 4] & 0xff) != 6 || (d[at + 5] & 0xff) != 4) {
            return new Named("ARP (not Ethernet and IPv4, or truncated)", layers);
        }
        int op = (d[at + 6] & 0xff) << 8 | (d[at + 7] & 0xff);
        String sha = mac(d, at + 8);
        String spa = ipv4(d, at + 14);
        String tha = mac(d, at + 18);
        String tpa = ipv4(d, at + 24);
        String opName = ARP_OPS.getOrDefault(op, "opcode " + op);
        layers.add(Layer.of("arp",
                new Field("op", op, op + " (" + opName + ")", "ARP operation: 1 request (who has tpa?), 2 reply (spa is at sha)"),
                new Field("sha", sha, sha, "sender hardware address: the sender's MAC"),
                new Field("spa", spa, spa, "sender protocol address: the sender's IPv4 address"),
                new Field("tha", tha, tha, "target hardware address: what a request asks for (zeros), a reply's receiver"),
                new Field("tpa", tpa, tpa, "target protocol address: the IPv4 address a request asks about")));
        String summary = op == 1 && spa.equals(tpa) ? "ARP gratuitous: " + spa + " is at " + sha
                : op == 1 ? "ARP request: who has " + tpa + "? tell " + spa
                : op == 2 ? "ARP reply: " + spa + " is at " + sha
                : "ARP " + opName + " from " + spa;
        return new Named(summary, layers);
    }

    /** 802.1Qbb's PFC or 802.3x's PAUSE: which priorities stop, for how many quanta, or resume (0). */
    private static Named pause(byte[] d, int at, List<Layer> layers) {
        var p = org.softrnic.wire.frame.PauseFrame.decode(d, at);
        if (p == null) return new Named("Ethernet flow control (MAC control 0x8808): not a pause, or truncated", layers);
        int[] q = p.quanta();
        if (p.opcode() == org.softrnic.wire.frame.PauseFrame.OPCODE_PAUSE) {
            layers.add(Layer.of("pause", new Field("opcode", p.opcode(), "0x0001 (PAUSE)", "802.3x: the whole link"),
                    new Field("quanta", q[0], Integer.toString(q[0]), "pause time in quanta of 512 bit times; 0 resumes")));
            return new Named(q[0] == 0 ? "PAUSE: resume" : "PAUSE: stop for " + q[0] + " quanta", layers);
        }
        List<Field> fields = new ArrayList<>();
        fields.add(new Field("opcode", p.opcode(), "0x0101 (PFC)", "802.1Qbb priority flow control"));
        fields.add(new Field("class_enable", p.classEnable(), String.format("0x%02x", p.classEnable()), "bit n: priority n's time applies"));
        StringBuilder stop = new StringBuilder();
        StringBuilder go = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            fields.add(new Field("quanta" + i, q[i], Integer.toString(q[i]), "priority " + i + "'s pause time in quanta of 512 bit times; 0 resumes"));
            if (!p.enabled(i)) continue;
            if (q[i] == 0) go.append(go.isEmpty() ? "" : ", ").append(i);
            else stop.append(stop.isEmpty() ? "" : ", ").append(i).append(" for ").append(q[i]).append(" quanta");
        }
        layers.add(Layer.of("pfc", fields.toArray(Field[]::new)));
        String summary = "PFC:" + (stop.isEmpty() ? "" : " pause priority " + stop) + (stop.isEmpty() || go.isEmpty() ? "" : ";")
                + (go.isEmpty() ? "" : " resume priority " + go) + (stop.isEmpty() && go.isEmpty() ? " no priority enabled" : "");
        return new Named(summary, layers);
    }

    /** A GID or IPv6 address as inet_ntop writes it, IPv4-mapped ones as ::ffff:a.b.c.d. */
    static String address(byte[] sixteen) {
        boolean mapped = sixteen[10] == (byte) 0xff && sixteen[11] == (byte) 0xff;
        for (int i = 0; i < 10 && mapped; i++) mapped = sixteen[i] == 0;
        return mapped ? "::ffff:" + ipv4(sixteen, 12) : org.softrnic.cli.oob.ToolSockets.ipv6Text(sixteen);
    }

    static String ipv4(byte[] d, int at) {
        return (d[at] & 0xff) + "." + (d[at + 1] & 0xff) + "." + (d[at + 2] & 0xff) + "." + (d[at + 3] & 0xff);
    }

    private static String mac(byte[] d, int at) {
        StringBuilder sb = new StringBuilder(17);
        for (int i = 0; i < 6; i++) sb.append(i == 0 ? "" : ":").append(String.format("%02x", d[at + i] & 0xff));
        return sb.toString();
    }
}
