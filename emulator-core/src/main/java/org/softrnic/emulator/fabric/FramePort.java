package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.util.function.BooleanSupplier;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.Nic;
import org.softrnic.nic.mem.IntMap;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.frame.Ipv4;

/**
 * The frame port: softrnic owns whole Ethernet frames, on qemu's socket netdev or a TAP device
 * ({@link FrameEndpoint}). It answers ARP for its address and learns its peers' MACs, builds the Ethernet
 * header in front of the device's IP packets, and hands received IPv4 packets to the device, which checks
 * every ICRC exactly ({@link LinkProfile#FRAMES}). It can drop a share of the RoCE packets each way, from a
 * seed, to test recovery without touching the peer. IPv4 only.
 */
public final class FramePort implements Port {
    private static final int MAX_FRAME = 16 + 9018;
    private static final long BROADCAST = 0xffff_ffff_ffffL;
    /** Room in front of a received frame, as the device's own buffers have. */
    private static final int HEADROOM = 16;

    private final Arena arena = new CountedArena();
    private final FrameEndpoint endpoint;
    private final long mac;
    private final int ip;
    private final int prefixMask;
    private final double loss;
    private final java.util.SplittableRandom random;
    private final PacketBuffer rx;
    private final PacketBuffer arp;
    private final IntMap<Long> neighbours = new IntMap<>();
    /** When each unresolved address was last asked for: ARP asks again at most once a second, as the kernel does. */
    private final IntMap<Long> asked = new IntMap<>();
    private final UnresolvedQueue unresolved;
    private final UnresolvedQueue.Sender sendResolved;
    private final java.util.function.IntConsumer onFrame;
    private Nic receiving;
    private long dropped;
    private long lost;
    private long framesIn;
    private long framesOut;
    private long arpRequests;

    private FramePort(FrameEndpoint endpoint, long mac, Inet4Address ip, int prefix, double loss, long seed) {
        this.endpoint = endpoint;
        this.mac = mac(mac, ip);
        this.ip = Ipv4.toInt(ip);
        this.prefixMask = prefix == 0 ? 0 : -1 << (32 - prefix);
        this.loss = loss;
        this.random = new java.util.SplittableRandom(seed);
        this.rx = PacketBuffer.allocate(arena, MAX_FRAME + HEADROOM);
        this.arp = PacketBuffer.allocate(arena, 64);
        this.unresolved = new UnresolvedQueue(arena, 64, MAX_FRAME);
        this.sendResolved = (frame, length, dst) -> {
            writeEthernet(frame, 0, neighbours.get(dst), Ethernet.ETHERTYPE_IPV4);
            if (!loses()) send(frame, 0, length);
        };
        this.onFrame = length -> {
            framesIn++;
            receive(receiving, length);
        };
    }

    /**
     * A frame port on the given link.
     *
     * @param kind  qemu-listen (127.0.0.1:{@code port}, for qemu's {@code -netdev socket,connect=}), qemu-connect
     *              (to qemu's {@code -netdev socket,listen=}), or tap ({@code device})
     * @param mac   the port's MAC, or -1 for 02:00 and the IPv4 address
     * @param loss  the share of RoCE packets dropped each way (0: none), drawn from {@code seed}
     */
    public static FramePort open(org.softrnic.emulator.link.LinkSpec link) throws IOException {
        FrameEndpoint e = switch (link.kind()) {
            case QEMU_LISTEN -> QemuSocketEndpoint.listen(link.port());
            case QEMU_CONNECT -> QemuSocketEndpoint.connect(link.port());
            case TAP -> TapEndpoint.open(link.device());
            default -> throw new IllegalArgumentException("--link " + link.text() + " is not a frame link");
        };
        return new FramePort(e, link.mac(), (Inet4Address) link.address(), link.prefix(), link.loss(), link.seed());
    }

    /** A locally administered unicast MAC from the address (02:00:a:b:c:d), unless one was given. */
    private static long mac(long given, Inet4Address ip) {
        return given >= 0 ? given : 0x0200_0000_0000L | Integer.toUnsignedLong(Ipv4.toInt(ip));
    }

    public long mac() {
        return mac;
    }

    /** RoCE packets dropped on purpose ({@code loss=}), both ways. */
    public long lost() { return lost; }

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
        return dropped + lost + unresolved.dropped();
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
        int frame = offset - Ethernet.LENGTH;
        if (peer == null) {
            long now = System.nanoTime();
            unresolved.hold(s, frame, length + Ethernet.LENGTH, nextHop, now);
            Long last = asked.get(nextHop);
            if (last == null || now - last > 1_000_000_000L) {
                asked.put(nextHop, now);
                requestArp(nextHop);
            }
            return true; // on its way once the peer answers
        }
        writeEthernet(s, frame, peer, Ethernet.ETHERTYPE_IPV4);
        if (loses()) return true; // gone on the wire, as far as the sender can tell
        return send(s, frame, length + Ethernet.LENGTH);
    }

    private void writeEthernet(MemorySegment s, long at, long dst, int etherType) {
        Be.u16(s, at, (int) (dst >>> 32));
        Be.u32(s, at + 2, (int) dst);
        Be.u16(s, at + 6, (int) (mac >>> 32));
        Be.u32(s, at + 8, (int) mac);
        Be.u16(s, at + 12, etherType);
    }

    private boolean send(MemorySegment s, long at, int length) {
        if (!endpoint.send(s, at, length)) {
            dropped++; // nobody connected yet, or the endpoint is full
            return false;
        }
        framesOut++;
        return true;
    }

    private boolean loses() {
        if (loss > 0 && random.nextDouble() < loss) {
            lost++;
            return true;
        }
        return false;
    }

    @Override
    public void resolve(org.softrnic.nic.qp.Gid dgid) {
        if (!dgid.isIpv4Mapped()) return;
        int target = (int) (dgid.raw()[12] & 0xff) << 24 | (dgid.raw()[13] & 0xff) << 16 | (dgid.raw()[14] & 0xff) << 8 | (dgid.raw()[15] & 0xff);
        if (neighbours.get(target) != null || (prefixMask != 0 && (target & prefixMask) != (ip & prefixMask))) return;
        asked.put(target, System.nanoTime());
        requestArp(target);
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
        receiving = nic;
        if (!unresolved.isEmpty()) unresolved.expire(System.nanoTime());
        return endpoint.receive(rx.segment, HEADROOM, MAX_FRAME, budget, onFrame);
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
            if (loses()) return;
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
        if (known != null && known == peerMac) return;
        neighbours.put(peerIp, peerMac);
        if (!unresolved.isEmpty()) unresolved.resolved(peerIp, sendResolved);
    }

    @Override
    public void await(long deadline, BooleanSupplier idle) {
        endpoint.await(deadline, idle);
    }

    @Override
    public void wakeup() {
        endpoint.wakeup();
    }

    @Override
    public void close() {
        try (arena) {
            endpoint.close();
        }
    }
}
