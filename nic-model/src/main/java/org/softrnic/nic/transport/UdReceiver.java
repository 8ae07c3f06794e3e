package org.softrnic.nic.transport;

import java.lang.foreign.MemorySegment;
import org.softrnic.nic.Counter;
import org.softrnic.nic.mem.MemoryGone;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWqe;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.packet.RocePacketView;

/** UD receives: the Q_Key check, one receive WQE per datagram, and the 40-byte GRH area in front of the payload. */
final class UdReceiver {
    /** rdma-core puts a 40-byte GRH area in front of every UD receive. */
    static final int GRH_BYTES = 40;

    private final Engine engine;
    private final RecvWqes recvWqes;
    /** Made on the first UD receive, from the device's arena. */
    private MemorySegment grh;

    UdReceiver(Engine engine, RecvWqes recvWqes) {
        this.engine = engine;
        this.recvWqes = recvWqes;
    }

    void receive(PacketInfo pkt) {
        QpContext c = pkt.ctx();
        QueuePair qp = c.qp;
        RocePacketView p = pkt.p;
        int qkey = p.deth().qkey();
        // QP1 takes the GSI Q_Key whatever its attributes say, as rxe's check_keys
        int expected = qp.qpn() == org.softrnic.nic.Nic.GSI_QPN ? org.softrnic.nic.Nic.GSI_QKEY : qp.attr().qkey;
        if (qkey != expected) {
            engine.counters.inc(Counter.DROP_BAD_QKEY);
            engine.refuse(qp, pkt.psn, String.format("a UD datagram with Q_Key 0x%x; the QP's Q_Key is 0x%x (dropped)", qkey, expected));
            return;
        }
        RecvWqe w = recvWqes.take(c);
        if (w == null) {
            engine.counters.inc(Counter.DROP_UD_NO_RECV);
            return;
        }
        int len = pkt.len;
        WcStatus status = WcStatus.SUCCESS;
        if (Sges.resolve(engine.keys, engine.odp, qp.pd(), w, Access.LOCAL_WRITE) != null) {
            status = WcStatus.LOC_PROT_ERR;
            engine.refuse(qp.qpn(), pkt.psn, String.format("a UD datagram lands in receive wr_id %d, which completes with %s: %s",
                    w.wrId, status.ibvName(), Sges.explain(engine.keys, qp.pd(), w, Access.LOCAL_WRITE, qp.qpn())));
        } else if (GRH_BYTES + (long) len > w.length) {
            status = WcStatus.LOC_LEN_ERR;
        } else {
            if (grh == null) grh = engine.arena.allocate(GRH_BYTES);
            grh.fill((byte) 0);
            // an IPv4 header sits in the GRH area's last 20 bytes, an IPv6 header fills it
            if (pkt.frame.ipVersion() == 4) {
                MemorySegment.copy(pkt.frame.buffer().segment, pkt.frame.ipOffset(), grh, 20, 20);
            } else {
                MemorySegment.copy(pkt.frame.buffer().segment, pkt.frame.ipOffset(), grh, 0, 40);
            }
            try {
                Sges.scatter(w, 0, grh, 0, GRH_BYTES);
                Sges.scatter(w, GRH_BYTES, p.segment(), p.payloadOffset(), len);
            } catch (MemoryGone g) {
                status = WcStatus.LOC_PROT_ERR; // an arena closed by another thread as the datagram was placed
                engine.refuse(qp.qpn(), pkt.psn, String.format("a UD datagram lands in receive wr_id %d: %s", w.wrId, g.why()));
            }
        }
        int flags = WorkCompletion.WC_GRH;
        int imm = 0;
        if (pkt.op.hasImmediate()) {
            flags |= WorkCompletion.WC_WITH_IMM;
            imm = p.immDt().value();
        }
        long wrId = w.wrId;
        recvWqes.release(c);
        engine.completions.recv(c, wrId, status, WcOpcode.RECV, status == WcStatus.SUCCESS ? GRH_BYTES + len : 0, imm, flags,
                p.deth().sqpn(), p.bth().se());
    }
}
