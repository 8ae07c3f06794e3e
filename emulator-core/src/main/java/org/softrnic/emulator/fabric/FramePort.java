package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.BooleanSupplier;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.Nic;
import org.softrnic.nic.mem.IntMap;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.frame.Ipv4;

/**
 * The frame port: softrnic owns whole Ethernet frames on qemu's socket netdev (a TCP stream on
 * 127.0.0.1, each frame preceded by its length as 4 bytes big-endian, as qemu's net/socket.c frames it).
 * It answers ARP for its address and learns its peers' MACs, builds the Ethernet header in front of the
 * device's IP packets, and hands received IPv4 packets to the device, which checks every ICRC exactly
 * ({@link LinkProfile#FRAMES}). IPv4 only.
 */
public final class FramePort implements Port {
    private static final int MAX_FRAME = 16 + 9018;
    private static final long BROADCAST = 0xffff_ffff_ffffL;
    /** Room in front of a received frame, as the device's own buffers have. */
    private static final int HEADROOM = 16;

    private final Arena arena = new CountedArena();
    private final ServerSocketChannel listener;
    private SocketChannel channel;
    private final SelectorSleep sleep;
    private final long mac;
    private final int ip;
    private final int prefixMask;
    /** Stream bytes received and not yet taken as frames; a frame is copied out of it into rx. */
    private final ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
    /** Bytes to send that the socket has not taken yet. */
    private final ByteBuffer out = ByteBuffer.allocateDirect(4 << 20);
    /** Both buffers whole, from offset 0 (MemorySegment.ofBuffer starts at a buffer's current position). */
    private final MemorySegment inBytes = MemorySegment.ofBuffer(in.duplicate().clear());
    private final MemorySegment outBytes = MemorySegment.ofBuffer(out.duplicate().clear());
    private final PacketBuffer rx;
    private final PacketBuffer arp;
    private final IntMap<Long> neighbours = new IntMap<>();
    private long dropped;
    private long framesIn;
    private long framesOut;
    private long arpRequests;

    private FramePort(ServerSocketChannel listener, SocketChannel channel, long mac, Inet4Address ip, int prefix) throws IOException {
        this.listener = listener;
        this.channel = channel;
        this.mac = mac;
        this.ip = Ipv4.toInt(ip);
        this.prefixMask = prefix == 0 ? 0 : -1 << (32 - prefix);
        this.sleep = new SelectorSleep();
        this.rx = PacketBuffer.allocate(arena, MAX_FRAME + HEADROOM);
        this.arp = PacketBuffer.allocate(arena, 64);
        if (listener != null) listener.register(sleep.selector, SelectionKey.OP_ACCEPT);
        if (channel != null) channel.register(sleep.selector, SelectionKey.OP_READ);
        out.flip(); // empty, ready to be drained
    }

    /** Listens on 127.0.0.1:{@code port} for qemu's {@code -netdev socket,connect=127.0.0.1:PORT}. */
    public static FramePort listen(int port, Inet4Address ip, int prefix, long mac) throws IOException {
        ServerSocketChannel l = ServerSocketChannel.open();
        try {
            l.setOption(java.net.StandardSocketOptions.SO_REUSEADDR, true);
            l.bind(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.1"), port), 1);
            l.configureBlocking(false);
            return new FramePort(l, null, mac(mac, ip), ip, prefix);
        } catch (IOException | RuntimeException e) {
            l.close();
            throw e;
        }
    }

    /** Connects to qemu's {@code -netdev socket,listen=127.0.0.1:PORT}. */
    public static FramePort connect(int port, Inet4Address ip, int prefix, long mac) throws IOException {
        SocketChannel c = SocketChannel.open(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.1"), port));
        try {
            c.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
            c.configureBlocking(false);
            return new FramePort(null, c, mac(mac, ip), ip, prefix);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** A locally administered unicast MAC from the address (02:00:a:b:c:d), unless one was given. */
    private static long mac(long given, Inet4Address ip) {
        return given >= 0 ? given : 0x0200_0000_0000L | Integer.toUnsignedLong(Ipv4.toInt(ip));
    }

    public long mac() {
        return mac;
    }

    /** Frames received and sent, and ARP requests sent. */
    public long framesIn() { return framesIn; }
    public long framesOut() { return framesOut; }
    public long arpRequests() { return arpRequests; }

    @Override
    public LinkProfile profile() {
        return LinkProfile.FRAMES;
    }

    @Override
    public Arena arena() {
        return arena;
    }

    @Override
    public long dropped() {
        return dropped;
    }

    // ---- sending

    @Override
    public boolean transmit(PacketBuffer buffer, int offset, int length) {
        if (offset < Ethernet.LENGTH) throw new IllegalArgumentException("no room for the Ethernet header");
        MemorySegment s = buffer.segment;
        int dst = Be.u32(s, offset + 16);
        int nextHop = dst; // one link: every peer is on it (prefix used only to refuse others)
        if (prefixMask != 0 && (dst & prefixMask) != (ip & prefixMask)) {
            dropped++; // not on this link, and there is no router
            return false;
        }
        Long peer = neighbours.get(nextHop);
        if (peer == null) {
            requestArp(nextHop);
            dropped++; // lost until the peer answers (the device counts send_err); RC retransmits
            return false;
        }
        int frame = offset - Ethernet.LENGTH;
        writeEthernet(s, frame, peer, Ethernet.ETHERTYPE_IPV4);
        return send(s, frame, length + Ethernet.LENGTH);
    }

    private void writeEthernet(MemorySegment s, long at, long dst, int etherType) {
        Be.u16(s, at, (int) (dst >>> 32));
        Be.u32(s, at + 2, (int) dst);
        Be.u16(s, at + 6, (int) (mac >>> 32));
        Be.u32(s, at + 8, (int) mac);
        Be.u16(s, at + 12, etherType);
    }

    /** Queues one frame with its length in front and pushes what the socket takes. */
    private boolean send(MemorySegment s, long at, int length) {
        if (channel == null) {
            dropped++; // qemu has not connected yet
            return true;
        }
        int padded = Math.max(length, Ethernet.MIN_FRAME); // what a NIC pads a short frame to
        out.compact();
        try {
            if (out.remaining() < 4 + padded) {
                dropped++;
                return false;
            }
            out.putInt(padded);
            int p = out.position();
            MemorySegment.copy(s, at, outBytes, p, length);
            for (int i = length; i < padded; i++) out.put(p + i, (byte) 0);
            out.position(p + padded);
        } finally {
            out.flip();
        }
        framesOut++;
        flush();
        return true;
    }

    private void flush() {
        try {
            while (out.hasRemaining() && channel.write(out) > 0) {
                // the socket takes what it can; the rest waits for the next poll
            }
        } catch (IOException e) {
            dropped++;
            out.clear().flip();
        }
    }

    private void requestArp(int target) {
        MemorySegment a = arp.segment;
        writeEthernet(a, 0, BROADCAST, Ethernet.ETHERTYPE_ARP);
        writeArp(a, 1, 0, target);
        arpRequests++;
        send(a, 0, 42);
    }

    /** An ARP body at 14: {@code op} 1 request, 2 reply. */
    private void writeArp(MemorySegment a, int op, long targetMac, int targetIp) {
        Be.u16(a, 14, 1);
        Be.u16(a, 16, 0x0800);
        Be.u8(a, 18, 6);
        Be.u8(a, 19, 4);
        Be.u16(a, 20, op);
        Be.u16(a, 22, (int) (mac >>> 32));
        Be.u32(a, 24, (int) mac);
        Be.u32(a, 28, ip);
        Be.u16(a, 32, (int) (targetMac >>> 32));
        Be.u32(a, 34, (int) targetMac);
        Be.u32(a, 38, targetIp);
    }

    // ---- receiving

    @Override
    public int poll(Nic nic, int budget) {
        try {
            if (channel == null) {
                if (listener == null) return 0;
                SocketChannel c = listener.accept();
                if (c == null) return 0;
                c.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
                c.configureBlocking(false);
                c.register(sleep.selector, SelectionKey.OP_READ);
                channel = c;
            }
            if (out.hasRemaining()) flush();
            int n = channel.read(in);
            if (n < 0) throw new IOException("qemu closed the link");
        } catch (IOException e) {
            throw new UncheckedIOException("frame port: " + e.getMessage(), e);
        }
        in.flip();
        int frames = 0;
        while (frames < budget && in.remaining() >= 4) {
            int length = in.getInt(in.position());
            if (length < Ethernet.LENGTH || length > MAX_FRAME) {
                throw new UncheckedIOException(new IOException("frame port: a frame of " + length + " bytes; the stream is out of step"));
            }
            if (in.remaining() < 4 + length) break;
            int at = in.position() + 4;
            MemorySegment.copy(inBytes, at, rx.segment, HEADROOM, length);
            in.position(at + length);
            framesIn++;
            frames++;
            receive(nic, length);
        }
        in.compact();
        return frames;
    }

    private void receive(Nic nic, int length) {
        MemorySegment s = rx.segment;
        long src = (long) Be.u16(s, HEADROOM + 6) << 32 | Integer.toUnsignedLong(Be.u32(s, HEADROOM + 8));
        int type = Be.u16(s, HEADROOM + 12);
        if (type == Ethernet.ETHERTYPE_ARP && length >= 42) {
            answerArp(s, src);
        } else if (type == Ethernet.ETHERTYPE_IPV4 && length >= Ethernet.LENGTH + 20) {
            int ipAt = HEADROOM + Ethernet.LENGTH;
            if (Be.u32(s, ipAt + 16) != ip) return; // not for us
            learn(Be.u32(s, ipAt + 12), src);
            int total = Be.u16(s, ipAt + 2); // frames shorter than 60 bytes were padded: trust the IP length
            nic.receive(rx, ipAt, Math.min(total, length - Ethernet.LENGTH));
        }
        // IPv6, LLDP and the rest: not ours
    }

    private void answerArp(MemorySegment s, long src) {
        int base = HEADROOM;
        int op = Be.u16(s, base + 20);
        int senderIp = Be.u32(s, base + 28);
        int targetIp = Be.u32(s, base + 38);
        if (senderIp != 0) learn(senderIp, src);
        if (op == 1 && targetIp == ip) {
            MemorySegment a = arp.segment;
            writeEthernet(a, 0, src, Ethernet.ETHERTYPE_ARP);
            writeArp(a, 2, src, senderIp);
            send(a, 0, 42);
        }
    }

    private void learn(int peerIp, long peerMac) {
        Long known = neighbours.get(peerIp);
        if (known == null || known != peerMac) neighbours.put(peerIp, peerMac);
    }

    @Override
    public void await(long deadline, BooleanSupplier idle) {
        sleep.await(deadline, idle);
    }

    @Override
    public void wakeup() {
        sleep.wakeup();
    }

    @Override
    public void close() {
        try (arena; sleep; var l = listener; var c = channel) {
            // closes every one, even when one fails
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
