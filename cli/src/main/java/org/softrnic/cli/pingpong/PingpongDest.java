package org.softrnic.cli.pingpong;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.softrnic.verbs.Gid;

/**
 * One side's address in the TCP exchange of rdma-core's *_pingpong examples: a 52-byte message
 * {@code "LLLL:QQQQQQ:PPPPPP:GGGG...G\0"}, LID, QPN and PSN in hex and the GID as 32 hex digits in byte order.
 */
record PingpongDest(int lid, int qpn, int psn, Gid gid) {
    /** sizeof "0000:000000:000000:00000000000000000000000000000000": the message with its NUL. */
    static final int WIRE_BYTES = 52;
    /** An unused slot of ibv_srq_pingpong's 256 addresses. */
    static final PingpongDest ZERO = new PingpongDest(0, 0, 0, Gid.of(new byte[16]));

    byte[] toWire() {
        String text = String.format("%04x:%06x:%06x:%s", lid, qpn, psn, HexFormat.of().formatHex(gid.raw()));
        byte[] out = new byte[WIRE_BYTES];
        byte[] t = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(t, 0, out, 0, Math.min(t.length, WIRE_BYTES - 1));
        return out;
    }

    /** The peer's address message; anything else is the peer's fault, named with its bytes escaped. */
    static PingpongDest fromWire(byte[] msg) throws java.net.ProtocolException {
        int end = 0;
        while (end < msg.length && msg[end] != 0) end++;
        String text = new String(msg, 0, end, StandardCharsets.US_ASCII);
        String[] f = text.split(":");
        try {
            if (f.length != 4 || f[3].length() != 32) throw new IllegalArgumentException("not four fields");
            return new PingpongDest(Integer.parseInt(f[0], 16), Integer.parseInt(f[1], 16), Integer.parseInt(f[2], 16),
                    Gid.of(HexFormat.of().parseHex(f[3])));
        } catch (IllegalArgumentException e) {
            throw new java.net.ProtocolException("the peer sent " + org.softrnic.cli.Printable.quote(text)
                    + ", not a pingpong address (LID:QPN:PSN:GID)");
        }
    }

    /** As the examples print it: {@code LID 0x0000, QPN 0x000011, PSN 0x1a2b3c, GID ::ffff:192.0.2.1}. */
    String describe() {
        return String.format("LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s", lid, qpn, psn, gidText(gid));
    }

    /** inet_ntop(AF_INET6) of the GID: IPv4-mapped addresses as ::ffff:a.b.c.d. */
    static String gidText(Gid g) {
        byte[] b = g.raw();
        if (g.isIpv4Mapped()) return "::ffff:" + (b[12] & 0xff) + "." + (b[13] & 0xff) + "." + (b[14] & 0xff) + "." + (b[15] & 0xff);
        return org.softrnic.cli.oob.ToolSockets.ipv6Text(b);
    }
}
