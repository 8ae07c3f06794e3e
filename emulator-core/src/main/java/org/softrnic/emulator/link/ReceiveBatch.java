package org.softrnic.emulator.link;

import static org.softrnic.emulator.os.Sockets.MMSGHDR;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.emulator.os.Libc;
import org.softrnic.emulator.os.Sockets;
import org.softrnic.nic.PacketReceiver;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;

/**
 * The receiving half of {@link NativeUdpLink}: up to {@value #RX_SLOTS} datagrams a {@code recvmmsg}, each with
 * its sender, its TOS or traffic class, and the segment size of a GRO burst, handed to the device packet by
 * packet with the headers the socket hid rebuilt in front.
 */
final class ReceiveBatch {
    /** Datagrams per recvmmsg; each slot holds a GRO burst of up to 64 KiB. */
    static final int RX_SLOTS = 16;
    private static final int RX_DATA = 65536;
    private static final int RX_CONTROL = 64;
    private static final int HEADROOM = PacketBuffer.HEADROOM;

    private final int fd;
    private final boolean ipv6;
    private final int ipUdp;
    private final int localIp;
    private final MemorySegment localIp6;
    private final int rocePort;
    private final MemorySegment capture;
    private final PacketBuffer[] rxSlots = new PacketBuffer[RX_SLOTS];
    private final MemorySegment rxMsgs;
    private final MemorySegment rxNames;
    private final MemorySegment rxControl;

    long received;
    long receiveDropped;

    ReceiveBatch(int fd, boolean ipv6, byte[] localAddress, int rocePort, Arena arena) {
        this.fd = fd;
        this.ipv6 = ipv6;
        this.ipUdp = (ipv6 ? 40 : 20) + 8;
        this.localIp = ipv6 ? 0 : Be.u32(MemorySegment.ofArray(localAddress), 0);
        this.localIp6 = ipv6 ? arena.allocate(16).copyFrom(MemorySegment.ofArray(localAddress)) : null;
        this.rocePort = rocePort;
        this.capture = arena.allocate(Libc.CAPTURE);
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
     * Hands up to {@code budget} received datagrams to {@code nic} (at least one recvmmsg), each with its IP and
     * UDP headers rebuilt in front; returns the packets handed.
     */
    int poll(PacketReceiver nic, int budget) {
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
            if (errno == Libc.EAGAIN || errno == Libc.EINTR) return 0;
            throw new UncheckedIOException(new IOException("UDP receive failed: " + Libc.strerror(errno)));
        }
        int packets = 0;
        for (int k = 0; k < r; k++) packets += deliver(nic, k);
        return packets;
    }

    /** Datagram {@code k} of the last recvmmsg, cut at the GRO size if the kernel merged a burst. */
    private int deliver(PacketReceiver nic, int k) {
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
        // a piece's headers go over the tail of the one before it, which the device has handled; an empty
        // datagram is one empty piece, which the device drops as malformed
        int o = 0;
        do {
            int piece = Math.min(segment, len - o);
            int ip = HEADROOM + o;
            if (ipv6) Rebuilt.ipv6(s, ip, tos, piece, rxNames, name + 8, localIp6, 0);
            else Rebuilt.ipv4(s, ip, tos, piece, Be.u32(rxNames, name + 4), localIp);
            Rebuilt.udp(s, ip + ipUdp - 8, sport, rocePort, piece);
            received++;
            n++;
            nic.receive(buf, ip, ipUdp + piece);
            o += segment;
        } while (o < len);
        return n;
    }

}
