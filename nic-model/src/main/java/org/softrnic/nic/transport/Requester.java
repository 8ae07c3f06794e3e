package org.softrnic.nic.transport;

import org.softrnic.nic.Diagnostics;
import org.softrnic.nic.mem.AccessError;
import org.softrnic.nic.mem.MemoryGone;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.SendWqe;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.OpClass;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.Position;
import org.softrnic.wire.Transport;
import org.softrnic.wire.frame.FrameTemplate;
import org.softrnic.wire.frame.FrameWriter;

/**
 * The requester (rxe_req.c): turns send-queue WQEs into request packets, one MTU at a time, with PSNs,
 * AckReq, the max_rd_atomic limit, fences and the unacknowledged-PSN window. Retransmission restarts it
 * from an earlier PSN through {@link #rewind}.
 */
final class Requester {
    /** Why the requester stopped (rxe's named exits): for tests and traces. */
    enum Stop { NOT_RTS, QUEUE_EMPTY, FENCE, RD_ATOMIC_LIMIT, WINDOW_FULL, DEVICE_WINDOW, RNR_WAIT, LOCAL_WAIT, ERROR, DRAINING,
        /** The port's gate is shut, or the reaction point's rate has not earned the next packet yet. */
        HELD,
        /** The WQE's own buffers lie on pages of an ODP region being faulted in: a timer wakes the QP when they are mapped. */
        PAGE_FAULT }

    private final Engine engine;

    Requester(Engine engine) {
        this.engine = engine;
    }

    Stop run(QpContext c) {
        QueuePair qp = c.qp;
        while (true) {
            QpState state = qp.state();
            if (state == QpState.SQD) {
                // draining: only what was started before SQD is finished, retransmissions included
                if (c.reqIndex >= c.reqStarted) {
                    drained(c);
                    return Stop.DRAINING;
                }
            } else if (state != QpState.RTS) {
                return Stop.NOT_RTS;
            }
            if (c.rnrDeadline() != QpContext.NEVER) return Stop.RNR_WAIT;
            if (c.reqIndex >= qp.sq().size()) return Stop.QUEUE_EMPTY;
            SendWqe w = qp.sq().get(c.reqIndex);
            if (w.state == SendWqe.State.ERROR) return Stop.ERROR; // failed locally; the completer reports it in order
            if (w.opcode.isLocal()) {
                // executed in order: once everything posted before it has completed
                if (c.reqIndex != 0) return Stop.LOCAL_WAIT;
                local(c, w);
                continue;
            }
            boolean rc = qp.type() == QpType.RC;
            if (w.state == SendWqe.State.POSTED) {
                if (rc && (w.sendFlags & SendFlags.FENCE) != 0 && c.outstandingReadAtomic > 0) return Stop.FENCE;
                // max_rd_atomic 0 lets none out, as rxe's rd_atomic count does (the request waits for ever)
                if (rc && w.opcode.needsResponse() && c.outstandingReadAtomic >= qp.maxRdAtomic()) {
                    return Stop.RD_ATOMIC_LIMIT;
                }
                // the device's window admits whole messages: a message half sent would hold its share with no ACK to come
                if (rc && !engine.txWindow.allows(c)) return Stop.DEVICE_WINDOW;
                if (!start(c, w)) return Stop.ERROR;
            }
            // rxe sends while req.psn <= comp.psn + RXE_MAX_UNACKED_PSNS
            if (rc && Psn.diff(c.reqPsn, c.compPsn) > engine.maxUnackedPsns) return Stop.WINDOW_FULL;
            if (w.sent == 0 && !w.isInline && pageFault(c, w)) return Stop.PAGE_FAULT;
            if (engine.congestion.holds(c)) return Stop.HELD;
            engine.lastTxLength = 0;
            sendPacket(c, w);
            if (engine.lastTxLength > 0) engine.congestion.sent(c, engine.lastTxLength);
            if (rc) engine.txWindow.recount(c); // the next QP's admission sees this packet
        }
    }

    /**
     * Whether the message must wait for its own buffers: the gather list of a SEND or WRITE, the scatter list of a
     * READ or atomic, on ODP pages not mapped yet. As mlx5's requester fault handler does, the whole list is faulted
     * in before the first packet; a timer wakes the QP when it is mapped.
     */
    private boolean pageFault(QpContext c, SendWqe w) {
        if (c.faultDeadline() != QpContext.NEVER && c.faultDeadline() > engine.now()) return true;
        long ready = engine.odp.ready(w, 0, w.length, c.qp.qpn(), "the requester's", w.opcode);
        if (ready == 0) return false;
        c.faultAt(ready);
        return true;
    }

    /** BIND_MW and LOCAL_INV act on this device's keys only and complete at once. */
    private void local(QpContext c, SendWqe w) {
        QueuePair qp = c.qp;
        if (w.opcode == SendOpcode.BIND_MW) {
            SendWqe.Rare b = w.rare;
            MemoryWindow mw = b.window;
            String bad = mw.bindError(b.windowRegion, b.bindAddr, b.bindLength, b.bindAccess, qp.pd());
            int old = mw.rkey();
            if (bad == null && b.bindRkey != old && !engine.keys.rkeyFree(b.bindRkey)) bad = "the new rkey is in use";
            if (bad != null) {
                engine.completions.send(c, w, WcStatus.MW_BIND_ERR);
                engine.completions.sendQueueError(c, null);
                return;
            }
            mw.bind(b.windowRegion, b.bindAddr, b.bindLength, b.bindAccess, b.bindRkey, qp.qpn());
            if (b.bindRkey != old) engine.keys.rekeyWindow(mw, old);
            engine.completions.send(c, w, WcStatus.SUCCESS);
            return;
        }
        if (w.opcode == SendOpcode.REG_MR) {
            regMr(c, w);
            return;
        }
        // LOCAL_INV: a fast-register region, or a type 2 window bound through this QP
        MemoryRegion mr = engine.keys.byLkey(w.invalidateRkey);
        if (mr != null && mr.isFastReg() && mr.pd() == qp.pd() && mr.boundWindows() > 0) {
            // a region with windows bound to it stays mapped (rxe: -EINVAL), or the windows would reach its next mapping
            engine.completions.send(c, w, WcStatus.LOC_QP_OP_ERR);
            engine.completions.sendQueueError(c, null);
            return;
        }
        if (mr != null && mr.isFastReg() && mr.pd() == qp.pd()) {
            mr.invalidate();
            engine.completions.send(c, w, WcStatus.SUCCESS);
            return;
        }
        MemoryWindow mw = engine.keys.windowByRkey(w.invalidateRkey);
        if (mw == null || mw.type() != 2 || mw.boundQpn() != qp.qpn()) {
            engine.completions.send(c, w, WcStatus.LOC_QP_OP_ERR);
            engine.completions.sendQueueError(c, null);
            return;
        }
        mw.invalidate();
        engine.completions.send(c, w, WcStatus.SUCCESS);
    }

    /** Fast-register: an invalid fast-register region of this PD takes the memory, address, access and key. */
    private void regMr(QpContext c, SendWqe w) {
        SendWqe.Rare r = w.rare;
        MemoryRegion mr = r.fastReg;
        int oldLkey = mr.lkey();
        int oldRkey = mr.rkey();
        boolean keyFree = r.regKey == oldLkey || engine.keys.rkeyFree(r.regKey);
        if (mr.valid() || mr.pd() != c.qp.pd() || r.regSegment.byteSize() > mr.maxLength()
                || Access.invalidReason(r.regAccess) != null || !keyFree) {
            engine.completions.send(c, w, WcStatus.LOC_PROT_ERR);
            engine.completions.sendQueueError(c, null);
            return;
        }
        mr.map(r.regSegment, r.regIova, r.regAccess, r.regKey);
        engine.keys.rekey(mr, oldLkey, oldRkey);
        engine.completions.send(c, w, WcStatus.SUCCESS);
    }

    /** First touch of a WQE: check its local buffers and give it its first PSN. */
    private boolean start(QpContext c, SendWqe w) {
        QueuePair qp = c.qp;
        if (!w.isInline) {
            int needed = w.opcode == SendOpcode.RDMA_READ || w.opcode.isAtomic() ? Access.LOCAL_WRITE : 0;
            AccessError e = Sges.resolve(engine.keys, engine.odp, qp.pd(), w, needed);
            if (e != null) {
                failLocal(c, w, WcStatus.LOC_PROT_ERR, Sges.explain(engine.keys, qp.pd(), w, needed, qp.qpn())
                        + "; no packet of it was sent");
                return false;
            }
        }
        if (w.opcode.isAtomic() && w.length != 8) {
            fail(c, w, WcStatus.LOC_LEN_ERR);
            return false;
        }
        w.firstPsn = c.reqPsn;
        if (c.reqIndex >= c.reqStarted) c.reqStarted = c.reqIndex + 1;
        w.sent = 0;
        w.received = 0;
        w.state = SendWqe.State.PROCESSING;
        return true;
    }

    /**
     * A local error on the WQE (IBTA 10.8.3.1): reported by its completion alone, with no async event. WQEs
     * before it that await their acknowledgement complete first, as their ACKs come (rxe marks the WQE
     * wqe_state_error and lets the completer reach it); then the QP goes to ERR and the rest is flushed.
     */
    private void fail(QpContext c, SendWqe w, WcStatus status) {
        w.state = SendWqe.State.ERROR;
        w.status = status;
        if (c.reqIndex != 0) return;
        engine.completions.send(c, w, status);
        engine.completions.sendQueueError(c, null);
    }

    /** {@link #fail}, and why in the device's words: the local check a requester's own completion cannot name. */
    private void failLocal(QpContext c, SendWqe w, WcStatus status, String why) {
        engine.refuse(c.qp.qpn(), Diagnostics.NO_PSN, Refusals.completes(w, status, why));
        fail(c, w, status);
    }

    /**
     * The payload's bytes into the packet; false, with the WQE failed and nothing sent, when the memory under one
     * of its regions went away since it was checked (an arena closed by another thread meanwhile).
     */
    private boolean payload(QpContext c, SendWqe w, FrameWriter fw, int payload) {
        try {
            copyPayload(w, fw, payload);
            return true;
        } catch (MemoryGone g) {
            failLocal(c, w, WcStatus.LOC_PROT_ERR, String.format("SGE %d with lkey 0x%x: %s; the packet at offset %d was not sent",
                    g.sge(), g.region().lkey(), g.why(), w.sent));
            return false;
        }
    }

    /** SQD: once nothing started before the drain is outstanding, IBV_EVENT_SQ_DRAINED if modify_qp asked for it. */
    void drained(QpContext c) {
        if (c.sqDrained || c.reqStarted > 0) return;
        c.sqDrained = true;
        if (c.qp.attr().sqDrainNotify) engine.event(AsyncEvent.Type.SQ_DRAINED, c.qp);
    }

    private void sendPacket(QpContext c, SendWqe w) {
        QueuePair qp = c.qp;
        switch (w.opcode) {
            case RDMA_READ -> sendRead(c, w);
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> sendAtomic(c, w);
            case FLUSH -> sendFlush(c, w);
            case ATOMIC_WRITE -> sendAtomicWrite(c, w);
            default -> sendData(c, w, qp.mtuBytes()); // UD's path MTU is the port's active MTU, set at RTR
        }
    }

    /** SEND and RDMA WRITE: the next MTU of the message. */
    private void sendData(QpContext c, SendWqe w, int mtu) {
        QueuePair qp = c.qp;
        if (qp.type() == QpType.UD && w.length > mtu) {
            // C10-93.1.1: no packet and no error for a UD message longer than the path MTU (so rxe)
            engine.counters.inc(org.softrnic.nic.Counter.UD_SEND_TOO_LONG);
            finishMessage(c, w, c.reqPsn);
            return;
        }
        long remaining = w.length - w.sent;
        boolean first = w.sent == 0;
        boolean last = remaining <= mtu;
        int payload = (int) Math.min(mtu, remaining);
        Transport t = Opcodes.transport(qp.type());
        OpClass cls = w.opcode.isSend() ? OpClass.SEND : OpClass.RDMA_WRITE;
        Position p = Opcodes.position(first, last);
        boolean imm = last && w.opcode.hasImmediate();
        boolean inv = last && w.opcode == SendOpcode.SEND_WITH_INV;
        Opcode op = Opcodes.cached(t, cls, p, imm, inv);
        boolean ud = qp.type() == QpType.UD;
        FrameTemplate tpl = ud ? engine.template(w.rare.udAv) : c.template;
        int dqpn = ud ? w.rare.remoteQpn : qp.destQpn();
        int psn = c.reqPsn;
        // rxe: noack_pkts++ > RXE_MAX_PKT_PER_ACK, so a middle packet asks every 66th
        // rxe asks on RC and on QP1 (IB_QPT_GSI is neither UD nor UC there: its MADs carry AckReq, as captured),
        // never on UD or UC data QPs
        boolean asks = qp.type() == QpType.RC || qp.qpn() == org.softrnic.nic.Nic.GSI_QPN;
        boolean ackReq = asks && (last || c.noAckPackets++ > Engine.MAX_PKT_PER_ACK);
        if (ackReq) c.noAckPackets = 0;
        // SE only where a receive completes: SEND and RDMA WRITE with immediate (rxe init_req_packet)
        boolean se = last && (w.sendFlags & SendFlags.SOLICITED) != 0 && (w.opcode.isSend() || imm);
        FrameWriter fw = engine.begin(c, tpl, op, dqpn, psn);
        fw.bth().flags(se, false, 0, 0).ackReq(ackReq);
        if (op.hasReth()) fw.reth().va(w.remoteAddr).rkey(w.rkey).dlen((int) w.length);
        if (op.hasImmediate()) fw.immDt().value(w.immData);
        if (op.hasInvalidate()) fw.ieth().rkey(w.invalidateRkey);
        if (ud) fw.deth().qkey(w.rare.remoteQkey < 0 ? qp.attr().qkey : w.rare.remoteQkey).sqpn(qp.qpn());
        if (!payload(c, w, fw, payload)) return;
        engine.transmit(payload);
        w.sent += payload;
        c.reqPsn = Psn.add(psn, 1);
        if (last) finishMessage(c, w, psn);
        else armTimer(c);
    }

    private static void copyPayload(SendWqe w, FrameWriter fw, int payload) {
        var seg = fw.payloadSegment();
        long at = fw.payloadOffset();
        if (w.isInline) {
            java.lang.foreign.MemorySegment.copy(w.inline, (int) w.sent, seg, java.lang.foreign.ValueLayout.JAVA_BYTE,
                    at, payload);
        } else {
            Sges.gather(w, w.sent, seg, at, payload);
        }
    }

    private void finishMessage(QpContext c, SendWqe w, int lastPsn) {
        w.lastPsn = lastPsn;
        w.state = SendWqe.State.PENDING;
        c.reqIndex++;
        if (c.qp.type() == QpType.RC) {
            armTimer(c);
        } else {
            // UC and UD are unacknowledged: the WQE completes once its last packet is on the wire
            engine.completions.send(c, w, WcStatus.SUCCESS);
        }
    }

    private void sendRead(QpContext c, SendWqe w) {
        QueuePair qp = c.qp;
        int mtu = qp.mtuBytes();
        long remaining = w.length - w.sent;
        int packets = (int) Math.max(1, (remaining + mtu - 1) / mtu);
        int psn = c.reqPsn;
        FrameWriter fw = engine.begin(c, c.template, Opcode.RC_RDMA_READ_REQUEST, qp.destQpn(), psn);
        fw.bth().ackReq(true);
        fw.reth().va(w.remoteAddr + w.sent).rkey(w.rkey).dlen((int) remaining);
        engine.transmit(0);
        awaitResponses(c, w, psn, packets);
    }

    private void sendAtomic(QpContext c, SendWqe w) {
        QueuePair qp = c.qp;
        Opcode op = w.opcode == SendOpcode.ATOMIC_CMP_AND_SWP ? Opcode.RC_COMPARE_SWAP : Opcode.RC_FETCH_ADD;
        int psn = c.reqPsn;
        FrameWriter fw = engine.begin(c, c.template, op, qp.destQpn(), psn);
        fw.bth().ackReq(true);
        long swapAdd = w.opcode == SendOpcode.ATOMIC_CMP_AND_SWP ? w.rare.swap : w.rare.compareAdd;
        long compare = w.opcode == SendOpcode.ATOMIC_CMP_AND_SWP ? w.rare.compareAdd : 0;
        fw.atomicEth().va(w.remoteAddr).rkey(w.rkey).swapAdd(swapAdd).compare(compare);
        engine.transmit(0);
        awaitResponses(c, w, psn, 1);
    }

    /** FLUSH (IBTA 1.5 A19): FETH then RETH, no payload; answered by a zero-length READ response. */
    private void sendFlush(QpContext c, SendWqe w) {
        QueuePair qp = c.qp;
        int psn = c.reqPsn;
        FrameWriter fw = engine.begin(c, c.template, Opcode.RC_FLUSH, qp.destQpn(), psn);
        fw.bth().ackReq(true);
        fw.feth().set(w.rare.flushType, w.rare.flushLevel);
        fw.reth().va(w.remoteAddr).rkey(w.rkey).dlen((int) w.rare.flushLength);
        engine.transmit(0);
        awaitResponses(c, w, psn, 1);
    }

    /** ATOMIC_WRITE: RETH and eight bytes written as one unit; answered by a zero-length READ response. */
    private void sendAtomicWrite(QpContext c, SendWqe w) {
        QueuePair qp = c.qp;
        int psn = c.reqPsn;
        FrameWriter fw = engine.begin(c, c.template, Opcode.RC_ATOMIC_WRITE, qp.destQpn(), psn);
        fw.bth().ackReq(true);
        fw.reth().va(w.remoteAddr).rkey(w.rkey).dlen(8);
        if (!payload(c, w, fw, 8)) return;
        engine.transmit(8);
        awaitResponses(c, w, psn, 1);
    }

    /**
     * After a request answered by responses (READ, atomic, FLUSH, ATOMIC_WRITE): the request carried AckReq, and
     * its {@code responses} response packets take PSNs from {@code psn} on, as the responder numbers them.
     */
    private void awaitResponses(QpContext c, SendWqe w, int psn, int responses) {
        c.noAckPackets = 0;
        c.reqPsn = Psn.add(psn, responses);
        c.outstandingReadAtomic++;
        finishMessage(c, w, Psn.add(psn, responses - 1));
    }

    private void armTimer(QpContext c) {
        if (!c.retransmitArmed()) {
            long t = Engine.timeoutNanos(c.qp.ackTimeout());
            c.retransmitAt(t == QpContext.NEVER ? QpContext.NEVER : engine.now() + t);
        }
    }

    /**
     * Go-back-N: the next packet sent is the one with PSN {@code psn}, which lies in the head WQE (everything
     * before it is acknowledged). Later WQEs start again from scratch.
     */
    void rewind(QpContext c, int psn) {
        QueuePair qp = c.qp;
        c.txResendTo = c.reqPsn;
        SendWqe head = qp.sqHead();
        if (head != null && head.state != SendWqe.State.POSTED && Psn.diff(psn, head.firstPsn) < 0) {
            psn = head.firstPsn; // everything before the head is acknowledged already
        }
        int mtu = qp.mtuBytes();
        c.outstandingReadAtomic = 0;
        c.noAckPackets = 0;
        for (int i = 0; i < qp.sq().size(); i++) {
            SendWqe w = qp.sq().get(i);
            if (w.state == SendWqe.State.POSTED) break;
            if (i == 0) {
                long offset = (long) Psn.diff(psn, w.firstPsn) * mtu;
                if (w.opcode.isAtomic() || offset < 0) offset = 0;
                w.sent = Math.min(offset, w.length);
                if (w.opcode == SendOpcode.RDMA_READ) w.received = w.sent;
                w.state = SendWqe.State.PROCESSING;
            } else {
                w.state = SendWqe.State.POSTED;
            }
        }
        c.reqIndex = 0;
        c.reqPsn = psn;
        c.retransmitAt(QpContext.NEVER);
    }
}
