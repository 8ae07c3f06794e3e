package org.softrnic.emulator.link;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet6Address;
import java.net.InetAddress;
import org.softrnic.emulator.os.Libc;
import org.softrnic.emulator.os.Sockets;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.PacketReceiver;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.icrc.Ipv4IdSolver;

/**
 * RoCEv2 over a kernel UDP socket driven through libc (FFM), as {@link UdpLink} is through the JDK, with what
 * the JDK cannot do:
 * <ul>
 * <li>Batches: the device hands its packet buffers over and gets free ones back; {@link #flush} sends up to
 * {@value #BATCH} in one {@code sendmmsg}, straight from those buffers. {@link #poll} takes up to
 * {@value ReceiveBatch#RX_SLOTS} datagrams in one {@code recvmmsg}.</li>
 * <li>UDP GSO (IPv4): consecutive equal packets to one destination go down as one super-datagram that the
 * kernel cuts into the same packets again ({@code UDP_SEGMENT}). It numbers their IP identifications from the
 * socket's 0 up, so segment k's ICRC is restamped for identification k ({@link Ipv4IdSolver#icrcDifference}).
 * UDP GRO on receive hands a burst up as one datagram, cut here at the size the kernel reports.</li>
 * <li>The TOS or traffic class the device put in a packet's header (the QP's traffic class: DSCP and ECN bits)
 * goes on the wire, as rxe's does ({@code IP_TOS}, {@code IPV6_TCLASS} per message); the received one
 * ({@code IP_RECVTOS}, {@code IPV6_RECVTCLASS}) goes into the rebuilt header, so the device sees a CE mark set
 * on the way.</li>
 * <li>IPv6 without UDP checksums both ways ({@code UDP_NO_CHECK6_TX/RX}), as rxe's tunnel socket: rxe sends
 * checksum 0, which a checking socket drops. The kernel refuses GSO on such a socket, so IPv6 sends singly.</li>
 * </ul>
 * Loop thread only, except {@link #close}.
 */
public final class NativeUdpLink implements DatagramLink {
    /** Datagrams per sendmmsg: Aeron's and the kernel's usual burst. */
    public static final int BATCH = SendBatch.BATCH;

    private final int fd;
    private final boolean ipv6;
    private final int localPort;
    private final int rocePort;
    private final MemorySegment capture;
    private final boolean gro;
    private final SendBatch out;
    private final ReceiveBatch in;

    private NativeUdpLink(int fd, boolean ipv6, byte[] localAddress, int localPort, int rocePort, boolean gso, boolean gro,
                          Arena arena) {
        this.fd = fd;
        this.ipv6 = ipv6;
        this.localPort = localPort;
        this.rocePort = rocePort;
        this.gro = gro;
        this.capture = arena.allocate(Libc.CAPTURE);
        this.out = new SendBatch(fd, ipv6, gso, arena);
        this.in = new ReceiveBatch(fd, ipv6, localAddress, rocePort, arena);
    }

    /**
     * Whether this JVM may use it: Linux, native access granted at start ({@link org.softrnic.emulator.os.NativeAccess}) or
     * {@code -Dsoftrnic.udp=native}, and not {@code -Dsoftrnic.udp=jdk}; else the JDK's socket serves.
     */
    public static boolean available() {
        String asked = System.getProperty("softrnic.udp", "");
        return System.getProperty("os.name", "").startsWith("Linux") && !asked.equals("jdk")
                && (asked.equals("native") || org.softrnic.emulator.os.NativeAccess.granted());
    }

    /**
     * Binds a non-blocking UDP socket to {@code address:socketPort} (IPv4 with DF, or IPv6); packets name
     * {@code rocePort} as their destination, or with 0 the socket's own port.
     */
    public static NativeUdpLink open(InetAddress address, int socketPort, int rocePort, Arena arena) throws IOException {
        boolean v6 = address instanceof Inet6Address;
        MemorySegment capture = arena.allocate(Libc.CAPTURE);
        int fd;
        try {
            fd = (int) Libc.SOCKET.invokeExact(capture, v6 ? Sockets.AF_INET6 : Sockets.AF_INET,
                    Sockets.SOCK_DGRAM | Sockets.SOCK_NONBLOCK | Sockets.SOCK_CLOEXEC, 0);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (fd < 0) throw new IOException("socket: " + Libc.strerror(Libc.errno(capture)));
        try {
            if (v6) {
                option(capture, fd, Sockets.IPPROTO_IPV6, Sockets.IPV6_V6ONLY, 1, "IPV6_V6ONLY");
                option(capture, fd, Sockets.IPPROTO_IPV6, Sockets.IPV6_RECVTCLASS, 1, "IPV6_RECVTCLASS");
                option(capture, fd, Sockets.SOL_UDP, Sockets.UDP_NO_CHECK6_TX, 1, "UDP_NO_CHECK6_TX");
                option(capture, fd, Sockets.SOL_UDP, Sockets.UDP_NO_CHECK6_RX, 1, "UDP_NO_CHECK6_RX");
            } else {
                option(capture, fd, Sockets.IPPROTO_IP, Sockets.IP_MTU_DISCOVER, Sockets.IP_PMTUDISC_DO, "IP_MTU_DISCOVER");
                option(capture, fd, Sockets.IPPROTO_IP, Sockets.IP_RECVTOS, 1, "IP_RECVTOS");
            }
            // a QP's window of 128 packets arrives as one burst; the kernel caps these at net.core.[rw]mem_max
            option(capture, fd, Sockets.SOL_SOCKET, Sockets.SO_RCVBUF, UdpLink.SOCKET_BUFFER, "SO_RCVBUF");
            option(capture, fd, Sockets.SOL_SOCKET, Sockets.SO_SNDBUF, UdpLink.SOCKET_BUFFER, "SO_SNDBUF");
            boolean gro = !"false".equals(System.getProperty("softrnic.udp.gro"))
                    && Sockets.setInt(capture, fd, Sockets.SOL_UDP, Sockets.UDP_GRO, 1) == 0;
            boolean gso = !v6 && !"false".equals(System.getProperty("softrnic.udp.gso"))
                    && Sockets.getInt(capture, fd, Sockets.SOL_UDP, Sockets.UDP_SEGMENT) >= 0;
            byte[] ip = address.getAddress();
            int bound;
            try (Arena a = Arena.ofConfined()) {
                MemorySegment sa = a.allocate(Sockets.SOCKADDR_BYTES, 8);
                int len = Sockets.writeAddress(sa, 0, ip, socketPort);
                if ((int) Sockets.BIND.invokeExact(capture, fd, sa, len) != 0) {
                    throw new IOException("bind " + address.getHostAddress() + ":" + socketPort + ": " + Libc.strerror(Libc.errno(capture)));
                }
                MemorySegment saLen = a.allocate(ValueLayout.JAVA_INT);
                saLen.set(ValueLayout.JAVA_INT, 0, Sockets.SOCKADDR_BYTES);
                if ((int) Sockets.GETSOCKNAME.invokeExact(capture, fd, sa, saLen) != 0) {
                    throw new IOException("getsockname: " + Libc.strerror(Libc.errno(capture)));
                }
                bound = Sockets.port(sa, 0);
            }
            return new NativeUdpLink(fd, v6, ip, bound, rocePort == 0 ? bound : rocePort, gso, gro, arena);
        } catch (IOException | RuntimeException e) {
            closeFd(capture, fd);
            throw e;
        } catch (Throwable t) {
            closeFd(capture, fd);
            throw new IllegalStateException(t);
        }
    }

    private static void option(MemorySegment capture, int fd, int level, int name, int value, String what) throws IOException {
        int errno = Sockets.setInt(capture, fd, level, name, value);
        if (errno != 0) throw new IOException("setsockopt " + what + ": " + Libc.strerror(errno));
    }

    /** Packets for {@code peer} go to its socket port {@code port} instead of the RoCE port they carry. */
    @Override
    public void route(InetAddress peer, int port) {
        out.route(peer, port);
    }

    public int localPort() {
        return localPort;
    }

    @Override
    public int rocePort() {
        return rocePort;
    }

    /** As {@link UdpLink#txWindow}: what the receive buffer holds at 8 KiB a datagram, at least 32. */
    @Override
    public int txWindow() {
        int bytes = Sockets.getInt(capture, fd, Sockets.SOL_SOCKET, Sockets.SO_RCVBUF);
        return Math.max(32, bytes / 8192);
    }

    @Override
    public LinkProfile profile() {
        return ipv6 ? LinkProfile.udpSocketIpv6(localPort) : LinkProfile.udpSocket(localPort);
    }

    public boolean gso() {
        return out.gso();
    }

    public boolean gro() {
        return gro;
    }

    public long sent() {
        return out.sent;
    }

    /** Super-datagrams sent with UDP_SEGMENT (each counted in {@link #sent} by its segments). */
    public long gsoSends() {
        return out.gsoSends;
    }

    public long received() {
        return in.received;
    }

    /** Packets the kernel refused (a full send buffer, no route); the last errno is {@link #lastSendError}. */
    @Override
    public long sendDropped() {
        return out.sendDropped;
    }

    public String lastSendError() {
        return out.lastSendErrno == 0 ? "none" : Libc.strerror(out.lastSendErrno);
    }

    /** Datagrams dropped on receipt: larger than 64 KiB, or from the other address family. */
    public long receiveDropped() {
        return in.receiveDropped;
    }

    @Override
    public PacketBuffer handOver(PacketBuffer buffer, int offset, int length) {
        return out.handOver(buffer, offset, length);
    }

    @Override
    public boolean transmit(PacketBuffer buffer, int offset, int length) {
        return out.transmit(buffer, offset, length);
    }

    @Override
    public boolean tapSent(org.softrnic.nic.PacketSink tap) {
        out.tapSent(tap);
        return true;
    }

    /** Sends every packet handed over since the last flush. */
    @Override
    public void flush() {
        out.flush();
    }

    /**
     * Hands up to {@code budget} received datagrams to {@code nic} (at least one recvmmsg), each with its IP and
     * UDP headers rebuilt in front; returns the packets handed.
     */
    @Override
    public int poll(PacketReceiver nic, int budget) {
        return in.poll(nic, budget);
    }

    @Override
    public void close() {
        closeFd(capture, fd);
    }

    private static void closeFd(MemorySegment capture, int fd) {
        try {
            int ignored = (int) Libc.CLOSE.invokeExact(capture, fd);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The socket, for a loop that sleeps in poll(2) on it. */
    public int fd() {
        return fd;
    }
}
