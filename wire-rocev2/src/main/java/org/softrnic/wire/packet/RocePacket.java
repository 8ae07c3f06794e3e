package org.softrnic.wire.packet;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.softrnic.wire.Be;
import org.softrnic.wire.HeaderKind;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.AtomicAckEth;
import org.softrnic.wire.header.AtomicEth;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.header.Deth;
import org.softrnic.wire.header.Feth;
import org.softrnic.wire.header.Ieth;
import org.softrnic.wire.header.ImmDt;
import org.softrnic.wire.header.Rdeth;
import org.softrnic.wire.header.Reth;

/**
 * Immutable value of one RoCEv2 transport packet, for tests, the CLI and JSON. An extended header is
 * non-null exactly when the BTH opcode carries it; the constructor enforces that.
 */
public record RocePacket(Bth bth, Rdeth rdeth, Deth deth, Feth feth, Reth reth, AtomicEth atomicEth, Aeth aeth,
                         AtomicAckEth atomicAckEth, ImmDt immDt, Ieth ieth, byte[] payload, int icrc) {
    public RocePacket {
        Objects.requireNonNull(bth, "bth");
        Opcode op = bth.opcode();
        present(op, HeaderKind.RDETH, rdeth);
        present(op, HeaderKind.DETH, deth);
        present(op, HeaderKind.FETH, feth);
        present(op, HeaderKind.RETH, reth);
        present(op, HeaderKind.ATOMIC_ETH, atomicEth);
        present(op, HeaderKind.AETH, aeth);
        present(op, HeaderKind.ATOMIC_ACK_ETH, atomicAckEth);
        present(op, HeaderKind.IMMDT, immDt);
        present(op, HeaderKind.IETH, ieth);
        payload = payload == null ? new byte[0] : payload.clone();
        if (!op.payload && payload.length != 0) {
            throw new IllegalArgumentException(op + " carries no payload");
        }
        if (!op.payload && bth.pad() != 0) {
            throw new IllegalArgumentException(op + " carries no payload, so its pad count must be 0");
        }
    }

    private static void present(Opcode op, HeaderKind kind, Object header) {
        if (op.has(kind) != (header != null)) {
            throw new IllegalArgumentException(op + (op.has(kind) ? " needs " : " has no ") + kind);
        }
    }

    /** Pad count that brings this payload length to a multiple of four. */
    public static int padFor(int payloadLength) {
        return -payloadLength & 3;
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    public int payloadLength() {
        return payload.length;
    }

    public Opcode opcode() {
        return bth.opcode();
    }

    /** BTH through ICRC. */
    public int encodedLength() {
        return bth.opcode().headerLength + payload.length + bth.pad() + Opcode.ICRC_BYTES;
    }

    /** Reads a packet that {@code v} has validated. */
    public static RocePacket read(RocePacketView v) {
        Opcode op = v.opcode();
        byte[] payload = new byte[v.payloadLength()];
        MemorySegment.copy(v.segment(), v.payloadOffset(), MemorySegment.ofArray(payload), 0, payload.length);
        return new RocePacket(Bth.read(v.bth()),
                op.has(HeaderKind.RDETH) ? Rdeth.read(v.rdeth()) : null,
                op.has(HeaderKind.DETH) ? Deth.read(v.deth()) : null,
                op.has(HeaderKind.FETH) ? Feth.read(v.feth()) : null,
                op.has(HeaderKind.RETH) ? Reth.read(v.reth()) : null,
                op.has(HeaderKind.ATOMIC_ETH) ? AtomicEth.read(v.atomicEth()) : null,
                op.has(HeaderKind.AETH) ? Aeth.read(v.aeth()) : null,
                op.has(HeaderKind.ATOMIC_ACK_ETH) ? AtomicAckEth.read(v.atomicAckEth()) : null,
                op.has(HeaderKind.IMMDT) ? ImmDt.read(v.immDt()) : null,
                op.has(HeaderKind.IETH) ? Ieth.read(v.ieth()) : null,
                payload, v.icrc());
    }

    /**
     * Writes BTH through ICRC at {@code off} and returns the length written. The ICRC field gets this
     * record's {@link #icrc()}; framing code recomputes it once the IP and UDP headers are in place.
     */
    public int write(MemorySegment seg, long off) {
        Opcode op = bth.opcode();
        int length = encodedLength();
        Objects.checkFromIndexSize(off, length, seg.byteSize());
        HeaderViews v = new HeaderViews();
        v.point(seg, off, op);
        bth.write(v.bth());
        if (rdeth != null) rdeth.write(v.rdeth());
        if (deth != null) deth.write(v.deth());
        if (feth != null) feth.write(v.feth());
        if (reth != null) reth.write(v.reth());
        if (atomicEth != null) atomicEth.write(v.atomicEth());
        if (aeth != null) aeth.write(v.aeth());
        if (atomicAckEth != null) atomicAckEth.write(v.atomicAckEth());
        if (immDt != null) immDt.write(v.immDt());
        if (ieth != null) ieth.write(v.ieth());
        if (op.has(HeaderKind.CNP_PAD)) {
            seg.asSlice(off + op.offsetOf(HeaderKind.CNP_PAD), HeaderKind.CNP_PAD.length).fill((byte) 0);
        }
        long p = off + op.headerLength;
        MemorySegment.copy(MemorySegment.ofArray(payload), 0, seg, p, payload.length);
        seg.asSlice(p + payload.length, bth.pad()).fill((byte) 0);
        Be.u32le(seg, off + length - Opcode.ICRC_BYTES, icrc);
        return length;
    }

    /** The same packet with another ICRC value. */
    public RocePacket withIcrc(int newIcrc) {
        return new RocePacket(bth, rdeth, deth, feth, reth, atomicEth, aeth, atomicAckEth, immDt, ieth, payload, newIcrc);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RocePacket p && bth.equals(p.bth) && Objects.equals(rdeth, p.rdeth)
                && Objects.equals(deth, p.deth) && Objects.equals(feth, p.feth) && Objects.equals(reth, p.reth)
                && Objects.equals(atomicEth, p.atomicEth) && Objects.equals(aeth, p.aeth)
                && Objects.equals(atomicAckEth, p.atomicAckEth) && Objects.equals(immDt, p.immDt)
                && Objects.equals(ieth, p.ieth) && Arrays.equals(payload, p.payload) && icrc == p.icrc;
    }

    @Override
    public int hashCode() {
        return Objects.hash(bth, rdeth, deth, feth, reth, atomicEth, aeth, atomicAckEth, immDt, ieth,
                Arrays.hashCode(payload), icrc);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("RocePacket[").append(bth);
        for (Object h : new Object[] {rdeth, deth, feth, reth, atomicEth, aeth, atomicAckEth, immDt, ieth}) {
            if (h != null) sb.append(", ").append(h);
        }
        String hex = HexFormat.of().formatHex(payload, 0, Math.min(payload.length, 16));
        return sb.append(", payload=").append(payload.length).append("B ").append(hex)
                .append(payload.length > 16 ? "..." : "").append(", icrc=0x")
                .append(Integer.toHexString(icrc)).append(']').toString();
    }
}
