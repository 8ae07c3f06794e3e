package org.softrnic.emulator.link;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import jdk.net.ExtendedSocketOptions;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.Nic;
import org.softrnic.nic.PacketReceiver;
import org.softrnic.nic.mem.IntMap;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.Ipv4;

/**
 * RoCEv2 over a kernel UDP socket, IPv4 or IPv6 by the bound address.
 * <ul>
 * <li>IPv4: the socket is unconnected and sets IP_DONTFRAGMENT, so the kernel sends every datagram with IP
 * identification 0 and DF, from the bound port: the device computes its ICRC for exactly those headers
 * ({@link org.softrnic.nic.LinkProfile#udpSocket}). A socket hides the received IP header, so the receive
 * side rebuilds it (identification 0, DF, TTL 64); a peer that counts its identification up (rxe) has it
 * recovered from the ICRC by the device ({@link org.softrnic.wire.icrc.Ipv4IdSolver}), so every ICRC is
 * checked here too, and a changed packet is dropped.</li>
 * <li>IPv6: the ICRC masks traffic class, flow label and hop limit, and covers nothing else the kernel
 * chooses, so the rebuilt header verifies every ICRC exactly.</li>
 * </ul>
 * Packets name the RoCE port ({@code rocePort}, 4791 by default) as UDP destination, and the ICRC covers it.
 * Several soft RNICs on one address bind different socket ports and name each other's with {@link #route}:
 * the datagram then goes to that socket port, its ICRC still computed for the RoCE port, and the receiving
 * link rebuilds the header with the RoCE port. Only another softrnic link verifies such datagrams.
 */
public final class UdpLink implements DatagramLink {
    /** Room in front of the rebuilt headers. */
    static final int RX_HEADROOM = org.softrnic.wire.PacketBuffer.HEADROOM;
    static final int SOCKET_BUFFER = 4 << 20;

    private final DatagramChannel channel;
    private final boolean ipv6;
    private final int ipUdp;
    private final int localIp;
    private final byte[] localIp6;
    private final int localPort;
    private final int rocePort;
    private final PacketBuffer rx;
    /** IPv4: by destination address; one peer port per address, as RoCEv2 has (a changed port replaces it). */
    private final IntMap<InetSocketAddress> destinations = new IntMap<>();
    private final IntMap<InetSocketAddress> routes = new IntMap<>();
    /** IPv6: few peers per link, so a list searched by address. */
    private final List<Destination6> destinations6 = new ArrayList<>();
    /** The JDK hands back the same address object while the sender stays the same; its bytes are kept. */
    private InetAddress lastSource;
    private int lastSourceIp;
    private final byte[] lastSourceIp6 = new byte[16];
    private final MemorySegment lastSourceIp6Segment = MemorySegment.ofArray(lastSourceIp6);
    private final MemorySegment localIp6Segment;
    private long sent;
    private long sendDropped;
    private long received;

    private record Destination6(MemorySegment address, InetSocketAddress to, boolean routed) {}

    private UdpLink(DatagramChannel channel, InetAddress localAddress, int localPort, int rocePort, Arena arena) {
        this.channel = channel;
        this.rx = PacketBuffer.allocate(arena, 65536);
        this.ipv6 = localAddress instanceof Inet6Address;
        this.ipUdp = (ipv6 ? 40 : 20) + 8;
        this.localIp = ipv6 ? 0 : Ipv4.toInt((Inet4Address) localAddress);
        this.localIp6 = ipv6 ? localAddress.getAddress() : null;
        this.localIp6Segment = ipv6 ? MemorySegment.ofArray(localIp6) : null;
        this.localPort = localPort;
        this.rocePort = rocePort;
    }

    /** A link whose socket port is also the RoCE port its packets carry. */
    public static UdpLink open(InetAddress address, int port) throws IOException {
        return open(address, port, port);
    }

    /**
     * Binds an unconnected, non-blocking UDP socket (IPv4 with IP_DONTFRAGMENT, or IPv6) to
     * {@code address:socketPort}; packets name {@code rocePort} as their UDP destination.
     */
    public static UdpLink open(InetAddress address, int socketPort, int rocePort) throws IOException {
        return open(address, socketPort, rocePort, Arena.ofAuto());
    }

    /**
     * As {@link #open(InetAddress, int, int)}, its receive buffer from {@code arena}; a {@code rocePort} of 0
     * makes the socket's own port (the one the kernel picked, for socket port 0) the RoCE port.
     */
    public static UdpLink open(InetAddress address, int socketPort, int rocePort, Arena arena) throws IOException {
        boolean v6 = address instanceof Inet6Address;
        DatagramChannel ch = DatagramChannel.open(v6 ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
        try {
            if (!v6) ch.setOption(ExtendedSocketOptions.IP_DONTFRAGMENT, true);
            // a QP's window of 128 packets arrives as one burst; the kernel caps these at net.core.[rw]mem_max
            ch.setOption(java.net.StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
            ch.setOption(java.net.StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER);
            ch.bind(new InetSocketAddress(address, socketPort));
            ch.configureBlocking(false);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        int bound = ((InetSocketAddress) ch.getLocalAddress()).getPort();
        return new UdpLink(ch, address, bound, rocePort == 0 ? bound : rocePort, arena);
    }

    /** Packets for {@code peer} go to its socket port {@code port} instead of the RoCE port they carry. */
    @Override
    public void route(InetAddress peer, int port) {
        if ((peer instanceof Inet6Address) != ipv6) throw new IllegalArgumentException(peer + " is not in this link's family");
        InetSocketAddress to = new InetSocketAddress(peer, port);
        if (ipv6) {
            MemorySegment address = MemorySegment.ofArray(peer.getAddress());
            destinations6.removeIf(d -> MemorySegment.mismatch(d.address(), 0, 16, address, 0, 16) == -1);
            destinations6.add(new Destination6(address, to, true));
        } else {
            routes.put(Ipv4.toInt((Inet4Address) peer), to);
        }
    }

    public int localPort() {
        return localPort;
    }

    /**
     * The RC PSNs a device on this link may keep in flight (see {@code Nic.txWindow}): what a receive buffer
     * like this socket's holds, at 8 KiB of kernel memory per datagram (a 4 KiB-MTU packet's skb), at least 32.
     */
    @Override
    public int txWindow() {
        try {
            return Math.max(32, channel.getOption(java.net.StandardSocketOptions.SO_RCVBUF) / 8192);
        } catch (IOException e) {
            return 32;
        }
    }

    /** The UDP destination port this link's device expects in its packets' headers. */
    @Override
    public int rocePort() {
        return rocePort;
    }

    /** What this socket does to the headers the ICRC covers: the profile a device on this link needs. */
    @Override
    public LinkProfile profile() {
        return ipv6 ? LinkProfile.udpSocketIpv6(localPort) : LinkProfile.udpSocket(localPort);
    }

    public long sent() {
        return sent;
    }

    public long received() {
        return received;
    }

    /** Datagrams the kernel refused because the socket's send buffer was full. */
    @Override
    public long sendDropped() {
        return sendDropped;
    }

    /** Sends the UDP payload (BTH through ICRC) of the device's IP packet to its destination. */
    @Override
    public boolean transmit(PacketBuffer buffer, int offset, int length) {
        var s = buffer.segment;
        boolean v6 = (Be.u8(s, offset) >>> 4) == 6;
        if (v6 != ipv6) return false; // a GID of the other family: this socket cannot reach it
        int ipLength = v6 ? 40 : (Be.u8(s, offset) & 0xf) * 4;
        int dport = Be.u16(s, offset + ipLength + 2);
        InetSocketAddress to = v6 ? destination6(s, offset + 24, dport) : destination4(Be.u32(s, offset + 16), dport);
        ByteBuffer bb = buffer.buffer;
        int oldLimit = bb.limit();
        int oldPosition = bb.position();
        bb.limit(offset + length).position(offset + ipLength + 8);
        try {
            if (channel.send(bb, to) == 0) {
                sendDropped++; // the socket's send buffer is full: the datagram is lost, as on a congested link
                return false;
            }
            sent++;
            return true;
        } catch (IOException e) {
            // no route, a full buffer reported as an error, an ICMP error from an earlier datagram: the
            // packet is lost and the device counts send_err, as when a link refuses it
            sendDropped++;
            return false;
        } finally {
            bb.limit(oldLimit).position(oldPosition);
        }
    }

    private InetSocketAddress destination4(int dst, int dport) {
        InetSocketAddress to = routes.get(dst);
        if (to != null) return to;
        to = destinations.get(dst);
        if (to == null || to.getPort() != dport) destinations.put(dst, to = new InetSocketAddress(Ipv4.addr(dst), dport));
        return to;
    }

    private InetSocketAddress destination6(MemorySegment s, long at, int dport) {
        for (int i = 0; i < destinations6.size(); i++) {
            Destination6 d = destinations6.get(i);
            if (MemorySegment.mismatch(s, at, at + 16, d.address(), 0, 16) == -1) {
                if (d.routed() || d.to().getPort() == dport) return d.to();
                destinations6.remove(i);
                break;
            }
        }
        byte[] ip = s.asSlice(at, 16).toArray(ValueLayout.JAVA_BYTE);
        InetSocketAddress to;
        try {
            to = new InetSocketAddress(InetAddress.getByAddress(ip), dport);
        } catch (IOException e) {
            throw new AssertionError(e); // 16 bytes are always an IPv6 address
        }
        destinations6.add(new Destination6(MemorySegment.ofArray(ip), to, false));
        return to;
    }

    /**
     * Receives one datagram, if one is waiting, and hands it to the device with the IP and UDP headers
     * rebuilt in front. Returns false when none was waiting.
     */
    public boolean poll(PacketReceiver nic) {
        ByteBuffer bb = rx.buffer;
        int at = RX_HEADROOM + ipUdp;
        bb.clear().position(at);
        SocketAddress from;
        try {
            from = channel.receive(bb);
        } catch (IOException e) {
            throw new UncheckedIOException("UDP receive failed", e);
        }
        if (from == null) return false;
        int len = bb.position() - at;
        InetSocketAddress src = (InetSocketAddress) from;
        InetAddress address = src.getAddress();
        if (address != lastSource) {
            if ((address instanceof Inet6Address) != ipv6) return true; // an IPv4-mapped sender on an IPv6 socket
            lastSource = address;
            if (ipv6) System.arraycopy(address.getAddress(), 0, lastSourceIp6, 0, 16);
            else lastSourceIp = Ipv4.toInt((Inet4Address) address);
        }
        // the JDK's socket does not say the TOS: 0, so a CE mark on the way is not seen here
        if (ipv6) Rebuilt.ipv6(rx.segment, RX_HEADROOM, 0, len, lastSourceIp6Segment, 0, localIp6Segment, 0);
        else Rebuilt.ipv4(rx.segment, RX_HEADROOM, 0, len, lastSourceIp, localIp);
        Rebuilt.udp(rx.segment, RX_HEADROOM + ipUdp - 8, src.getPort(), rocePort, len);
        received++;
        nic.receive(rx, RX_HEADROOM, ipUdp + len);
        return true;
    }

    @Override
    public int poll(PacketReceiver nic, int budget) {
        int n = 0;
        while (n < budget && poll(nic)) n++;
        return n;
    }

    /** Registers the socket for reads, so a device's loop can sleep until a datagram comes. */
    public java.nio.channels.SelectionKey register(java.nio.channels.Selector selector) throws IOException {
        return channel.register(selector, java.nio.channels.SelectionKey.OP_READ);
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
