package org.softrnic.emulator.link;

import static org.softrnic.emulator.os.Sockets.MMSGHDR;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet6Address;
import java.net.InetAddress;
import org.softrnic.emulator.os.Libc;
import org.softrnic.emulator.os.Sockets;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.Nic;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.mem.IntMap;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.icrc.Ipv4IdSolver;

/**
 * RoCEv2 over a kernel UDP socket driven through libc (FFM), as {@link UdpLink} is through the JDK, with what
 * the JDK cannot do:
 * <ul>
 * <li>Batches: the device hands its packet buffers over and gets free ones back; {@link #flush} sends up to
 * {@value #BATCH} in one {@code sendmmsg}, straight from those buffers. {@link #poll} takes up to
 * {@value #RX_SLOTS} datagrams in one {@code recvmmsg}.</li>
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
public final class NativeUdpLink implements PacketSink, AutoCloseable {
    /** Datagrams per sendmmsg: Aeron's and the kernel's usual burst. */
    public static final int BATCH = 64;
    /** Datagrams per recvmmsg; each slot holds a GRO burst of up to 64 KiB. */
    static final int RX_SLOTS = 16;
    private static final int RX_DATA = 65536;
    private static final int RX_CONTROL = 64;
    /** A message's control: UDP_SEGMENT (2 bytes), then IP_TOS or IPV6_TCLASS (an int). */
    private static final int TX_CONTROL = (Sockets.CMSG_DATA + 8) * 2; // constants only: available() must not load libc

    /** A super-datagram's UDP payload must fit IPv4's 16-bit total length. */
    private static final int GSO_MAX_BYTES = 65535 - 20 - 8;
    /** The kernel's UDP_MAX_SEGMENTS. */
    private static final int GSO_MAX_SEGMENTS = 64;
    private static final int HEADROOM = PacketBuffer.HEADROOM;
    /** The ICRC is carried little-endian. */
    private static final ValueLayout.OfInt ICRC = ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private final int fd;
    private final boolean ipv6;
    private final int ipUdp;
    private final int localIp;
    private final MemorySegment localIp6;
    private final int localPort;
    private final int rocePort;
    private final MemorySegment capture;
    private boolean gso;
    private final boolean gro;

    private final PacketBuffer[] queue = new PacketBuffer[BATCH];
    private final int[] queueOffset = new int[BATCH];
    private final int[] queueLength = new int[BATCH];
    private int queued;
    /** This link's BATCH + 1 buffers and the device's first one, which comes here with its first packet. */
    private final PacketBuffer[] free = new PacketBuffer[BATCH + 2];
    private int freeCount;
    private final int[] msgFirst = new int[BATCH];
    private final int[] msgCount = new int[BATCH];
    private final MemorySegment txMsgs;
    private final MemorySegment txIov;
    private final MemorySegment txNames;
    private final MemorySegment txControl;

    private final PacketBuffer[] rxSlots = new PacketBuffer[RX_SLOTS];
    private final MemorySegment rxMsgs;
    private final MemorySegment rxNames;
    private final MemorySegment rxControl;

    /** IPv4 destination address to the socket port its packets go to instead of the RoCE port they carry. */
    private final IntMap<Integer> routes = new IntMap<>();
    private MemorySegment routes6 = MemorySegment.NULL;
    private int routes6Count;
    private int carryLength = -1;
    private int carry;

    private long sent;
    private long gsoSends;
    private long sendDropped;
    private int lastSendErrno;
    private long received;
    private long receiveDropped;

    private NativeUdpLink(int fd, boolean ipv6, byte[] localAddress, int localPort, int rocePort, boolean gso, boolean gro,
                          Arena arena) {
        this.fd = fd;
        this.ipv6 = ipv6;
        this.ipUdp = (ipv6 ? 40 : 20) + 8;
        this.localIp = ipv6 ? 0 : Be.u32(MemorySegment.ofArray(localAddress), 0);
        this.localIp6 = ipv6 ? arena.allocate(16).copyFrom(MemorySegment.ofArray(localAddress)) : null;
        this.localPort = localPort;
        this.rocePort = rocePort;
        this.gso = gso;
        this.gro = gro;
        this.capture = arena.allocate(Libc.CAPTURE);
        for (int i = 0; i < BATCH + 1; i++) free[freeCount++] = PacketBuffer.allocate(arena, PacketSink.BUFFER_BYTES);
        txMsgs = arena.allocate((long) BATCH * MMSGHDR, 8);
        txIov = arena.allocate((long) BATCH * Sockets.IOVEC, 8);
        txNames = arena.allocate((long) BATCH * Sockets.SOCKADDR_BYTES, 8);
        txControl = arena.allocate((long) BATCH * TX_CONTROL, 8);
        rxMsgs = arena.allocate((long) RX_SLOTS * MMSGHDR, 8);
        MemorySegment rxIov = arena.allocate((long) RX_SLOTS * Sockets.IOVEC, 8);
        rxNames = arena.allocate((long) RX_SLOTS * Sockets.SOCKADDR_BYTES, 8);
        rxControl = arena.allocate((long) RX_SLOTS * RX_CONTROL, 8);
        for (int k = 0; k < RX_SLOTS; k++) {
            rxSlots[k] = PacketBuffer.allocate(arena, HEADROOM + ipUdp + RX_DATA);
            long iov = (long) k * Sockets.IOVEC;
            rxIov.set(ValueLayout.ADDRESS, iov, rxSlots[k].segment.asSlice(HEADROOM + ipUdp));
            rxIov.set(ValueLayout.JAVA_LONG, iov + 8, RX_DATA);
            long m = (long) k * MMSGHDR;
            rxMsgs.set(ValueLayout.ADDRESS, m + Sockets.MSG_NAME, rxNames.asSlice((long) k * Sockets.SOCKADDR_BYTES));
            rxMsgs.set(ValueLayout.ADDRESS, m + Sockets.MSG_IOV, rxIov.asSlice(iov));
            rxMsgs.set(ValueLayout.JAVA_LONG, m + Sockets.MSG_IOVLEN, 1);
            rxMsgs.set(ValueLayout.ADDRESS, m + Sockets.MSG_CONTROL, rxControl.asSlice((long) k * RX_CONTROL));
        }
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
    public void route(InetAddress peer, int port) {
        if ((peer instanceof Inet6Address) != ipv6) throw new IllegalArgumentException(peer + " is not in this link's family");
        byte[] ip = peer.getAddress();
        if (!ipv6) {
            routes.put(Be.u32(MemorySegment.ofArray(ip), 0), port);
            return;
        }
        for (int i = 0; i < routes6Count; i++) {
            if (MemorySegment.mismatch(routes6, i * 20L, i * 20L + 16, MemorySegment.ofArray(ip), 0, 16) == -1) {
                routes6.set(ValueLayout.JAVA_INT, i * 20L + 16, port);
                return;
            }
        }
        MemorySegment grown = Arena.ofAuto().allocate((routes6Count + 1) * 20L, 4);
        if (routes6Count > 0) grown.copyFrom(routes6);
        MemorySegment.copy(ip, 0, grown, ValueLayout.JAVA_BYTE, routes6Count * 20L, 16);
        grown.set(ValueLayout.JAVA_INT, routes6Count * 20L + 16, port);
        routes6 = grown;
        routes6Count++;
    }

    public int localPort() {
        return localPort;
    }

    public int rocePort() {
        return rocePort;
    }

    /** As {@link UdpLink#txWindow}: what the receive buffer holds at 8 KiB a datagram, at least 32. */
    public int txWindow() {
        int bytes = Sockets.getInt(capture, fd, Sockets.SOL_SOCKET, Sockets.SO_RCVBUF);
        return Math.max(32, bytes / 8192);
    }

    public LinkProfile profile() {
        return ipv6 ? LinkProfile.udpSocketIpv6(localPort) : LinkProfile.udpSocket(localPort);
    }

    public boolean gso() {
        return gso;
    }

    public boolean gro() {
        return gro;
    }

    public long sent() {
        return sent;
    }

    /** Super-datagrams sent with UDP_SEGMENT (each counted in {@link #sent} by its segments). */
    public long gsoSends() {
        return gsoSends;
    }

    public long received() {
        return received;
    }

    /** Packets the kernel refused (a full send buffer, no route); the last errno is {@link #lastSendError}. */
    public long sendDropped() {
        return sendDropped;
    }

    public String lastSendError() {
        return lastSendErrno == 0 ? "none" : Libc.strerror(lastSendErrno);
    }

    /** Datagrams dropped on receipt: larger than 64 KiB, or from the other address family. */
    public long receiveDropped() {
        return receiveDropped;
    }

    @Override
    public PacketBuffer handOver(PacketBuffer buffer, int offset, int length) {
        if (!sameFamily(buffer, offset)) return null;
        enqueue(buffer, offset, length);
        return free[--freeCount];
    }

    @Override
    public boolean transmit(PacketBuffer buffer, int offset, int length) {
        if (!sameFamily(buffer, offset)) return false;
        PacketBuffer copy = free[--freeCount];
        MemorySegment.copy(buffer.segment, offset, copy.segment, offset, length);
        enqueue(copy, offset, length);
        return true;
    }

    /** Buffers: this link's BATCH + 1 and the device's one; the queue holds at most BATCH, so one is always free. */
    private void enqueue(PacketBuffer buffer, int offset, int length) {
        if (queued == BATCH) flush();
        queue[queued] = buffer;
        queueOffset[queued] = offset;
        queueLength[queued++] = length;
    }

    /** A GID of the other family: this socket cannot reach it. */
    private boolean sameFamily(PacketBuffer buffer, int offset) {
        return ((Be.u8(buffer.segment, offset) >>> 4) == 6) == ipv6;
    }

    /** Sends every packet handed over since the last flush. */
    public void flush() {
        int i = 0;
        while (i < queued) {
            int messages = 0;
            int start = i;
            while (i < queued && messages < BATCH) {
                int n = group(i);
                message(messages++, i, n);
                i += n;
            }
            int restart = send(messages);
            if (restart >= 0) i = restart;
            else if (i == start) break;
        }
        for (int q = 0; q < queued; q++) {
            free[freeCount++] = queue[q];
            queue[q] = null;
        }
        queued = 0;
    }

    private int ipLength(int q) {
        return ipv6 ? 40 : (Be.u8(queue[q].segment, queueOffset[q]) & 0xf) * 4;
    }

    private int payloadLength(int q) {
        return queueLength[q] - ipLength(q) - 8;
    }

    private int destinationIp4(int q) {
        return Be.u32(queue[q].segment, queueOffset[q] + 16);
    }

    /** The TOS or traffic class byte of the packet's header. */
    private int tos(int q) {
        MemorySegment s = queue[q].segment;
        int off = queueOffset[q];
        return ipv6 ? (Be.u16(s, off) >>> 4) & 0xff : Be.u8(s, off + 1);
    }

    private int destinationPort(int q) {
        return Be.u16(queue[q].segment, queueOffset[q] + ipLength(q) + 2);
    }

    /** How many packets from {@code q} on go down as one super-datagram: equal ones to one address, the last may be shorter. */
    private int group(int q) {
        if (!gso) return 1;
        int size = payloadLength(q);
        int dst = destinationIp4(q);
        int dport = destinationPort(q);
        int tos = tos(q);
        int n = 1;
        int bytes = size;
        for (int j = q + 1; j < queued && n < GSO_MAX_SEGMENTS; j++) {
            int len = payloadLength(j);
            if (len > size || bytes + len > GSO_MAX_BYTES || destinationIp4(j) != dst || destinationPort(j) != dport
                    || tos(j) != tos) {
                break;
            }
            n++;
            bytes += len;
            if (len < size) break;
        }
        if (n > 1) for (int k = 1; k < n; k++) restamp(q + k, k);
        return n;
    }

    /** Segment k leaves with IP identification k (0 for the first): XOR its ICRC, computed for 0, accordingly; again undoes it. */
    private void restamp(int q, int id) {
        int total = queueLength[q];
        if (total != carryLength) {
            carry = Ipv4IdSolver.carry(total);
            carryLength = total;
        }
        MemorySegment s = queue[q].segment;
        long at = queueOffset[q] + queueLength[q] - 4;
        s.set(ICRC, at, s.get(ICRC, at) ^ Ipv4IdSolver.icrcDifference(id, carry));
    }

    /** Fills mmsghdr {@code m} for packets {@code q} to {@code q + n - 1}. */
    private void message(int m, int q, int n) {
        msgFirst[m] = q;
        msgCount[m] = n;
        long h = (long) m * MMSGHDR;
        long name = (long) m * Sockets.SOCKADDR_BYTES;
        int namelen = address(name, q);
        for (int k = 0; k < n; k++) {
            long iov = (long) (q + k) * Sockets.IOVEC;
            int payloadAt = queueOffset[q + k] + ipLength(q + k) + 8;
            txIov.set(ValueLayout.JAVA_LONG, iov, queue[q + k].segment.address() + payloadAt);
            txIov.set(ValueLayout.JAVA_LONG, iov + 8, payloadLength(q + k));
        }
        txMsgs.set(ValueLayout.JAVA_LONG, h + Sockets.MSG_NAME, txNames.address() + name);
        txMsgs.set(ValueLayout.JAVA_INT, h + Sockets.MSG_NAMELEN, namelen);
        txMsgs.set(ValueLayout.JAVA_LONG, h + Sockets.MSG_IOV, txIov.address() + (long) q * Sockets.IOVEC);
        txMsgs.set(ValueLayout.JAVA_LONG, h + Sockets.MSG_IOVLEN, n);
        txMsgs.set(ValueLayout.JAVA_INT, h + Sockets.MSG_FLAGS, 0);
        long c0 = (long) m * TX_CONTROL;
        long c = c0;
        if (n > 1) c = cmsg(c, Sockets.SOL_UDP, Sockets.UDP_SEGMENT, 2, payloadLength(q));
        int tos = tos(q);
        if (tos != 0) {
            c = ipv6 ? cmsg(c, Sockets.IPPROTO_IPV6, Sockets.IPV6_TCLASS, 4, tos) : cmsg(c, Sockets.IPPROTO_IP, Sockets.IP_TOS, 4, tos);
        }
        txMsgs.set(ValueLayout.JAVA_LONG, h + Sockets.MSG_CONTROL, c == c0 ? 0 : txControl.address() + c0);
        txMsgs.set(ValueLayout.JAVA_LONG, h + Sockets.MSG_CONTROLLEN, c - c0);
    }

    /** Writes a control message of a 2- or 4-byte value at {@code c}; returns where the next goes. */
    private long cmsg(long c, int level, int type, int bytes, int value) {
        txControl.set(ValueLayout.JAVA_LONG, c, Sockets.CMSG_DATA + bytes);
        txControl.set(ValueLayout.JAVA_INT, c + Sockets.CMSG_LEVEL, level);
        txControl.set(ValueLayout.JAVA_INT, c + Sockets.CMSG_TYPE, type);
        if (bytes == 2) txControl.set(ValueLayout.JAVA_SHORT, c + Sockets.CMSG_DATA, (short) value);
        else txControl.set(ValueLayout.JAVA_INT, c + Sockets.CMSG_DATA, value);
        return c + Sockets.cmsgSpace(bytes);
    }

    /** The packet's destination as a sockaddr in {@code txNames} at {@code at}, its socket port routed; returns its length. */
    private int address(long at, int q) {
        MemorySegment s = queue[q].segment;
        int off = queueOffset[q];
        int port = destinationPort(q);
        if (!ipv6) {
            Integer routed = routes.get(destinationIp4(q));
            txNames.set(ValueLayout.JAVA_SHORT, at, (short) Sockets.AF_INET);
            Sockets.putPort(txNames, at, routed != null ? routed : port);
            MemorySegment.copy(s, off + 16, txNames, at + 4, 4);
            txNames.set(ValueLayout.JAVA_LONG, at + 8, 0);
            return 16;
        }
        for (int i = 0; i < routes6Count; i++) {
            if (MemorySegment.mismatch(routes6, i * 20L, i * 20L + 16, s, off + 24, off + 40) == -1) {
                port = routes6.get(ValueLayout.JAVA_INT, i * 20L + 16);
                break;
            }
        }
        txNames.set(ValueLayout.JAVA_SHORT, at, (short) Sockets.AF_INET6);
        Sockets.putPort(txNames, at, port);
        txNames.set(ValueLayout.JAVA_INT, at + 4, 0);
        MemorySegment.copy(s, off + 24, txNames, at + 8, 16);
        txNames.set(ValueLayout.JAVA_INT, at + 24, 0);
        return 28;
    }

    /**
     * Sends the built messages; a packet the kernel refuses is lost and counted, as on a congested link. Returns -1,
     * or the packet to build again from when the kernel refused GSO here (GSO is then off for good).
     */
    private int send(int messages) {
        int done = 0;
        while (done < messages) {
            int r;
            try {
                r = (int) Sockets.SENDMMSG.invokeExact(capture, fd, txMsgs.asSlice((long) done * MMSGHDR), messages - done,
                        Sockets.MSG_DONTWAIT);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (r > 0) {
                for (int m = done; m < done + r; m++) {
                    sent += msgCount[m];
                    if (msgCount[m] > 1) gsoSends++;
                }
                done += r;
                continue;
            }
            int errno = Libc.errno(capture);
            lastSendErrno = errno;
            if (msgCount[done] > 1 && (errno == Sockets.EINVAL || errno == Sockets.EIO || errno == Sockets.EMSGSIZE)) {
                // this path will not take a super-datagram (a device without checksum offload, a smaller path MTU)
                gso = false;
                int q = msgFirst[done];
                for (int m = done; m < messages; m++) for (int k = 1; k < msgCount[m]; k++) restamp(msgFirst[m] + k, k);
                return q;
            }
            if (errno == Sockets.EAGAIN) {
                for (int m = done; m < messages; m++) sendDropped += msgCount[m];
                return -1;
            }
            sendDropped += msgCount[done++];
        }
        return -1;
    }

    /**
     * Hands up to {@code budget} received datagrams to {@code nic} (at least one recvmmsg), each with its IP and
     * UDP headers rebuilt in front; returns the packets handed.
     */
    public int poll(Nic nic, int budget) {
        int vlen = Math.max(1, Math.min(RX_SLOTS, budget));
        for (int k = 0; k < vlen; k++) {
            long m = (long) k * MMSGHDR;
            rxMsgs.set(ValueLayout.JAVA_INT, m + Sockets.MSG_NAMELEN, Sockets.SOCKADDR_BYTES);
            rxMsgs.set(ValueLayout.JAVA_LONG, m + Sockets.MSG_CONTROLLEN, RX_CONTROL);
        }
        int r;
        try {
            r = (int) Sockets.RECVMMSG.invokeExact(capture, fd, rxMsgs, vlen, Sockets.MSG_DONTWAIT, MemorySegment.NULL);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (r < 0) {
            int errno = Libc.errno(capture);
            if (errno == Sockets.EAGAIN || errno == Libc.EINTR) return 0;
            throw new UncheckedIOException(new IOException("UDP receive failed: " + Libc.strerror(errno)));
        }
        int packets = 0;
        for (int k = 0; k < r; k++) packets += deliver(nic, k);
        return packets;
    }

    /** Datagram {@code k} of the last recvmmsg, cut at the GRO size if the kernel merged a burst. */
    private int deliver(Nic nic, int k) {
        long m = (long) k * MMSGHDR;
        int len = rxMsgs.get(ValueLayout.JAVA_INT, m + Sockets.MMSG_LEN);
        int flags = rxMsgs.get(ValueLayout.JAVA_INT, m + Sockets.MSG_FLAGS);
        long name = (long) k * Sockets.SOCKADDR_BYTES;
        if ((flags & Sockets.MSG_TRUNC) != 0 || rxNames.get(ValueLayout.JAVA_SHORT, name) != (ipv6 ? Sockets.AF_INET6 : Sockets.AF_INET)) {
            receiveDropped++;
            return 0;
        }
        int tos = 0;
        int segment = len;
        long control = (long) k * RX_CONTROL;
        long controlEnd = control + rxMsgs.get(ValueLayout.JAVA_LONG, m + Sockets.MSG_CONTROLLEN);
        for (long c = control; c + Sockets.CMSG_DATA <= controlEnd; ) {
            long clen = rxControl.get(ValueLayout.JAVA_LONG, c);
            int level = rxControl.get(ValueLayout.JAVA_INT, c + Sockets.CMSG_LEVEL);
            int type = rxControl.get(ValueLayout.JAVA_INT, c + Sockets.CMSG_TYPE);
            if (level == Sockets.IPPROTO_IP && type == Sockets.IP_TOS) tos = Byte.toUnsignedInt(rxControl.get(ValueLayout.JAVA_BYTE, c + Sockets.CMSG_DATA));
            else if (level == Sockets.IPPROTO_IPV6 && type == Sockets.IPV6_TCLASS) tos = rxControl.get(ValueLayout.JAVA_INT, c + Sockets.CMSG_DATA);
            else if (level == Sockets.SOL_UDP && type == Sockets.UDP_GRO) segment = rxControl.get(ValueLayout.JAVA_INT, c + Sockets.CMSG_DATA);
            if (clen < Sockets.CMSG_DATA) break;
            c += (clen + 7) & ~7L;
        }
        if (segment <= 0) segment = len;
        int sport = Sockets.port(rxNames, name);
        PacketBuffer buf = rxSlots[k];
        MemorySegment s = buf.segment;
        int n = 0;
        // a piece's headers go over the tail of the one before it, which the device has handled
        for (int o = 0; o < len || (len == 0 && n == 0); o += segment) {
            int piece = Math.min(segment, len - o);
            int ip = HEADROOM + o;
            if (ipv6) Rebuilt.ipv6(s, ip, tos, piece, rxNames, name + 8, localIp6, 0);
            else Rebuilt.ipv4(s, ip, tos, piece, Be.u32(rxNames, name + 4), localIp);
            Rebuilt.udp(s, ip + ipUdp - 8, sport, rocePort, piece);
            received++;
            n++;
            nic.receive(buf, ip, ipUdp + piece);
            if (len == 0) break;
        }
        return n;
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
