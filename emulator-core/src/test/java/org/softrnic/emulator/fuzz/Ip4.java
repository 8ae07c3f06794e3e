package org.softrnic.emulator.fuzz;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.Checksum;
import org.softrnic.wire.icrc.Icrc;
import org.softrnic.wire.icrc.Ipv4IdSolver;

/** Field offsets and edits of the fuzzer's packets: IPv4 without options, UDP, then the BTH. */
final class Ip4 {
    static final int UDP = 20;
    static final int BTH = 28;
    /** The first extended header of an RC packet. */
    static final int EXT = BTH + 12;
    /** The shortest packet with a BTH and an ICRC. */
    static final int MIN = BTH + 12 + 4;

    private final Icrc icrc = new Icrc();

    static int src(byte[] p) { return Be.u32(MemorySegment.ofArray(p), 12); }
    static int dst(byte[] p) { return Be.u32(MemorySegment.ofArray(p), 16); }
    static void src(byte[] p, int a) { Be.u32(MemorySegment.ofArray(p), 12, a); }
    static void dst(byte[] p, int a) { Be.u32(MemorySegment.ofArray(p), 16, a); }
    static int opcode(byte[] p) { return p[BTH] & 0xff; }
    static int dqpn(byte[] p) { return Be.u32(MemorySegment.ofArray(p), BTH + 4) & 0xffffff; }
    static int psn(byte[] p) { return Be.u32(MemorySegment.ofArray(p), BTH + 8) & 0xffffff; }
    static int pkey(byte[] p) { return Be.u16(MemorySegment.ofArray(p), BTH + 2); }

    /** The rkey of a request's RETH or AtomicETH, or 0 when the opcode has neither (or the packet is too short). */
    static int rkey(byte[] p) {
        org.softrnic.wire.Opcode op = org.softrnic.wire.Opcode.of(opcode(p));
        if (op == null || p.length < EXT + 12 + 4) return 0;
        if (!op.has(org.softrnic.wire.HeaderKind.RETH) && !op.has(org.softrnic.wire.HeaderKind.ATOMIC_ETH)) return 0;
        if (op.has(org.softrnic.wire.HeaderKind.FETH)) return 0; // FLUSH: the RETH follows the FETH
        return Be.u32(MemorySegment.ofArray(p), EXT + 8);
    }

    static void dqpn(byte[] p, int qpn) {
        MemorySegment s = MemorySegment.ofArray(p);
        Be.u32(s, BTH + 4, (Be.u32(s, BTH + 4) & 0xff000000) | (qpn & 0xffffff));
    }

    static void psn(byte[] p, int psn) {
        MemorySegment s = MemorySegment.ofArray(p);
        Be.u32(s, BTH + 8, (Be.u32(s, BTH + 8) & 0xff000000) | (psn & 0xffffff));
    }

    /** Makes the IP total length and the UDP length match the packet's size. */
    static void lengths(byte[] p) {
        MemorySegment s = MemorySegment.ofArray(p);
        Be.u16(s, 2, p.length);
        Be.u16(s, UDP + 4, p.length - UDP);
    }

    /** Rewrites the IPv4 header checksum for the header as it stands. */
    static void headerChecksum(byte[] p) {
        MemorySegment s = MemorySegment.ofArray(p);
        Be.u16(s, 10, 0);
        Be.u16(s, 10, Checksum.finish(Checksum.add(0, s, 0, 20)));
    }

    /** Writes a valid ICRC for the headers as they stand. */
    void stamp(byte[] p) {
        icrc.stamp(PacketBuffer.wrap(p), 0, 4, BTH, p.length - BTH);
    }

    /** Whether the ICRC is valid for the headers as they stand; {@code idHidden}: for some IPv4 identification. */
    boolean valid(byte[] p, boolean idHidden) {
        if (p.length < MIN) return false;
        int received = Be.u32le(MemorySegment.ofArray(p), p.length - 4);
        int computed = icrc.compute(PacketBuffer.wrap(p), 0, 4, BTH, p.length - BTH);
        if (computed == received) return true;
        if (!idHidden) return false;
        // what the receiver does: the identification the socket hid may explain the difference
        MemorySegment s = MemorySegment.ofArray(p);
        int id = Be.u16(s, 4);
        Be.u16(s, 4, 0);
        int withZero = icrc.compute(PacketBuffer.wrap(p), 0, 4, BTH, p.length - BTH);
        Be.u16(s, 4, id);
        return Ipv4IdSolver.identification(withZero ^ received, p.length) >= 0;
    }
}
