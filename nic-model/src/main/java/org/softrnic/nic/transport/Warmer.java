package org.softrnic.nic.transport;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.Be;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.PacketBuffer;

/**
 * Loads the QP state a burst of received packets will need before any of them is handled, as packet
 * processors that serve many flows (DPDK, VPP) prefetch their flow contexts. With thousands of QPs taking
 * turns each QP's state has left the cache since its last packet; handled one by one, a packet waits for one
 * miss after another (context or record, then the QP). Here the loads of the whole burst are independent
 * of each other, so the core overlaps their misses. It changes nothing: it only reads.
 */
final class Warmer {
    /** The most packets warmed at once: their state must still be in the core's own cache when handled. */
    static final int BURST = 64;
    /** A response's QP context (the completer's), or for a request null and its QP's record slot (the responder's). */
    private final QpContext[] found = new QpContext[BURST];
    private final int[] slots = new int[BURST];
    /** Reads the records of the requests' QPs. */
    private final RespLine.Cursor line;
    /** What the loads read, kept so that the compiler cannot drop them. */
    private int sink;

    Warmer(RespLine.Cursor cursor) {
        this.line = cursor;
    }

    /**
     * Warms the state of the QPs packets {@code from} to {@code from + n} go to (the first {@link #BURST} of them);
     * {@code lookup} finds a QP's record slot and its context by QPN. A packet outside its buffer or too short to hold a BTH is
     * skipped, and one for no QP finds none: receiving it proper rejects it.
     */
    void warm(PacketBuffer[] buffers, int[] offsets, int[] lengths, int from, int n, Engine lookup) {
        int s = 0;
        int k = 0;
        for (int i = from, end = from + Math.min(n, BURST); i < end; i++) {
            int bth = bth(buffers[i].segment, offsets[i], lengths[i]);
            if (bth < 0) continue;
            int qpn = Be.u24(buffers[i].segment, (long) offsets[i] + bth + 5);
            Opcode op = Opcode.of(Be.u8(buffers[i].segment, (long) offsets[i] + bth));
            if (op == null || op.isRequest()) {
                int slot = lookup.slot(qpn);
                if (slot < 0) continue;
                // all but a WRITE go on to the context (a SEND's receive WQE, a READ's resources): its line too
                if (op != null && op.opClass != org.softrnic.wire.OpClass.RDMA_WRITE) {
                    QpContext c = lookup.context(qpn);
                    if (c != null) s += c.txCounted;
                }
                slots[k++] = slot;
            } else {
                QpContext c = lookup.context(qpn);
                if (c == null) continue;
                s += c.txCounted; // the context's own line
                found[k++] = c;
            }
        }
        // the second level in a pass of its own: each load depends only on a line the first pass brought in. A
        // request needs its QP's record, a response the requester's and completer's state and the address in the
        // record: the others stay out.
        for (int i = 0; i < k; i++) {
            QpContext c = found[i];
            s += c == null ? responderLines(line.at(slots[i])) : c.peerIpv4() + c.qp.destQpn() + c.qp.rnrRetry() + c.reqPsn + c.compPsn;
            found[i] = null;
        }
        sink += s;
    }

    /**
     * What the responder reads of a request's QP: its record ({@link QpLines}), whose 64 bytes lie on one line or
     * two (a load at each end brings it in), and the record's PD (the headers are shared along a path, and warm).
     */
    private static int responderLines(RespLine r) {
        return r.respPsn() + r.qpType().ordinal() + (r.pd() == null ? 1 : 0);
    }

    /**
     * Where the BTH of the RoCEv2 packet at {@code offset} starts, from the packet (IPv4 by its header length,
     * anything else read as IPv6), or -1 if the packet does not lie inside its buffer or is too short to have one.
     */
    private static int bth(MemorySegment s, int offset, int length) {
        if (offset < 0 || length < 20 || length > s.byteSize() - offset) return -1;
        int first = Be.u8(s, offset);
        int ipHeader = (first >>> 4) == 4 ? (first & 0xf) * 4 : 40;
        int bth = ipHeader + 8; // UDP
        return length < bth + 12 ? -1 : bth;
    }
}
