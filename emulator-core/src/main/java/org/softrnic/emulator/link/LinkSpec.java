package org.softrnic.emulator.link;

import java.net.InetAddress;
import org.softrnic.wire.frame.Udp;

/**
 * A parsed {@code --link} value. Addresses are literals, never names to look up.
 * <ul>
 * <li>{@code inproc}: the in-process fabric;</li>
 * <li>{@code udp} (127.0.0.1, port 4791), {@code udp:A.B.C.D[:PORT]}, {@code udp:[IPv6][:PORT]}: kernel UDP;</li>
 * <li>{@code qemu-listen:PORT,ip=A/N[,mac=M]} and {@code qemu-connect:PORT,ip=A/N[,mac=M]}: the frame port on
 * qemu's socket netdev at 127.0.0.1:PORT, softrnic listening or connecting, owning address A/N;</li>
 * <li>{@code tap:IFNAME,ip=A/N[,mac=M]}: the frame port on a Linux TAP device.</li>
 * <li>A frame port's address is IPv4 (ARP) or IPv6 (neighbour discovery).</li>
 * </ul>
 * A frame port also takes {@code loss=P[,seed=S]}: it drops that share of the RoCE packets each way; and
 * {@code ecn=P}: it marks that share of the ECN-capable ones that arrive CE, as a congested switch in front of it would.
 *
 * @param address null for inproc
 * @param port    the UDP port (4791 unless given, 0 to let the kernel pick one), or the qemu socket's TCP port
 * @param prefix  the frame port's prefix length
 * @param mac     the frame port's MAC (48 bits), or -1 for one made from the address
 * @param device  the TAP device's name
 * @param loss    the share of RoCE packets a frame port drops each way
 * @param ecn     the share of arriving ECN-capable RoCE packets a frame port marks CE, as a congested switch in front of it
 * @param seed    where the drops and marks come from
 */
public record LinkSpec(String text, Kind kind, InetAddress address, int port, int prefix, long mac, String device, double loss,
                       double ecn, long seed) {
    public enum Kind { INPROC, UDP, QEMU_LISTEN, QEMU_CONNECT, TAP }

    private static final String FRAME_FORMS = "qemu-listen:PORT,ip=A/N[,mac=M], qemu-connect:PORT,ip=A/N[,mac=M]"
            + " or tap:IFNAME,ip=A/N[,mac=M] (each also [,loss=P][,ecn=P][,seed=S])";

    public LinkSpec(String text, Kind kind, InetAddress address, int port) {
        this(text, kind, address, port, 0, -1, null, 0, 0, 1);
    }

    /** True for the links where softrnic owns whole Ethernet frames. */
    public boolean frames() {
        return kind == Kind.QEMU_LISTEN || kind == Kind.QEMU_CONNECT || kind == Kind.TAP;
    }

    /** Parses a spec; a wrong one is an IllegalArgumentException that quotes it and says what is expected. */
    public static LinkSpec parse(String spec) {
        if (spec.equals("inproc")) return new LinkSpec(spec, Kind.INPROC, null, 0);
        if (spec.startsWith("qemu-listen:") || spec.startsWith("qemu-connect:") || spec.startsWith("tap:")) return frames(spec);
        if (!spec.equals("udp") && !spec.startsWith("udp:")) {
            throw new IllegalArgumentException("--link " + spec + ": expected inproc, udp[:ADDR[:PORT]], " + FRAME_FORMS);
        }
        String rest = spec.equals("udp") ? "127.0.0.1" : spec.substring(4);
        // udp:ADDR[:PORT] with an IPv4 ADDR, or udp:[ADDR][:PORT] with an IPv6 one
        String host = rest;
        String portText = null;
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            if (close < 0 || (close + 1 < rest.length() && rest.charAt(close + 1) != ':')) {
                throw new IllegalArgumentException("--link " + spec + ": an IPv6 address is written udp:[ADDR][:PORT]");
            }
            host = rest.substring(1, close);
            if (close + 1 < rest.length()) portText = rest.substring(close + 2);
        } else if (rest.contains(":")) {
            String[] parts = rest.split(":", -1);
            if (parts.length > 2) throw new IllegalArgumentException("--link " + spec + ": write an IPv6 address as udp:[ADDR][:PORT]");
            host = parts[0];
            portText = parts[1];
        }
        int port = Udp.ROCE_PORT;
        try {
            if (portText != null) port = Integer.parseInt(portText);
            if (port < 0 || port > 65535) throw new NumberFormatException();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--link " + spec + ": the port must be 0..65535 (0: the kernel picks one)");
        }
        InetAddress address;
        try {
            address = InetAddress.ofLiteral(host);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--link " + spec + ": '" + host + "' is not an IP address");
        }
        // the address is the device's GID, which peers send to: a wildcard is no address of a device
        if (address.isAnyLocalAddress()) {
            throw new IllegalArgumentException("--link " + spec + ": " + host + " is not a device address; name the address peers reach");
        }
        return new LinkSpec(spec, Kind.UDP, address, port);
    }

    private static LinkSpec frames(String spec) {
        Kind kind = spec.startsWith("qemu-listen:") ? Kind.QEMU_LISTEN : spec.startsWith("qemu-connect:") ? Kind.QEMU_CONNECT : Kind.TAP;
        String[] parts = spec.substring(spec.indexOf(':') + 1).split(",");
        int port = 0;
        String device = null;
        if (kind == Kind.TAP) {
            device = parts[0];
            if (!device.matches("[A-Za-z0-9_.-]{1,15}")) {
                throw new IllegalArgumentException("--link " + spec + ": a TAP device's name has 1 to 15 letters, digits, '_', '.' or '-'");
            }
        } else {
            try {
                port = Integer.parseInt(parts[0]);
                if (port < 1 || port > 65535) throw new NumberFormatException();
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--link " + spec + ": the qemu socket's port must be 1..65535");
            }
        }
        InetAddress address = null;
        int prefix = 0;
        long mac = -1;
        double loss = 0;
        double ecn = 0;
        long seed = 1;
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i];
            if (p.startsWith("ip=")) {
                String[] ip = p.substring(3).split("/");
                try {
                    address = InetAddress.ofLiteral(ip[0]);
                    prefix = ip.length == 2 ? Integer.parseInt(ip[1]) : -1;
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--link " + spec + ": ip=A/N needs an IP address and a prefix length");
                }
                int max = address instanceof java.net.Inet4Address ? 32 : 128;
                if (prefix < 1 || prefix > max) {
                    throw new IllegalArgumentException("--link " + spec + ": ip=A/N needs a prefix length 1.." + max + " for " + ip[0]);
                }
            } else if (p.startsWith("mac=")) {
                String hex = p.substring(4).replace(":", "");
                if (!hex.matches("[0-9a-fA-F]{12}")) throw new IllegalArgumentException("--link " + spec + ": mac=M is six hex bytes");
                mac = Long.parseLong(hex, 16);
            } else if (p.startsWith("loss=")) {
                try {
                    loss = Double.parseDouble(p.substring(5));
                } catch (NumberFormatException e) {
                    loss = -1;
                }
                if (!(loss >= 0 && loss < 1)) throw new IllegalArgumentException("--link " + spec + ": loss=P needs 0 <= P < 1");
            } else if (p.startsWith("ecn=")) {
                try {
                    ecn = Double.parseDouble(p.substring(4));
                } catch (NumberFormatException e) {
                    ecn = -1;
                }
                if (!(ecn >= 0 && ecn <= 1)) throw new IllegalArgumentException("--link " + spec + ": ecn=P needs 0 <= P <= 1");
            } else if (p.startsWith("seed=")) {
                try {
                    seed = Long.parseLong(p.substring(5));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--link " + spec + ": seed=S needs a whole number");
                }
            } else {
                throw new IllegalArgumentException("--link " + spec + ": unknown setting '" + p + "' (ip=A/N, mac=M, loss=P, ecn=P, seed=S)");
            }
        }
        if (address == null) throw new IllegalArgumentException("--link " + spec + ": the frame port needs ip=A/N");
        return new LinkSpec(spec, kind, address, port, prefix, mac, device, loss, ecn, seed);
    }
}
