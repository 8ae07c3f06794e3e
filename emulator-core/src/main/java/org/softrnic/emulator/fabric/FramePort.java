package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import org.softrnic.emulator.link.LinkSpec;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.PacketReceiver;
import org.softrnic.verbs.Gid;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.Ethernet;

/**
 * The frame port: softrnic owns whole Ethernet frames, on qemu's socket netdev or a TAP device
 * ({@link FrameEndpoint}), with one IPv4 or IPv6 address. It answers ARP or neighbour solicitations for its
 * address and finds its peers' MACs the same way (frames wait for the answer, as in the kernel), builds the
 * Ethernet header in front of the device's IP packets, and hands received packets for its address to the
 * device, which checks every ICRC exactly ({@link LinkProfile#FRAMES}). It can drop a share of the RoCE
 * packets each way, from a seed, to test recovery without touching the peer.
 */
public final class FramePort implements Port {
    /** An Ethernet link's: the frame port is given no other (the guest's eth0 and a TAP default to it). */
    @Override
    public int ipMtu() {
        return 1500;
    }

    private static final int MAX_FRAME = 16 + 9018;
    /** Room in front of a received frame, as the device's own buffers have. */
    private static final int HEADROOM = org.softrnic.wire.PacketBuffer.HEADROOM;

    private final Arena arena = new CountedArena();
    private final FrameEndpoint endpoint;
    private final long mac;
    /** Our address, IPv4 as IPv4-mapped, and how many of its leading bits the link shares. */
    private final long ourHi;
    private final long ourLo;
    private final boolean v6;
    private final int prefixBits;
    private final double loss;
    private final double ecn;
    private long marked;
    private final java.util.SplittableRandom random;
    private final PacketBuffer rx;
    private final PacketBuffer control;
    private final NeighbourTable neighbours = new NeighbourTable();
    private final UnresolvedQueue unresolved;
    private final UnresolvedQueue.Sender sendResolved;
    private final IntConsumer onFrame;
    private PacketReceiver receiving;
    private long dropped;
    private long lost;
    private long framesIn;
    private long framesOut;
    private long solicitations;

    private FramePort(FrameEndpoint endpoint, long mac, InetAddress address, int prefix, double loss, double ecn, long seed) {
        this.endpoint = endpoint;
        byte[] a = address.getAddress();
        this.v6 = a.length == 16;
        if (v6) {
            ourHi = Be.u64(MemorySegment.ofArray(a), 0);
            ourLo = Be.u64(MemorySegment.ofArray(a), 8);
        } else {
            ourHi = 0;
            ourLo = NeighbourTable.v4(Be.u32(MemorySegment.ofArray(a), 0));
        }
        this.prefixBits = v6 ? prefix : 96 + prefix;
        this.mac = mac >= 0 ? mac : 0x0200_0000_0000L | (ourLo & 0xffff_ffffL); // 02:00 and the low 32 bits
        this.loss = loss;
        this.ecn = ecn;
        this.random = new java.util.SplittableRandom(seed);
        this.rx = PacketBuffer.allocate(arena, MAX_FRAME + HEADROOM);
        this.control = PacketBuffer.allocate(arena, 128);
        this.unresolved = new UnresolvedQueue(arena, 64, MAX_FRAME);
        this.sendResolved = (frame, length, slot) -> {
            writeEthernet(frame, 0, neighbours.mac(slot), Be.u8(frame, Ethernet.LENGTH) >>> 4 == 6);
            if (!loses()) send(frame, 0, length);
        };
        this.onFrame = length -> {
            framesIn++;
            receive(receiving, length);
        };
    }

    /** A frame port on a qemu-listen, qemu-connect or tap link. */
    public static FramePort open(LinkSpec link) throws IOException {
        FrameEndpoint e = switch (link.kind()) {
            case QEMU_LISTEN -> QemuSocketEndpoint.listen(link.port());
            case QEMU_CONNECT -> QemuSocketEndpoint.connect(link.port());
            case TAP -> TapEndpoint.open(link.device());
            default -> throw new IllegalArgumentException("--link " + link.text() + " is not a frame link");
        };
        return new FramePort(e, link.mac(), link.address(), link.prefix(), link.loss(), link.ecn(), link.seed());
    }

    public long mac() {
        return mac;
    }

    /** RoCE packets dropped on purpose ({@code loss=}), both ways. */
    public long lost() { return lost; }

    /** Frames received and sent, and ARP requests or neighbour solicitations sent. */
    public long framesIn() { return framesIn; }
    public long framesOut() { return framesOut; }
    public long solicitations() { return solicitations; }

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
        boolean six = Be.u8(s, offset) >>> 4 == 6;
        long dstHi = six ? Be.u64(s, offset + 24) : 0;
        long dstLo = six ? Be.u64(s, offset + 32) : NeighbourTable.v4(Be.u32(s, offset + 16));
        int slot = onLink(dstHi, dstLo) ? neighbours.slot(dstHi, dstLo) : -1;
        if (slot < 0) {
            dropped++; // not on this link and there is no router, or too many neighbours
            return false;
        }
        int frame = offset - Ethernet.LENGTH;
        long peer = neighbours.mac(slot);
        if (peer == NeighbourTable.UNKNOWN) {
            long now = System.nanoTime();
            unresolved.hold(s, frame, length + Ethernet.LENGTH, slot, now);
            solicit(slot, now);
            return true; // on its way once the peer answers
        }
        writeEthernet(s, frame, peer, six);
        if (loses()) return true; // gone on the wire, as far as the sender can tell
        return send(s, frame, length + Ethernet.LENGTH);
    }

    /** Same prefix as ours (link-local addresses always are). */
    private boolean onLink(long hi, long lo) {
        if (v6 != !NeighbourTable.isV4(hi, lo)) return false;
        if (v6 && (hi >>> 54) == (0xfe80L >>> 6)) return true;
        if (prefixBits <= 64) return prefixBits == 0 || (hi ^ ourHi) >>> (64 - prefixBits) == 0;
        return hi == ourHi && (prefixBits == 128 ? lo == ourLo : (lo ^ ourLo) >>> (128 - prefixBits) == 0);
    }

    @Override
    public void resolve(Gid dgid) {
        byte[] g = dgid.raw();
        long hi = Be.u64(MemorySegment.ofArray(g), 0);
        long lo = Be.u64(MemorySegment.ofArray(g), 8);
        if (!onLink(hi, lo)) return;
        int slot = neighbours.slot(hi, lo);
        if (slot >= 0 && neighbours.mac(slot) == NeighbourTable.UNKNOWN) solicit(slot, System.nanoTime());
    }

    /** Asks who has the slot's address: ARP for IPv4, a neighbour solicitation for IPv6; once a second at most. */
    private void solicit(int slot, long now) {
        if (!neighbours.mayAsk(slot, now)) return;
        MemorySegment c = control.segment;
        int n = v6 ? LinkControl.solicit(c, mac, ourHi, ourLo, neighbours.hi(slot), neighbours.lo(slot))
                : LinkControl.arp(c, 1, mac, (int) ourLo, 0, (int) neighbours.lo(slot));
        solicitations++;
        send(c, 0, n);
    }

    private void writeEthernet(MemorySegment s, long at, long dst, boolean six) {
        LinkControl.ethernet(s, at, dst, mac, six ? Ethernet.ETHERTYPE_IPV6 : Ethernet.ETHERTYPE_IPV4);
    }

    private boolean send(MemorySegment s, long at, int length) {
        if (!endpoint.send(s, at, length)) {
            dropped++; // nobody connected yet, or the endpoint is full
            return false;
        }
        framesOut++;
        return true;
    }

    /**
     * {@code ecn=}: an arriving ECN-capable packet (its IP header at {@code ip}) marked CE, as by a congested switch in
     * front of the port; counted. Only arrivals: the device's own packets, CNPs among them, leave as they were made.
     */
    private void mark(MemorySegment s, long ip) {
        if (ecn > 0 && random.nextDouble() < ecn && org.softrnic.wire.frame.Ecn.markCongestion(s, ip)) marked++;
    }

    @Override
    public void putLinkCounts(java.util.Map<String, Long> counters) {
        org.softrnic.nic.sim.LinkCounts.put(counters, dropped(), 0, 0, marked);
    }

    private boolean loses() {
        if (loss > 0 && random.nextDouble() < loss) {
            lost++;
            return true;
        }
        return false;
    }

    // ---- receiving

    @Override
    public int poll(PacketReceiver nic, int budget) {
        receiving = nic;
        if (!unresolved.isEmpty()) unresolved.expire(System.nanoTime());
        return endpoint.receive(rx.segment, HEADROOM, MAX_FRAME, budget, onFrame);
    }

    private void receive(PacketReceiver nic, int length) {
        MemorySegment s = rx.segment;
        long src = LinkControl.mac(s, HEADROOM + 6);
        int type = Be.u16(s, HEADROOM + 12);
        int ip = HEADROOM + Ethernet.LENGTH;
        if (type == Ethernet.ETHERTYPE_ARP && length >= 42 && !v6) {
            answerArp(s, src);
        } else if (type == Ethernet.ETHERTYPE_IPV4 && length >= Ethernet.LENGTH + 20 && !v6) {
            if (NeighbourTable.v4(Be.u32(s, ip + 16)) != ourLo) return; // not for us
            learn(0, NeighbourTable.v4(Be.u32(s, ip + 12)), src);
            if (loses()) return;
            mark(s, ip);
            int total = Be.u16(s, ip + 2); // frames shorter than 60 bytes were padded: trust the IP length
            nic.receive(rx, ip, Math.min(total, length - Ethernet.LENGTH));
        } else if (type == Ethernet.ETHERTYPE_IPV6 && length >= Ethernet.LENGTH + 40 && v6) {
            int total = Math.min(40 + Be.u16(s, ip + 4), length - Ethernet.LENGTH);
            if (Be.u8(s, ip + 6) == LinkControl.ICMPV6) {
                neighbourDiscovery(s, ip, total - 40, src);
                return;
            }
            if (Be.u64(s, ip + 24) != ourHi || Be.u64(s, ip + 32) != ourLo) return; // not for us
            learn(Be.u64(s, ip + 8), Be.u64(s, ip + 16), src);
            if (loses()) return;
            mark(s, ip);
            nic.receive(rx, ip, total);
        }
        // the other family, LLDP and the rest: not ours
    }

    private void answerArp(MemorySegment s, long src) {
        int base = HEADROOM;
        int op = Be.u16(s, base + 20);
        int senderIp = Be.u32(s, base + 28);
        int targetIp = Be.u32(s, base + 38);
        if (senderIp != 0) learn(0, NeighbourTable.v4(senderIp), src);
        if (op == 1 && NeighbourTable.v4(targetIp) == ourLo) {
            MemorySegment c = control.segment;
            send(c, 0, LinkControl.arp(c, 2, mac, (int) ourLo, src, senderIp));
        }
    }

    /** Solicitations for our address get an advertisement; advertisements and solicitations teach us MACs. */
    private void neighbourDiscovery(MemorySegment s, int ip, int icmpLength, long src) {
        int icmp = ip + 40;
        if (icmpLength < 24 || Be.u8(s, ip + 7) != 255) return; // RFC 4861: hop limit 255, or it crossed a router
        if (LinkControl.icmpv6Checksum(s, ip, icmpLength) != 0) return;
        int type = Be.u8(s, icmp);
        long targetHi = Be.u64(s, icmp + 8);
        long targetLo = Be.u64(s, icmp + 16);
        long srcHi = Be.u64(s, ip + 8);
        long srcLo = Be.u64(s, ip + 16);
        if (type == LinkControl.NS && targetHi == ourHi && targetLo == ourLo) {
            if (srcHi == 0 && srcLo == 0) return; // duplicate address detection: not a neighbour yet
            long from = LinkControl.ndOption(s, icmp, icmpLength, LinkControl.OPT_SLLA);
            long to = from >= 0 ? from : src;
            learn(srcHi, srcLo, to);
            MemorySegment c = control.segment;
            send(c, 0, LinkControl.advertise(c, mac, ourHi, ourLo, to, srcHi, srcLo));
        } else if (type == LinkControl.NA) {
            long target = LinkControl.ndOption(s, icmp, icmpLength, LinkControl.OPT_TLLA);
            learn(targetHi, targetLo, target >= 0 ? target : src);
        }
    }

    private void learn(long hi, long lo, long peerMac) {
        int slot = neighbours.slot(hi, lo);
        if (slot < 0 || neighbours.mac(slot) == peerMac) return;
        neighbours.learn(hi, lo, peerMac);
        if (!unresolved.isEmpty()) unresolved.resolved(slot, sendResolved);
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
