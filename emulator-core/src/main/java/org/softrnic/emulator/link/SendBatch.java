package org.softrnic.emulator.link;

import static org.softrnic.emulator.os.Sockets.MMSGHDR;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet6Address;
import java.net.InetAddress;
import org.softrnic.emulator.os.Libc;
import org.softrnic.emulator.os.Sockets;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.mem.IntMap;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.icrc.Ipv4IdSolver;

/**
 * The sending half of {@link NativeUdpLink}: the packet buffers the device hands over, queued until the loop
 * flushes, then up to {@value #BATCH} in one {@code sendmmsg}, equal ones to one address as one UDP GSO
 * super-datagram with each segment's ICRC restamped for the IP identification the kernel gives it.
 */
final class SendBatch implements PacketSink {
    /** Datagrams per sendmmsg: Aeron's and the kernel's usual burst. */
    static final int BATCH = 64;
    /** A message's control: UDP_SEGMENT (2 bytes), then IP_TOS or IPV6_TCLASS (an int). */
    private static final int TX_CONTROL = (Sockets.CMSG_DATA + 8) * 2;
    /** A super-datagram's UDP payload must fit IPv4's 16-bit total length. */
    private static final int GSO_MAX_BYTES = 65535 - 20 - 8;
    /** The kernel's UDP_MAX_SEGMENTS. */
    private static final int GSO_MAX_SEGMENTS = 64;
    /** The ICRC is carried little-endian. */
    private static final ValueLayout.OfInt ICRC = ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private final int fd;
    private final boolean ipv6;
    private final MemorySegment capture;
    private boolean gso;

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

    /** IPv4 destination address to the socket port its packets go to instead of the RoCE port they carry. */
    private final IntMap<Integer> routes = new IntMap<>();
    private MemorySegment routes6 = MemorySegment.NULL;
    private int routes6Count;
    private int carryLength = -1;
    private int carry;

    private PacketSink tap;
    long sent;
    long gsoSends;
    long sendDropped;
    int lastSendErrno;

    SendBatch(int fd, boolean ipv6, boolean gso, Arena arena) {
        this.fd = fd;
        this.ipv6 = ipv6;
        this.gso = gso;
        this.capture = arena.allocate(Libc.CAPTURE);
        for (int i = 0; i < BATCH + 1; i++) free[freeCount++] = PacketBuffer.allocate(arena, PacketSink.BUFFER_BYTES);
        txMsgs = arena.allocate((long) BATCH * MMSGHDR, 8);
        txIov = arena.allocate((long) BATCH * Sockets.IOVEC, 8);
        txNames = arena.allocate((long) BATCH * Sockets.SOCKADDR_BYTES, 8);
        txControl = arena.allocate((long) BATCH * TX_CONTROL, 8);
    }

    boolean gso() {
        return gso;
    }

    /** Packets for {@code peer} go to its socket port {@code port} instead of the RoCE port they carry. */
    void route(InetAddress peer, int port) {
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
    void flush() {
        int i = 0;
        while (i < queued) {
            int messages = 0;
            while (i < queued && messages < BATCH) {
                int n = group(i);
                message(messages++, i, n);
                i += n;
            }
            int restart = send(messages);
            if (restart >= 0) i = restart;
        }
        for (int q = 0; q < queued; q++) {
            if (tap != null) tap.transmit(queue[q], queueOffset[q], queueLength[q]);
            free[freeCount++] = queue[q];
            queue[q] = null;
        }
        queued = 0;
    }

    /** Records every packet as it left, GSO segments with the identification the kernel gave them. */
    void tapSent(PacketSink tap) {
        this.tap = tap;
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

    /**
     * Segment k leaves with IP identification k (0 for the first): its ICRC moves from the identification its
     * header has to {@code id} (XOR of the two differences), and the header says {@code id}; 0 undoes it.
     */
    private void restamp(int q, int id) {
        int total = queueLength[q];
        if (total != carryLength) {
            carry = Ipv4IdSolver.carry(total);
            carryLength = total;
        }
        MemorySegment s = queue[q].segment;
        int ip = queueOffset[q];
        int was = Be.u16(s, ip + 4);
        long at = ip + total - 4;
        s.set(ICRC, at, s.get(ICRC, at) ^ Ipv4IdSolver.icrcDifference(was, carry) ^ Ipv4IdSolver.icrcDifference(id, carry));
        // the header the kernel will send, for a trace of what left (the socket sends its own)
        Be.u16(s, ip + 4, id);
        Ipv4.refreshChecksum(s, ip);
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
        if (messages == 1 && msgCount[0] == 1 && txMsgs.get(ValueLayout.JAVA_LONG, Sockets.MSG_CONTROLLEN) == 0) {
            sendOne();
            return -1;
        }
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
                for (int m = done; m < messages; m++) for (int k = 1; k < msgCount[m]; k++) restamp(msgFirst[m] + k, 0);
                return q;
            }
            if (errno == Libc.EAGAIN) {
                for (int m = done; m < messages; m++) sendDropped += msgCount[m];
                return -1;
            }
            sendDropped += msgCount[done++];
        }
        return -1;
    }

    /**
     * One packet without control messages, the round trip's case: sendto, which costs the kernel less than a
     * one-message sendmmsg (2.6 against 2.9 us for 64 bytes on loopback, measured alone).
     */
    private void sendOne() {
        long iov = (long) msgFirst[0] * Sockets.IOVEC;
        long r;
        try {
            r = (long) Sockets.SENDTO.invokeExact(capture, fd, txIov.get(ValueLayout.JAVA_LONG, iov),
                    txIov.get(ValueLayout.JAVA_LONG, iov + 8), Sockets.MSG_DONTWAIT, txNames.address(),
                    txMsgs.get(ValueLayout.JAVA_INT, Sockets.MSG_NAMELEN));
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (r >= 0) {
            sent++;
        } else {
            lastSendErrno = Libc.errno(capture);
            sendDropped++; // a full send buffer or an error from the network: lost, as on a congested link
        }
    }
}
