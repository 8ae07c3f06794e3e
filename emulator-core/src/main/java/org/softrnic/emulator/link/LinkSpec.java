package org.softrnic.emulator.link;

import java.net.InetAddress;
import org.softrnic.wire.frame.Udp;

/**
 * A parsed {@code --link} value: {@code inproc}, {@code udp} (127.0.0.1, port 4791), {@code udp:A.B.C.D[:PORT]}
 * or {@code udp:[IPv6][:PORT]}. Addresses are literals, never names to look up.
 *
 * @param address null for inproc
 * @param port    the UDP port; 4791 unless given, 0 to let the kernel pick one
 */
public record LinkSpec(String text, Kind kind, InetAddress address, int port) {
    public enum Kind { INPROC, UDP }

    /** Parses a spec; a wrong one is an IllegalArgumentException that quotes it and says what is expected. */
    public static LinkSpec parse(String spec) {
        if (spec.equals("inproc")) return new LinkSpec(spec, Kind.INPROC, null, 0);
        if (!spec.equals("udp") && !spec.startsWith("udp:")) {
            throw new IllegalArgumentException("--link " + spec + ": expected inproc or udp[:ADDR[:PORT]]; the frame"
                    + " port links are not built yet");
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
        try {
            return new LinkSpec(spec, Kind.UDP, InetAddress.ofLiteral(host), port);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--link " + spec + ": '" + host + "' is not an IP address");
        }
    }
}
