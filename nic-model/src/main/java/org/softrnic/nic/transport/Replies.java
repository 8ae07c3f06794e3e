package org.softrnic.nic.transport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.softrnic.nic.Counter;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.verbs.Access;
import org.softrnic.wire.OpClass;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.Position;
import org.softrnic.wire.Transport;
import org.softrnic.wire.frame.FrameWriter;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.packet.RocePacketView;

/**
 * What the responder sends back (rxe's send_ack, read_reply, atomic_reply and duplicate_request): ACKs and
 * NAKs, READ responses from memory, atomics against their saved results, and the answers to duplicates,
 * which are never executed twice.
 */
final class Replies {
    private static final ValueLayout.OfLong HOST_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Engine engine;
    private final RkeyCheck rkeys;

    Replies(Engine engine, RkeyCheck rkeys) {
        this.engine = engine;
        this.rkeys = rkeys;
    }

    void ack(RespLine c, int syndrome, int ackPsn) {
        FrameWriter w = engine.begin(c, c.template(), Opcode.RC_ACKNOWLEDGE, c.destQpn(), ackPsn);
        w.aeth().syndrome(syndrome).msn(c.respMsn());
        engine.transmit(0);
    }

    /** READ_REPLY: the whole READ answered from memory, its range kept for a re-issued READ. */
    Responder.State read(PacketInfo pkt) {
        QpContext c = pkt.ctx();
        RocePacketView p = pkt.p;
        long va = p.reth().va();
        long length = Integer.toUnsignedLong(p.reth().dlen());
        ReadAtomicResource r = c.resp.nextResource();
        r.kind = ReadAtomicResource.Kind.READ;
        r.firstPsn = pkt.psn;
        r.rkey = p.reth().rkey();
        r.va = va;
        r.length = length;
        c.respMsn((c.respMsn() + 1) & 0xffffff);
        int packets = readResponses(c, pkt.mr, va, length, pkt.psn, true);
        r.lastPsn = Psn.add(pkt.psn, packets - 1);
        c.respPsn(Psn.add(pkt.psn, packets));
        c.respLastOpcode(pkt.op);
        return Responder.State.DONE;
    }

    /**
     * Sends the READ response packets for {@code length} bytes at {@code va}, the first one with PSN {@code first},
     * each with the current MSN. A replay from inside the READ ({@code startsMessage} false) goes on with MIDDLE
     * and LAST, as rxe's read_reply does in its replay state: an rxe requester takes FIRST only at the READ's
     * first PSN.
     */
    private int readResponses(RespLine c, MemoryRegion region, long va, long length, int first, boolean startsMessage) {
        int mtu = c.mtuBytes();
        int packets = (int) Math.max(1, (length + mtu - 1) / mtu);
        for (int i = 0; i < packets; i++) {
            Position pos = Opcodes.position(i == 0 && startsMessage, i == packets - 1);
            Opcode rop = Opcodes.cached(Transport.RC, OpClass.RDMA_READ_RESPONSE, pos, false, false);
            FrameWriter w = engine.begin(c, c.template(), rop, c.destQpn(), Psn.add(first, i));
            if (rop.hasAeth()) w.aeth().syndrome(Aeth.ACK_CREDITS_INVALID).msn(c.respMsn());
            int chunk = (int) Math.min(mtu, length - (long) i * mtu);
            if (chunk > 0) {
                region.read(region.offsetOf(va + (long) i * mtu), w.payloadSegment(), w.payloadOffset(), chunk, -1);
            }
            engine.transmit(chunk);
        }
        return packets;
    }

    /** ATOMIC_REPLY: the 8 bytes changed at once, the original kept to answer a duplicate. */
    Responder.State atomic(PacketInfo pkt) {
        QpContext c = pkt.ctx();
        RocePacketView p = pkt.p;
        MemoryRegion mr = pkt.mr;
        long at = mr.offsetOf(p.atomicEth().va());
        // atomics act on the 8 bytes in host (little-endian) order, as on an x86 host
        long original = mr.getLong(HOST_LONG, at);
        long updated = pkt.op == Opcode.RC_COMPARE_SWAP
                ? (original == p.atomicEth().compare() ? p.atomicEth().swapAdd() : original)
                : original + p.atomicEth().swapAdd();
        mr.setLong(HOST_LONG, at, updated);
        c.respMsn((c.respMsn() + 1) & 0xffffff);
        ReadAtomicResource r = c.resp.nextResource();
        r.kind = ReadAtomicResource.Kind.ATOMIC;
        r.firstPsn = pkt.psn;
        r.lastPsn = pkt.psn;
        r.original = original;
        r.msn = c.respMsn();
        atomicAck(c, pkt.psn, original, c.respMsn());
        executed(pkt);
        return Responder.State.DONE;
    }

    /** ATOMIC WRITE and FLUSH, executed: answered by a READ RESPONSE carrying an ACK, kept for a duplicate. */
    Responder.State placed(PacketInfo pkt) {
        QpContext c = pkt.ctx();
        c.respMsn((c.respMsn() + 1) & 0xffffff);
        ReadAtomicResource r = c.resp.nextResource();
        r.kind = ReadAtomicResource.Kind.REPLAY_ACK;
        r.firstPsn = pkt.psn;
        r.lastPsn = pkt.psn;
        r.msn = c.respMsn();
        readResponseAck(c, pkt.psn, c.respMsn());
        executed(pkt);
        return Responder.State.DONE;
    }

    /** A one-packet request that has a response is done: the next PSN is expected. */
    private static void executed(PacketInfo pkt) {
        RespLine c = pkt.r;
        c.respPsn(Psn.add(pkt.psn, 1));
        c.respAckPsn(c.respPsn());
        c.respLastOpcode(pkt.op);
    }

    private void atomicAck(RespLine c, int ackPsn, long original, int msn) {
        FrameWriter w = engine.begin(c, c.template(), Opcode.RC_ATOMIC_ACKNOWLEDGE, c.destQpn(), ackPsn);
        w.aeth().syndrome(Aeth.ACK_CREDITS_INVALID).msn(msn);
        w.atomicAckEth().orig(original);
        engine.transmit(0);
    }

    /** The answer to FLUSH and ATOMIC_WRITE: a zero-length RDMA READ RESPONSE ONLY carrying an ACK. */
    private void readResponseAck(RespLine c, int ackPsn, int msn) {
        FrameWriter w = engine.begin(c, c.template(), Opcode.RC_RDMA_READ_RESPONSE_ONLY, c.destQpn(), ackPsn);
        w.aeth().syndrome(Aeth.ACK_CREDITS_INVALID).msn(msn);
        engine.transmit(0);
    }

    /**
     * DUPLICATE_REQUEST, a request the responder has already executed (IBTA 9.9.1.1.1): SEND and WRITE are
     * acknowledged again; a READ is answered again from memory; an atomic is answered from its saved result,
     * never re-executed.
     */
    Responder.State duplicate(PacketInfo pkt) {
        RespLine c = pkt.r;
        engine.counters.inc(Counter.DUPLICATE_REQUEST);
        switch (pkt.op.opClass) {
            // C9-105: acknowledged again, with the PSN of the last SEND/WRITE/atomic done, never a READ's
            case SEND, RDMA_WRITE -> ack(c, Aeth.ACK_CREDITS_INVALID, Psn.add(c.respAckPsn(), -1));
            case RDMA_READ_REQUEST -> {
                return duplicateRead(pkt);
            }
            case ATOMIC -> {
                ReadAtomicResource r = saved(pkt.ctx(), ReadAtomicResource.Kind.ATOMIC, pkt.psn);
                if (r != null) atomicAck(c, pkt.psn, r.original, r.msn);
            }
            case ATOMIC_WRITE, FLUSH -> {
                ReadAtomicResource r = saved(pkt.ctx(), ReadAtomicResource.Kind.REPLAY_ACK, pkt.psn);
                if (r != null) readResponseAck(c, pkt.psn, r.msn); // not executed again
            }
            default -> { }
        }
        return Responder.State.DONE;
    }

    private static ReadAtomicResource saved(QpContext c, ReadAtomicResource.Kind kind, int psn) {
        for (ReadAtomicResource r : c.resp.resources) if (r != null && r.kind == kind && r.firstPsn == psn) return r;
        return null;
    }

    /**
     * A READ re-issued from the packet's PSN, which lies in a READ already answered (rxe duplicate_request): it
     * must name the same rkey and lie inside the original range, else it is dropped; the key is checked again
     * (rxe_recheck_mr), so a region deregistered or invalidated since gives a remote access error.
     */
    private Responder.State duplicateRead(PacketInfo pkt) {
        QpContext c = pkt.ctx();
        RocePacketView p = pkt.p;
        int psn = pkt.psn;
        for (ReadAtomicResource r : c.resp.resources) {
            if (r == null || r.kind != ReadAtomicResource.Kind.READ || Psn.diff(psn, r.firstPsn) < 0 || Psn.diff(psn, r.lastPsn) > 0) {
                continue;
            }
            long va = p.reth().va();
            long length = Integer.toUnsignedLong(p.reth().dlen());
            if (p.reth().rkey() != r.rkey || !MemoryRegion.inBounds(r.va, r.length, va, length)) {
                engine.counters.inc(Counter.DROP_BAD_DUPLICATE);
                return Responder.State.DONE;
            }
            // a zero-length READ carried no key to check the first time (check_rkey), so its replay checks none
            // either (rxe's read_reply replays it without rxe_recheck_mr)
            MemoryRegion region = length == 0 ? null : rkeys.resolve(pkt, r.rkey, Access.REMOTE_READ, va, length);
            if (region == null && length != 0) return Responder.State.ERR_RKEY_VIOLATION;
            readResponses(c, region, va, length, psn, psn == r.firstPsn);
            return Responder.State.DONE;
        }
        return Responder.State.DONE; // its resource was recycled: nothing to answer from (rxe drops it too)
    }
}
