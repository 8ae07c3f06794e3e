package org.softrnic.nic;

/**
 * What the link below the device does to the IP and UDP headers, which the ICRC covers.
 *
 * @param ipIdZero           the link sends with IP identification 0 (an unconnected kernel UDP socket
 *                           with IP_DONTFRAGMENT does), so the ICRC must be computed with 0
 * @param udpSourcePort      the link sends from this UDP port whatever the QP (a kernel socket does), or -1
 *                           to use each QP's own source port as rxe does
 * @param ipIdHidden         the link rebuilds received IPv4 headers with identification 0, the sender's being
 *                           hidden (a UDP socket hides the header): the receive side recovers it from the ICRC
 * @param icrcUnseen         packets never leave the process and nothing on the way changes their bytes: the
 *                           ICRC is stamped only when a tap watches, and a received one is not checked
 */
public record LinkProfile(boolean ipIdZero, int udpSourcePort, boolean ipIdHidden, boolean icrcUnseen) {
    /** The device owns the whole frame (frame port, simulation): headers as rxe makes them, ICRC checked exactly. */
    public static final LinkProfile FRAMES = new LinkProfile(false, -1, false, false);

    /**
     * Devices of one process handing each other buffers: headers as rxe makes them, but nobody can observe an
     * ICRC, so it costs nothing unless a trace or tap reads the packets.
     */
    public static final LinkProfile IN_PROCESS = new LinkProfile(false, -1, false, true);

    public LinkProfile(boolean ipIdZero, int udpSourcePort, boolean ipIdHidden) {
        this(ipIdZero, udpSourcePort, ipIdHidden, false);
    }

    /** A kernel IPv4 UDP socket bound to {@code port}. */
    public static LinkProfile udpSocket(int port) {
        return new LinkProfile(true, port, true);
    }

    /**
     * A kernel IPv6 UDP socket bound to {@code port}. The IPv6 ICRC masks every field the kernel chooses
     * (traffic class, flow label, hop limit), so the receive side checks it exactly.
     */
    public static LinkProfile udpSocketIpv6(int port) {
        return new LinkProfile(true, port, false);
    }
}
