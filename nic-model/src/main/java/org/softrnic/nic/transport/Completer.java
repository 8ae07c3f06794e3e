package org.softrnic.nic.transport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Diagnostics;
import org.softrnic.nic.StateTrace;
import org.softrnic.nic.mem.MemoryGone;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.SendWqe;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameView;
import org.softrnic.wire.header.AethType;
import org.softrnic.wire.header.NakCode;
import org.softrnic.wire.header.RnrTimer;

/**
 * The completer (rxe_comp.c): ACKs, NAKs and responses to completions, and every retransmission decision:
 * go-back-N on a PSN sequence NAK, an implied NAK or a local ACK timeout (bounded by retry_cnt), and the
 * RNR wait (bounded by rnr_retry, 7 meaning forever). It runs as a state machine over rxe's COMPST_* states,
 * one response at a time, each step given the packet's {@link PacketInfo}.
 * <p>
 * Just over 400 lines: one state a method, in rxe's order, so the file reads as rxe_comp.c's state machine does.
 */
final class Completer {
    /**
     * The completer's states as rxe_comp.c names them. A response walks CHECK_PSN and CHECK_ACK (which retires
     * the WQEs an ACK covers before its own PSN, each a COMP_WQE), then WRITE_SEND, READ or ATOMIC for the WQE
     * it answers, COMP_ACK when that WQE is done, UPDATE_COMP for the progress, and DONE; or it ends in EXIT
     * (dropped: a ghost, a duplicate, a QP in the wrong state), ERROR_RETRY (go-back-N), RNR_RETRY (the RNR
     * wait) or ERROR (the head fails, the QP goes to ERR). Each step is reported to the device's
     * {@link StateTrace}.
     */
    enum State {
        CHECK_PSN, CHECK_ACK, READ, ATOMIC, WRITE_SEND, COMP_ACK, COMP_WQE, UPDATE_COMP, ERROR_RETRY, RNR_RETRY, ERROR,
        EXIT, DONE
    }

    private static final ValueLayout.OfLong HOST_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Engine engine;
    private final PacketInfo pkt;
    /** The atomic's original value in host (little-endian) order, scattered over the WQE's SGEs; made on first use. */
    private MemorySegment atomicResult;

    Completer(Engine engine) {
        this.engine = engine;
        this.pkt = new PacketInfo(engine);
    }

    void receive(QpContext c, FrameView v) {
        PacketInfo k = pkt.set(c, v);
        for (State s = State.CHECK_PSN; s != null; ) {
            if (engine.stateTrace != null) trace(c, s);
            try {
                s = step(k, s);
            } catch (MemoryGone g) {
                s = localError(k, k.wqe, "its response"); // an arena closed by another thread as the data was placed
            }
        }
        k.clear();
        errorAtHead(c);
        engine.requester.run(c);
    }

    /** One state's work; the next state, or null where the walk ends. */
    private State step(PacketInfo k, State s) {
        return switch (s) {
            case CHECK_PSN -> checkPsn(k);
            case CHECK_ACK -> checkAck(k);
            case WRITE_SEND -> State.COMP_ACK;
            case READ -> read(k);
            case ATOMIC -> atomic(k);
            case COMP_ACK -> compAck(k);
            case UPDATE_COMP -> {
                advance(k.ctx(), Psn.add(k.psn, 1));
                yield State.DONE;
            }
            case ERROR_RETRY -> {
                State next = errorRetry(k.ctx(), k.retryPsn);
                if (next == State.ERROR) k.status = WcStatus.RETRY_EXC_ERR;
                yield next;
            }
            case RNR_RETRY -> rnrRetry(k);
            case ERROR -> {
                failHead(k.ctx(), k.status);
                yield null;
            }
            case COMP_WQE, EXIT, DONE -> null;
        };
    }

    /**
     * A WQE the requester failed locally completes with its error once every WQE before it has completed
     * (rxe: wqe_state_error reaches the completer's head); then the QP goes to ERR and the rest is flushed.
     */
    void errorAtHead(QpContext c) {
        SendWqe head = c.qp.sqHead();
        if (head != null && head.state == SendWqe.State.ERROR && head.status != null) failHead(c, head.status);
    }

    /** A response for a PSN never sent is a ghost; one before the oldest unacknowledged PSN is stale. */
    private State checkPsn(PacketInfo k) {
        QpContext c = k.ctx();
        QueuePair qp = c.qp;
        if (qp.type() != QpType.RC || (qp.state() != QpState.RTS && qp.state() != QpState.SQD)) {
            engine.counters.inc(Counter.DROP_QP_STATE);
            return State.EXIT;
        }
        if (Psn.diff(k.psn, c.reqPsn) >= 0) {
            engine.counters.inc(Counter.DROP_GHOST_ACK);
            return State.EXIT;
        }
        if (Psn.diff(k.psn, c.compPsn) < 0) return State.EXIT;
        return State.CHECK_ACK;
    }

    private State checkAck(PacketInfo k) {
        return switch (k.op.opClass) {
            case ACKNOWLEDGE -> ack(k);
            case ATOMIC_ACKNOWLEDGE -> atomicAck(k);
            case RDMA_READ_RESPONSE -> readResponse(k);
            default -> State.EXIT;
        };
    }

    private State ack(PacketInfo k) {
        QpContext c = k.ctx();
        int psn = k.psn;
        int syndrome = k.p.aeth().syndrome();
        AethType type = AethType.of(syndrome);
        if (type != AethType.ACK && type != AethType.RNR_NAK && type != AethType.NAK) {
            // counted apart from drop_malformed, which counts packets refused before rcvd_pkts
            engine.counters.inc(Counter.DROP_BAD_SYNDROME);
            return State.EXIT;
        }
        // an ACK covers its own PSN; a NAK every PSN before the one it names
        if (completeBefore(c, psn)) return impliedNak(k);
        SendWqe head = pending(c);
        if (type == AethType.ACK) {
            if (head != null && head.lastPsn == psn) {
                if (head.opcode.needsResponse()) return impliedNak(k); // an ACK where a response belongs
                k.wqe = head;
                return State.WRITE_SEND;
            }
            if (insideResponse(c, head, psn)) return insideDrop();
            return State.UPDATE_COMP;
        }
        if (insideResponse(c, head, Psn.add(psn, -1))) return insideDrop();
        if (type == AethType.RNR_NAK) return State.RNR_RETRY;
        NakCode code = NakCode.of(syndrome & 0x1f);
        if (code == NakCode.PSN_SEQUENCE_ERROR) {
            engine.counters.inc(Counter.RCVD_SEQ_ERR);
            if (c.retrying) return State.EXIT; // already going back for this gap
            c.compPsn = psn;
            k.retryPsn = psn;
            return State.ERROR_RETRY;
        }
        // a reserved NAK code: rxe's check_ack fails the WQE as a remote operational error
        k.status = code == null ? WcStatus.REM_OP_ERR : switch (code) {
            case INVALID_REQUEST -> WcStatus.REM_INV_REQ_ERR;
            case REMOTE_ACCESS_ERROR -> WcStatus.REM_ACCESS_ERR;
            case REMOTE_OPERATIONAL_ERROR -> WcStatus.REM_OP_ERR;
            default -> WcStatus.REM_INV_RD_REQ_ERR;
        };
        return State.ERROR;
    }

    /** An ACK or NAK that ends inside a READ's response range: only READ responses enter it (rxe's check_psn). */
    private State insideDrop() {
        engine.counters.inc(Counter.DROP_ACK_INSIDE_READ);
        return State.EXIT;
    }

    private State readResponse(PacketInfo k) {
        QpContext c = k.ctx();
        int psn = k.psn;
        // a READ response acknowledges every request before the READ
        if (completeBefore(c, psn)) {
            SendWqe head = c.qp.sqHead();
            if (head == null || !head.opcode.needsResponse() || head.opcode.isAtomic()) return impliedNak(k);
        }
        SendWqe w = c.qp.sqHead();
        if (w != null && (w.opcode == SendOpcode.FLUSH || w.opcode == SendOpcode.ATOMIC_WRITE)) {
            // both are answered by a zero-length RDMA READ RESPONSE ONLY (rxe send_read_response_ack)
            if (w.state != SendWqe.State.PENDING || w.firstPsn != psn || k.op != Opcode.RC_RDMA_READ_RESPONSE_ONLY) {
                return impliedNak(k);
            }
            k.wqe = w;
            return State.COMP_ACK;
        }
        if (w == null || w.opcode != SendOpcode.RDMA_READ || w.state != SendWqe.State.PENDING
                || Psn.diff(psn, w.firstPsn) < 0 || Psn.diff(psn, w.lastPsn) > 0) {
            return impliedNak(k);
        }
        if (psn != c.compPsn) return impliedNak(k); // a response packet went missing
        k.wqe = w;
        return State.READ;
    }

    /** One READ response packet's bytes into the WQE's buffers; its last completes the READ. */
    private State read(PacketInfo k) {
        QpContext c = k.ctx();
        SendWqe w = k.wqe;
        int mtu = c.qp.mtuBytes();
        long offset = (long) Psn.diff(k.psn, w.firstPsn) * mtu;
        int len = k.len;
        boolean ends = k.op.position.ends();
        if (offset + len > w.length || (ends ? offset + len != w.length : len != mtu)) {
            k.status = WcStatus.BAD_RESP_ERR;
            return State.ERROR;
        }
        // the local buffer may have been deregistered or invalidated meanwhile (rxe: IB_WC_LOC_PROT_ERR)
        if (!Sges.stillValid(engine.keys, c.qp.pd(), Access.LOCAL_WRITE, w)) return localError(k, w, "its response");
        Sges.scatter(w, offset, k.p.segment(), k.p.payloadOffset(), len);
        w.received = offset + len;
        return ends ? State.COMP_ACK : State.UPDATE_COMP;
    }

    private State atomicAck(PacketInfo k) {
        QpContext c = k.ctx();
        if (completeBefore(c, k.psn) || insideResponse(c, pending(c), Psn.add(k.psn, -1))) {
            SendWqe head = c.qp.sqHead();
            if (head == null || !head.opcode.isAtomic()) return impliedNak(k);
        }
        SendWqe w = c.qp.sqHead();
        if (w == null || !w.opcode.isAtomic() || w.state != SendWqe.State.PENDING || w.firstPsn != k.psn) {
            return impliedNak(k);
        }
        k.wqe = w;
        return State.ATOMIC;
    }

    /** The original value into the WQE's buffers, in host (little-endian) order over its SGEs (rxe copy_data). */
    private State atomic(PacketInfo k) {
        SendWqe w = k.wqe;
        if (!Sges.stillValid(engine.keys, k.ctx().qp.pd(), Access.LOCAL_WRITE, w)) return localError(k, w, "its original value");
        if (atomicResult == null) atomicResult = engine.arena.allocate(8, 8);
        atomicResult.set(HOST_LONG, 0, k.p.atomicAckEth().orig());
        Sges.scatter(w, 0, atomicResult, 0, 8);
        return State.COMP_ACK;
    }

    /** A READ's or atomic's buffers that no longer pass their check: LOC_PROT_ERR, and why in the device's words. */
    private State localError(PacketInfo k, SendWqe w, String what) {
        QueuePair qp = k.ctx().qp;
        engine.refuse(qp.qpn(), Diagnostics.NO_PSN, Refusals.completes(w, WcStatus.LOC_PROT_ERR,
                what + " came, but " + Sges.explain(engine.keys, qp.pd(), w, Access.LOCAL_WRITE, qp.qpn())));
        k.status = WcStatus.LOC_PROT_ERR;
        return State.ERROR;
    }

    /** The WQE this response answers is done (rxe complete_ack): a READ or atomic frees its rd_atomic slot. */
    private State compAck(PacketInfo k) {
        if (k.wqe.opcode.needsResponse()) k.ctx().outstandingReadAtomic--;
        engine.completions.send(k.ctx(), k.wqe, WcStatus.SUCCESS);
        return State.UPDATE_COMP;
    }

    /**
     * Retires the head WQEs whose last PSN lies before {@code psn} (each a COMP_WQE); true when it stops at a
     * READ or atomic it passes, which only its own response completes: that response was lost.
     */
    private boolean completeBefore(QpContext c, int psn) {
        while (true) {
            SendWqe w = pending(c);
            if (w == null || Psn.diff(w.lastPsn, psn) >= 0) return false;
            if (w.opcode.needsResponse()) return true;
            if (engine.stateTrace != null) trace(c, State.COMP_WQE);
            int next = Psn.add(w.lastPsn, 1); // before the pop: the poster may refill the slot at once
            engine.completions.send(c, w, WcStatus.SUCCESS);
            advance(c, next);
        }
    }

    /** The head WQE when it has been sent and waits for its acknowledgement, else null. */
    private static SendWqe pending(QpContext c) {
        SendWqe w = c.qp.sqHead();
        return w != null && w.state == SendWqe.State.PENDING ? w : null;
    }

    /**
     * Whether {@code upTo} lies inside the head's response range, at or past the oldest unanswered PSN: a NAK
     * for that PSN itself (upTo one before it) is the answer to a re-issued READ, and stands.
     */
    private static boolean insideResponse(QpContext c, SendWqe head, int upTo) {
        return head != null && Psn.diff(head.lastPsn, upTo) > 0 && head.opcode.needsResponse()
                && Psn.diff(upTo, head.firstPsn) >= 0 && Psn.diff(upTo, c.compPsn) >= 0;
    }

    /** Forward progress: note the new oldest unacknowledged PSN and refill the retry budgets. */
    private void advance(QpContext c, int nextUnacked) {
        if (Psn.diff(nextUnacked, c.compPsn) > 0) c.compPsn = nextUnacked;
        c.retrying = false;
        c.retryLeft = c.qp.retryCnt();
        c.rnrRetryLeft = c.qp.rnrRetry();
        // a completion that overflowed its CQ has put the QP in ERR: no timer for it
        boolean outstanding = c.compPsn != c.reqPsn && c.qp.state() != QpState.ERR;
        long t = Engine.timeoutNanos(c.qp.ackTimeout());
        c.retransmitAt(outstanding && t != QpContext.NEVER ? engine.now() + t : QpContext.NEVER);
    }

    /** A READ or atomic lost its response: go back to its first unanswered PSN. */
    private State impliedNak(PacketInfo k) {
        QpContext c = k.ctx();
        SendWqe w = c.qp.sqHead();
        if (w == null || w.state == SendWqe.State.POSTED) {
            engine.counters.inc(Counter.DROP_GHOST_ACK);
            return State.EXIT;
        }
        // responses already on their way from before the retry would each imply the same NAK (rxe: started_retry)
        if (c.retrying) return State.EXIT;
        int from = w.opcode == SendOpcode.RDMA_READ
                ? Psn.add(w.firstPsn, (int) (w.received / c.qp.mtuBytes())) : w.firstPsn;
        c.compPsn = from;
        k.retryPsn = from;
        return State.ERROR_RETRY;
    }

    /** ERROR_RETRY: go-back-N from {@code psn} if retry_cnt allows, else ERROR (the head fails with IBV_WC_RETRY_EXC_ERR). */
    private State errorRetry(QpContext c, int psn) {
        if (c.retryLeft <= 0) {
            engine.counters.inc(Counter.RETRY_EXCEEDED_ERR);
            return State.ERROR;
        }
        c.retryLeft--;
        c.retrying = true;
        engine.counters.inc(Counter.COMPLETER_RETRY_ERR);
        engine.requester.rewind(c, psn);
        return null;
    }

    /** RNR_RETRY: wait the responder's RNR timer, then send from the NAKed PSN, if rnr_retry allows (7: always). */
    private State rnrRetry(PacketInfo k) {
        QpContext c = k.ctx();
        int psn = k.psn;
        engine.counters.inc(Counter.RCVD_RNR_ERR);
        if (Psn.diff(psn, c.compPsn) > 0) c.compPsn = psn; // no progress for the NAKed PSN itself
        if (c.rnrRetryLeft == 0) {
            engine.counters.inc(Counter.RETRY_RNR_EXCEEDED_ERR);
            k.status = WcStatus.RNR_RETRY_EXC_ERR;
            return State.ERROR;
        }
        if (c.qp.rnrRetry() != 7) c.rnrRetryLeft--;
        c.retransmitAt(QpContext.NEVER);
        c.rnrAt(engine.now() + RnrTimer.micros(k.p.aeth().syndrome() & 0x1f) * 1000L);
        c.rnrRetryPsn = psn;
        engine.requester.rewind(c, psn);
        return null;
    }

    private void trace(QpContext c, State s) {
        engine.traceStep(c.qp.qpn(), StateTrace.Role.COMPLETER, s.name());
    }

    /** The head WQE fails with {@code status}; the QP goes to ERR and the rest is flushed. */
    private void failHead(QpContext c, WcStatus status) {
        SendWqe w = c.qp.sqHead();
        // ERR first: a poller on another thread that sees the error completion then sees the QP in ERR too
        boolean wasErr = c.qp.state() == QpState.ERR;
        c.state(QpState.ERR);
        if (w != null && (status == WcStatus.RETRY_EXC_ERR || status == WcStatus.RNR_RETRY_EXC_ERR)) explainRetries(c, w, status);
        if (w != null) engine.completions.send(c, w, status);
        if (!wasErr) engine.completions.flush(c);
    }

    /** Retries run out: the requester's side of it, with the mistakes that most often cause it. */
    private void explainRetries(QpContext c, SendWqe w, WcStatus status) {
        var attr = c.qp.attr();
        String why = status == WcStatus.RETRY_EXC_ERR
                ? String.format("the first try and %d retries (each after a NAK or a local ACK timeout, %s) were not all"
                        + " acknowledged by QP 0x%x. Likely: the peer QP was never connected or not yet in RTR, was destroyed"
                        + " or is in ERR, the path names the wrong QPN or GID, or the link lost them (link_dropped counts what"
                        + " a fault model dropped); the peer device's refusals, if it has any, say which",
                        attr.retryCnt, attr.timeout == 0 ? "timeout 0: none"
                                : String.format("timeout %d: %.1f ms", attr.timeout, Math.scalb(4.096e-3, attr.timeout)),
                        c.qp.destQpn())
                : String.format("the peer answered RNR NAK (receiver not ready) to the first try and %d retries: it had no"
                        + " receive posted for a SEND or RDMA WRITE with immediate; post receives before the peer sends, or"
                        + " raise rnr_retry (7: for ever)", attr.rnrRetry);
        engine.refuse(c.qp.qpn(), Diagnostics.NO_PSN, Refusals.completes(w, status, why));
    }

    /** The local ACK timeout and the RNR wait, without a packet: ERROR_RETRY (and ERROR) as rxe's timer runs them. */
    void timers(QpContext c, long now) {
        if (c.ccDeadline() <= now) engine.congestion.timers(c, now);
        if (c.faultDeadline() <= now) {
            c.faultAt(QpContext.NEVER);
            engine.requester.run(c);
        }
        if (c.rnrDeadline() <= now) {
            c.rnrAt(QpContext.NEVER);
            engine.requester.rewind(c, c.rnrRetryPsn);
            engine.requester.run(c);
            return;
        }
        if (c.retransmitDeadline() <= now) {
            c.retransmitAt(QpContext.NEVER);
            if (c.compPsn == c.reqPsn || c.qp.sq().isEmpty()) return;
            c.retrying = false; // a timeout always retries
            if (engine.stateTrace != null) trace(c, State.ERROR_RETRY);
            if (errorRetry(c, c.compPsn) == State.ERROR) {
                if (engine.stateTrace != null) trace(c, State.ERROR);
                failHead(c, WcStatus.RETRY_EXC_ERR);
            }
            errorAtHead(c);
            engine.requester.run(c);
        }
    }
}
