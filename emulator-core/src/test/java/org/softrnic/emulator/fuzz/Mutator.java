package org.softrnic.emulator.fuzz;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.softrnic.emulator.fuzz.Mutant.Kind;
import org.softrnic.wire.Be;
import org.softrnic.wire.HeaderKind;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.frame.Udp;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.header.Deth;
import org.softrnic.wire.packet.RocePacket;
import org.softrnic.wire.testing.RandomFrames;

/**
 * Makes hostile packets from the live transfer's own recent packets, from real rxe captures and from each
 * opcode's layout. A packet whose ICRC is made valid comes from the peer's own address only once in
 * {@code peerOdds} (the rest from a stranger), so that most rounds of the transfer see none that may
 * legitimately change them; packets with a broken ICRC come from the peer's address half the time.
 */
final class Mutator {
    /** What the mutator aims at: the QPs and regions in use, by side. */
    interface Targets {
        int[] qpns(int side);

        /** The side's regions: [iova, iova + length) with their rkeys. */
        long[] regionStarts(int side);

        int[] rkeys(int side);

        long regionLength();
    }

    private static final int RING = 512;
    private static final int[] PSN_DELTAS = {0, 1, 2, -1, -2, 3, 16, -16, (1 << 23) - 1, 1 << 23, -(1 << 23), (1 << 23) + 1, 1 << 22, -(1 << 22)};
    private static final Opcode[] OPCODES = Opcode.values();

    private final Random r;
    private final FuzzRig rig;
    private final Targets targets;
    private final int peerOdds;
    private final int[] cumulative = new int[Kind.values().length];
    /** By receiving side: packets recently sent to it by its peer. */
    private final byte[][][] ring = new byte[2][RING][];
    private final int[] ringCount = new int[2];
    private final List<byte[]> captures;
    private final FrameCodec codec = new FrameCodec();

    Mutator(Random r, FuzzRig rig, Targets targets, int peerOdds, List<byte[]> captures) {
        this.r = r;
        this.rig = rig;
        this.targets = targets;
        this.peerOdds = peerOdds;
        this.captures = captures;
        int sum = 0;
        for (Kind k : Kind.values()) cumulative[k.ordinal()] = sum += k.weight;
    }

    /** Keeps a copy of a packet {@code fromSide} sent, as material. */
    void genuine(int fromSide, byte[] packet) {
        int to = 1 - fromSide;
        ring[to][ringCount[to]++ % RING] = packet;
    }

    Mutant next() {
        int side = r.nextInt(2);
        Kind kind = kind();
        if (kind == Kind.IP_HEADER && !rig.seesIpHeader()) kind = Kind.LENGTH_FIELDS;
        byte[] p = switch (kind) {
            case LAYOUT -> layout(side);
            case QP1 -> qp1(side);
            case CNP -> cnp(side);
            case CAPTURE -> capture(side);
            case RANDOM_BYTES -> randomBytes();
            case REFLECTED -> reflected(side);
            default -> genuineCopy(side);
        };
        if (p == null) {
            kind = Kind.LAYOUT;
            p = layout(side);
        }
        boolean restamp = true;
        switch (kind) {
            case BIT_FLIPS -> {
                int flips = 1 + r.nextInt(8);
                for (int i = 0; i < flips; i++) {
                    int at = Ip4.BTH + r.nextInt(p.length - Ip4.BTH);
                    p[at] ^= (byte) (1 << r.nextInt(8));
                }
                restamp = false;
            }
            case TRUNCATED -> {
                p = java.util.Arrays.copyOf(p, r.nextInt(p.length));
                if (r.nextBoolean() && p.length >= Ip4.BTH) Ip4.lengths(p);
                restamp = r.nextInt(4) == 0;
            }
            case LENGTH_FIELDS -> lengthFields(p);
            case PSN_EDGE -> Ip4.psn(p, Ip4.psn(p) + PSN_DELTAS[r.nextInt(PSN_DELTAS.length)] + (r.nextInt(8) == 0 ? r.nextInt(1 << 24) : 0));
            case RKEY_NEAR -> rkeyNear(p, side);
            case CONTENT -> {
                int n = 1 + r.nextInt(16);
                for (int i = 0; i < n && p.length > Ip4.MIN; i++) p[Ip4.BTH + 12 + r.nextInt(p.length - Ip4.MIN)] = (byte) r.nextInt();
            }
            case WRONG_DESTINATION -> Ip4.dst(p, r.nextBoolean() ? rig.strangerIp() : rig.ip(1 - side));
            case IP_HEADER -> ipHeader(p);
            case RANDOM_BYTES -> restamp = r.nextBoolean();
            default -> { }
        }
        if (p.length >= 20) {
            Ip4.src(p, r.nextInt(restamp ? peerOdds : 2) == 0 ? rig.ip(1 - side) : rig.strangerIp());
            if (kind != Kind.WRONG_DESTINATION) Ip4.dst(p, rig.ip(side));
            // a header checksum and a UDP checksum to match the addresses, unless breaking them is the point
            if (kind != Kind.IP_HEADER || r.nextBoolean()) Ip4.headerChecksum(p);
            if (p.length >= Ip4.BTH && kind != Kind.RANDOM_BYTES) Be.u16(MemorySegment.ofArray(p), Ip4.UDP + 6, 0);
        }
        return new Mutant(side, p, restamp, kind);
    }

    private Kind kind() {
        int x = r.nextInt(cumulative[cumulative.length - 1]);
        for (Kind k : Kind.values()) if (x < cumulative[k.ordinal()]) return k;
        throw new AssertionError();
    }

    /** A recent packet to {@code side} from its peer, copied; null before any was sent. */
    private byte[] genuineCopy(int side) {
        int n = Math.min(ringCount[side], RING);
        if (n == 0) return null;
        byte[] p = ring[side][r.nextInt(n)];
        return p == null || p.length < Ip4.MIN ? null : p.clone();
    }

    /** A packet the side itself sent, turned back at it: its own requests at its responder, its ACKs at its completer. */
    private byte[] reflected(int side) {
        byte[] p = genuineCopy(1 - side);
        if (p == null) return null;
        Ip4.dqpn(p, liveQpn(side));
        return p;
    }

    private int liveQpn(int side) {
        int[] q = targets.qpns(side);
        return q.length == 0 ? 2 + r.nextInt(1 << 10) : q[r.nextInt(q.length)];
    }

    private void lengthFields(byte[] p) {
        MemorySegment s = MemorySegment.ofArray(p);
        switch (r.nextInt(5)) {
            case 0 -> Be.u16(s, 2, r.nextInt(1 << 16));                       // IP total length
            case 1 -> Be.u16(s, Ip4.UDP + 4, r.nextInt(1 << 16));             // UDP length
            case 2 -> p[Ip4.BTH + 1] = (byte) ((p[Ip4.BTH + 1] & 0xcf) | (r.nextInt(4) << 4)); // pad count
            default -> {
                // a RETH's DMA length, where the opcode has one
                if (Opcode.of(Ip4.opcode(p)) instanceof Opcode op && op.has(HeaderKind.RETH) && p.length >= Ip4.EXT + 16 + 4) {
                    int[] lengths = {0, 1, -1, 1 << 31, 4096, (int) targets.regionLength(), (int) targets.regionLength() + 1, r.nextInt()};
                    Be.u32(s, Ip4.EXT + 12, lengths[r.nextInt(lengths.length)]);
                } else {
                    Be.u16(s, 2, p.length + (r.nextBoolean() ? 4 : -4));
                }
            }
        }
    }

    /** rkeys next to the real ones and addresses at the edges of the regions they open. */
    private void rkeyNear(byte[] p, int side) {
        Opcode op = Opcode.of(Ip4.opcode(p));
        if (op == null || !(op.has(HeaderKind.RETH) || op.has(HeaderKind.ATOMIC_ETH)) || p.length < Ip4.EXT + 16 + 4) {
            Ip4.psn(p, Ip4.psn(p) + PSN_DELTAS[r.nextInt(PSN_DELTAS.length)]);
            return;
        }
        MemorySegment s = MemorySegment.ofArray(p);
        long[] starts = targets.regionStarts(side);
        int[] rkeys = targets.rkeys(side);
        if (starts.length == 0) return;
        int i = r.nextInt(starts.length);
        long length = targets.regionLength();
        int dma = op.has(HeaderKind.RETH) ? Be.u32(s, Ip4.EXT + 12) : 8;
        long[] vas = {starts[i] - 1, starts[i] - 8, starts[i] - 4096, starts[i] + length - dma + 1, starts[i] + length - 8 + 4,
                starts[i] + length, starts[i] + length - 1, starts[i] + r.nextInt((int) length), -1L - r.nextInt(64)};
        int[] keyDeltas = {0, 0, 1, -1, 2, 0x100, -0x100, 0x80, r.nextInt()};
        int rkey = rkeys[r.nextInt(rkeys.length)] + keyDeltas[r.nextInt(keyDeltas.length)];
        long va = r.nextInt(3) == 0 ? Be.u64(s, Ip4.EXT) : vas[r.nextInt(vas.length)];
        Be.u64(s, Ip4.EXT, va);
        Be.u32(s, Ip4.EXT + 8, rkey);
    }

    private void ipHeader(byte[] p) {
        MemorySegment s = MemorySegment.ofArray(p);
        switch (r.nextInt(8)) {
            case 0 -> p[0] = (byte) (r.nextBoolean() ? 0x46 : r.nextInt(256));             // version, IHL
            case 1 -> p[9] = (byte) r.nextInt(256);                                          // protocol
            case 2 -> Be.u16(s, Ip4.UDP + 2, r.nextBoolean() ? 4790 : r.nextInt(1 << 16));  // UDP destination port
            case 3 -> Be.u16(s, 6, 0x2000 | r.nextInt(1 << 13));                             // a fragment
            case 4 -> p[8] = (byte) r.nextInt(256);                                          // TTL (masked)
            case 5 -> p[1] = (byte) r.nextInt(256);                                          // TOS (masked)
            case 6 -> Be.u16(s, 10, r.nextInt(1 << 16));                                     // checksum (masked)
            default -> Be.u16(s, 4, r.nextInt(1 << 16));                                     // identification
        }
    }

    /** A packet of a random opcode's layout with random fields, mostly at a live QP of {@code side}. */
    private byte[] layout(int side) {
        Opcode op = OPCODES[r.nextInt(OPCODES.length)];
        RocePacket pkt = RandomFrames.packet(r, op, 1100);
        byte[] p = encode(pkt);
        if (r.nextInt(4) != 0) Ip4.dqpn(p, liveQpn(side));
        if (r.nextInt(4) != 0) Be.u16(MemorySegment.ofArray(p), Ip4.BTH + 2, Bth.DEFAULT_PKEY);
        return p;
    }

    /** A MAD-sized UD SEND at the GSI QP, as the CM's packets are. */
    private byte[] qp1(int side) {
        byte[] mad = new byte[256];
        r.nextBytes(mad);
        mad[0] = 1;      // base version
        mad[1] = 7;      // management class: the CM
        mad[2] = 2;      // class version
        Bth bth = new Bth(Opcode.UD_SEND_ONLY, false, false, 0, 0, Bth.DEFAULT_PKEY, false, false, 1, false, r.nextInt(1 << 24));
        RocePacket pkt = new RocePacket(bth, null, new Deth(r.nextInt(4) == 0 ? r.nextInt() : Deth.GSI_QKEY, 1), null, null, null,
                null, null, null, null, mad, 0);
        return encode(pkt);
    }

    private byte[] cnp(int side) {
        RocePacket pkt = RandomFrames.packet(r, Opcode.CNP, 0);
        byte[] p = encode(pkt);
        Ip4.dqpn(p, liveQpn(side));
        return p;
    }

    /** A real rxe packet from a capture, at a live QP of {@code side} three times in four. */
    private byte[] capture(int side) {
        if (captures.isEmpty()) return null;
        byte[] p = captures.get(r.nextInt(captures.size())).clone();
        if (r.nextInt(4) != 0) Ip4.dqpn(p, liveQpn(side));
        return p;
    }

    private byte[] randomBytes() {
        byte[] p = new byte[r.nextInt(1200)];
        r.nextBytes(p);
        if (p.length >= Ip4.BTH && r.nextBoolean()) {
            // random bytes behind plausible IP and UDP headers reach the transport's parser
            p[0] = 0x45;
            p[9] = 17;
            Be.u16(MemorySegment.ofArray(p), Ip4.UDP + 2, Udp.ROCE_PORT);
            Ip4.lengths(p);
        }
        return p;
    }

    private byte[] encode(RocePacket pkt) {
        var ip = Ipv4.roce(Ipv4.addr(rig.strangerIp()), Ipv4.addr(rig.ip(0)), r.nextInt(1 << 16), 0, 0);
        return codec.encode(new RoceFrame(null, ip, Udp.roce(0xc000 | r.nextInt(1 << 14)), pkt, null));
    }

    /** The IPv4 RoCE packets in the captures under {@code dir} (Ethernet headers taken off). */
    static List<byte[]> captures(java.nio.file.Path dir) {
        List<byte[]> out = new ArrayList<>();
        if (dir == null || !java.nio.file.Files.isDirectory(dir)) return out;
        try (var files = java.nio.file.Files.list(dir)) {
            for (var f : files.filter(x -> x.toString().endsWith(".pcap")).sorted().toList()) {
                for (var frame : org.softrnic.wire.pcap.PcapReader.read(f)) {
                    byte[] d = frame.data();
                    int ip = d.length > 14 && (d[12] & 0xff) == 0x08 && d[13] == 0 ? 14 : -1;
                    if (ip < 0 || d.length < ip + Ip4.MIN || (d[ip] & 0xff) != 0x45 || d[ip + 9] != 17) continue;
                    if (Be.u16(MemorySegment.ofArray(d), ip + Ip4.UDP + 2) != Udp.ROCE_PORT) continue;
                    int total = Be.u16(MemorySegment.ofArray(d), ip + 2);
                    if (total < Ip4.MIN || ip + total > d.length) continue;
                    out.add(java.util.Arrays.copyOfRange(d, ip, ip + total));
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }
}
