package org.softrnic.emulator.link;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import jdk.net.ExtendedSocketOptions;
import org.softrnic.nic.Nic;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.mem.IntMap;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.Checksum;

/**
 * RoCEv2 over a kernel UDP socket (IPv4). The socket is unconnected and sets IP_DONTFRAGMENT, so the kernel
 * sends every datagram with IP identification 0 and DF, from the bound port: the device computes its ICRC
 * for exactly those headers ({@link org.softrnic.nic.LinkProfile#udpSocket}). A socket hides the received
 * IP header, so the receive side rebuilds it (identification 0, DF, TTL 64) from the datagram's source and
 * the socket's address; a peer that sends other headers (rxe counts its identification up) cannot have
 * its ICRC verified here, and such packets are accepted and counted as rcvd_icrc_unverified. The frame
 * port checks the ICRC exactly.
 */
public final class UdpLink implements PacketSink, AutoCloseable {
    /** Room for the headers the receive side rebuilds: headroom, IPv4 and UDP. */
    static final int RX_HEADROOM = 16;
    private static final int IP_UDP = 20 + 8;
    static final int SOCKET_BUFFER = 4 << 20;

    private final DatagramChannel channel;
    private final int localPort;
    private final PacketBuffer rx = PacketBuffer.allocate(Arena.ofAuto(), 65536);
    /** By destination IPv4 address; one peer port per address, as RoCEv2 has (a changed port replaces it). */
    private final IntMap<InetSocketAddress> destinations = new IntMap<>();
    private final int localIp;
    /** The JDK hands back the same address object while the sender stays the same; its int form is kept. */
    private InetAddress lastSource;
    private int lastSourceIp;
    private long sent;
    private long sendDropped;
    private long received;

    private UdpLink(DatagramChannel channel, Inet4Address localAddress, int localPort) {
        this.channel = channel;
        this.localPort = localPort;
        this.localIp = ipv4(localAddress);
    }

    private static int ipv4(InetAddress a) {
        byte[] b = a.getAddress();
        return (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
    }

    /** Binds an unconnected, non-blocking IPv4 UDP socket with IP_DONTFRAGMENT to {@code address:port}. */
    public static UdpLink open(Inet4Address address, int port) throws IOException {
        DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            ch.setOption(ExtendedSocketOptions.IP_DONTFRAGMENT, true);
            // a QP's window of 128 packets arrives as one burst; the kernel caps these at net.core.[rw]mem_max
            ch.setOption(java.net.StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
            ch.setOption(java.net.StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER);
            ch.bind(new InetSocketAddress(address, port));
            ch.configureBlocking(false);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return new UdpLink(ch, address, port);
    }

    public int localPort() {
        return localPort;
    }

    public long sent() {
        return sent;
    }

    public long received() {
        return received;
    }

    /** Datagrams the kernel refused because the socket's send buffer was full. */
    public long sendDropped() {
        return sendDropped;
    }

    /** Sends the UDP payload (BTH through ICRC) of the device's IPv4 packet to its destination address and port. */
    @Override
    public void transmit(PacketBuffer buffer, int offset, int length) {
        var s = buffer.segment;
        int ihl = (Be.u8(s, offset) & 0xf) * 4;
        int dst = Be.u32(s, offset + 16);
        int dport = Be.u16(s, offset + ihl + 2);
        InetSocketAddress to = destinations.get(dst);
        if (to == null || to.getPort() != dport) destinations.put(dst, to = address(dst, dport));
        ByteBuffer bb = buffer.buffer;
        int oldLimit = bb.limit();
        int oldPosition = bb.position();
        bb.limit(offset + length).position(offset + ihl + 8);
        try {
            if (channel.send(bb, to) == 0) {
                sendDropped++; // the socket's send buffer is full: the datagram is lost, as on a congested link
            } else {
                sent++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("UDP send to " + to + " failed", e);
        } finally {
            bb.limit(oldLimit).position(oldPosition);
        }
    }

    private static InetSocketAddress address(int ip, int port) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(new byte[] {(byte) (ip >>> 24), (byte) (ip >>> 16),
                    (byte) (ip >>> 8), (byte) ip}), port);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Receives one datagram, if one is waiting, and hands it to the device with the IPv4 and UDP headers
     * rebuilt in front. Returns false when none was waiting.
     */
    public boolean poll(Nic nic) {
        ByteBuffer bb = rx.buffer;
        int at = RX_HEADROOM + IP_UDP;
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
        if (!(src.getAddress() instanceof Inet4Address v4)) return true; // IPv6 is the frame port's business
        if (v4 != lastSource) {
            lastSource = v4;
            lastSourceIp = ipv4(v4);
        }
        writeHeaders(lastSourceIp, src.getPort(), len);
        received++;
        nic.receive(rx, RX_HEADROOM, IP_UDP + len);
        return true;
    }

    private void writeHeaders(int srcIp, int sport, int payload) {
        var s = rx.segment;
        int ip = RX_HEADROOM;
        Be.u8(s, ip, 0x45);
        Be.u8(s, ip + 1, 0);
        Be.u16(s, ip + 2, IP_UDP + payload);
        Be.u16(s, ip + 4, 0);
        Be.u16(s, ip + 6, 0x4000);
        Be.u8(s, ip + 8, 64);
        Be.u8(s, ip + 9, 17);
        Be.u16(s, ip + 10, 0);
        Be.u32(s, ip + 12, srcIp);
        Be.u32(s, ip + 16, localIp);
        Be.u16(s, ip + 10, Checksum.finish(Checksum.add(0, s, ip, 20)));
        Be.u16(s, ip + 20, sport);
        Be.u16(s, ip + 22, localPort);
        Be.u16(s, ip + 24, 8 + payload);
        Be.u16(s, ip + 26, 0);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
