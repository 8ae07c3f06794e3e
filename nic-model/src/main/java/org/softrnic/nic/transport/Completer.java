package org.softrnic.nic.transport;

import org.softrnic.nic.Counter;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.SendWqe;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameView;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.AethType;
import org.softrnic.wire.header.NakCode;
import org.softrnic.wire.header.RnrTimer;
import org.softrnic.wire.packet.RocePacketView;

/**
 * The completer (rxe_comp.c): ACKs, NAKs and responses to completions, and every retransmission decision:
 * go-back-N on a PSN sequence NAK, an implied NAK or a local ACK timeout (bounded by retry_cnt), and the
 * RNR wait (bounded by rnr_retry, 7 meaning forever).
 */
final class Completer {
    /**
     * The completer's states as rxe_comp.c names them (COMPST_*). A response walks CHECK_PSN, CHECK_ACK, then
     * READ, ATOMIC or WRITE_SEND with COMP_WQE for each request it completes and UPDATE_COMP for the progress,
     * and ends in DONE; or in EXIT (dropped: a ghost, a duplicate, a QP in the wrong state), ERROR_RETRY
     * (go-back-N), RNR_RETRY (the RNR wait) or ERROR (the head fails, the QP goes to ERR). Each step is
     * reported to the device's {@link org.softrnic.nic.StateTrace}.
     */
    enum State { CHECK_PSN, CHECK_ACK, READ, ATOMIC, WRITE_SEND, COMP_WQE, UPDATE_COMP, ERROR_RETRY, RNR_RETRY, ERROR, EXIT, DONE }

    /** How far an acknowledgement reaches into the send queue (see {@link #completeThrough}). */
    private enum Through {
        /** Every WQE it covers is complete; the head, if any, ends after it. */
        COMPLETED,
        /** It reaches past a READ or atomic that got no response: an implied NAK. */
        PAST_RESPONSE,
        /** It ends inside a READ's response range, which only READ responses may enter. */
        INSIDE_RESPONSE
    }

    /** The atomic's original value in host (little-endian) order, scattered over the WQE's SGEs; made on first use. */
    private java.lang.foreign.MemorySegment atomicResult;

    private static final java.lang.foreign.ValueLayout.OfLong HOST_LONG =
            java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
    private final Engine engine;

    Completer(Engine engine) {
        this.engine = engine;
    }

    void receive(QpContext c, FrameView v) {
        handle(c, v.roce);
        errorAtHead(c);
        engine.requester.run(c);
    }

    /**
     * A WQE the requester failed locally completes with its error once every WQE before it has completed
     * (rxe: wqe_state_error reaches the completer's head); then the QP goes to ERR and the rest is flushed.
     */
    void errorAtHead(QpContext c) {
        SendWqe head = c.qp.sq().head();
        if (head != null && head.state == SendWqe.State.ERROR && head.status != null) failHead(c, head.status);
    }

    private State handle(QpContext c, RocePacketView p) {
        QueuePair qp = c.qp;
        to(c, State.CHECK_PSN);
        if (qp.type() != QpType.RC || (qp.state() != QpState.RTS && qp.state() != QpState.SQD)) {
            engine.counters.inc(Counter.DROP_QP_STATE);
            return to(c, State.EXIT);
        }
        int psn = p.bth().psn();
        // CHECK_PSN: a response for a PSN never sent is a ghost; one before the oldest unacked is stale
        if (Psn.diff(psn, c.req.psn) >= 0) {
            engine.counters.inc(Counter.DROP_GHOST_ACK);
            return to(c, State.EXIT);
        }
        if (Psn.diff(psn, c.comp.psn) < 0) return to(c, State.EXIT);
        Opcode op = p.opcode();
        return switch (op.opClass) {
            case ACKNOWLEDGE -> ack(c, p, psn);
            case ATOMIC_ACKNOWLEDGE -> atomicAck(c, p, psn);
            case RDMA_READ_RESPONSE -> readResponse(c, p, psn, op);
            default -> to(c, State.EXIT);
        };
    }

    private State ack(QpContext c, RocePacketView p, int psn) {
        to(c, State.CHECK_ACK);
        Aeth.View a = p.aeth();
        int syndrome = a.syndrome();
        switch (AethType.of(syndrome)) {
            case ACK -> {
                Through t = completeThrough(c, psn);
                if (t != Through.COMPLETED) return stopped(c, t);
                advance(c, Psn.add(psn, 1));
                to(c, State.UPDATE_COMP);
                return to(c, State.DONE);
            }
            case RNR_NAK -> {
                Through t = completeThrough(c, Psn.add(psn, -1));
                if (t != Through.COMPLETED) return stopped(c, t);
                engine.counters.inc(Counter.RCVD_RNR_ERR);
                if (Psn.diff(psn, c.comp.psn) > 0) c.comp.psn = psn; // no progress for the NAKed PSN itself
                if (c.comp.rnrRetryLeft == 0) {
                    engine.counters.inc(Counter.RETRY_RNR_EXCEEDED_ERR);
                    failHead(c, WcStatus.RNR_RETRY_EXC_ERR);
                    return to(c, State.ERROR);
                }
                if (c.qp.attr().rnrRetry != 7) c.comp.rnrRetryLeft--;
                c.comp.retransmitDeadline = QpContext.NEVER;
                c.comp.rnrDeadline = engine.now() + RnrTimer.micros(syndrome & 0x1f) * 1000L;
                c.comp.rnrRetryPsn = psn;
                engine.requester.rewind(c, psn);
                return to(c, State.RNR_RETRY);
            }
            case NAK -> {
                Through t = completeThrough(c, Psn.add(psn, -1));
                if (t != Through.COMPLETED) return stopped(c, t);
                NakCode code = NakCode.of(syndrome & 0x1f);
                if (code == null) {
                    // a reserved NAK code: rxe's check_ack fails the WQE as a remote operational error
                    failHead(c, WcStatus.REM_OP_ERR);
                    return to(c, State.ERROR);
                }
                if (code == NakCode.PSN_SEQUENCE_ERROR) {
                    engine.counters.inc(Counter.RCVD_SEQ_ERR);
                    if (c.comp.retrying) return to(c, State.EXIT); // already going back for this gap
                    c.comp.psn = psn;
                    return retry(c, psn);
                }
                failHead(c, switch (code) {
                    case INVALID_REQUEST -> WcStatus.REM_INV_REQ_ERR;
                    case REMOTE_ACCESS_ERROR -> WcStatus.REM_ACCESS_ERR;
                    case REMOTE_OPERATIONAL_ERROR -> WcStatus.REM_OP_ERR;
                    default -> WcStatus.REM_INV_RD_REQ_ERR;
                });
                return to(c, State.ERROR);
            }
            default -> {
                engine.counters.inc(Counter.DROP_MALFORMED);
                return to(c, State.EXIT);
            }
        }
    }

    /**
     * An ACK or NAK that stopped at a READ or atomic: inside its response range it is ignored (rxe's check_psn:
     * only READ responses enter it); past it, its response was lost (an implied NAK).
     */
    private State stopped(QpContext c, Through t) {
        if (t == Through.PAST_RESPONSE) return impliedNak(c);
        engine.counters.inc(Counter.DROP_ACK_INSIDE_READ);
        return to(c, State.EXIT);
    }

    private State readResponse(QpContext c, RocePacketView p, int psn, Opcode op) {
        to(c, State.CHECK_ACK);
        // a READ response acknowledges every request before the READ
        if (completeThrough(c, Psn.add(psn, -1)) == Through.PAST_RESPONSE) {
            SendWqe head = c.qp.sq().head();
            if (head == null || !head.opcode.needsResponse() || head.opcode.isAtomic()) return impliedNak(c);
        }
        SendWqe w = c.qp.sq().head();
        if (w != null && (w.opcode == SendOpcode.FLUSH || w.opcode == SendOpcode.ATOMIC_WRITE)) {
            // both are answered by a zero-length RDMA READ RESPONSE ONLY (rxe send_read_response_ack)
            if (w.state != SendWqe.State.PENDING || w.firstPsn != psn || op != Opcode.RC_RDMA_READ_RESPONSE_ONLY) {
                return impliedNak(c);
            }
            advance(c, Psn.add(psn, 1));
            to(c, State.UPDATE_COMP);
            c.req.outstandingReadAtomic--;
            to(c, State.COMP_WQE);
            engine.completions.send(c, w, WcStatus.SUCCESS);
            return to(c, State.DONE);
        }
        if (w == null || w.opcode != SendOpcode.RDMA_READ || w.state != SendWqe.State.PENDING
                || Psn.diff(psn, w.firstPsn) < 0 || Psn.diff(psn, w.lastPsn) > 0) {
            return impliedNak(c);
        }
        if (psn != c.comp.psn) return impliedNak(c); // a response packet went missing
        to(c, State.READ);
        int mtu = c.qp.mtuBytes();
        long offset = (long) Psn.diff(psn, w.firstPsn) * mtu;
        int len = p.payloadLength();
        boolean ends = op.position.ends();
        if (offset + len > w.length || (ends ? offset + len != w.length : len != mtu)) {
            failHead(c, WcStatus.BAD_RESP_ERR);
            return to(c, State.ERROR);
        }
        if (!Sges.stillValid(engine.keys, c.qp.pd(), Access.LOCAL_WRITE, w.sgList, w.sgeMrs, w.numSge)) return localError(c);
        Sges.scatter(w.sgList, w.sgeMrs, w.numSge, offset, p.segment(), p.payloadOffset(), len);
        w.received = offset + len;
        advance(c, Psn.add(psn, 1));
        to(c, State.UPDATE_COMP);
        if (ends) {
            c.req.outstandingReadAtomic--;
            to(c, State.COMP_WQE);
            engine.completions.send(c, w, WcStatus.SUCCESS);
        }
        return to(c, State.DONE);
    }

    private State atomicAck(QpContext c, RocePacketView p, int psn) {
        to(c, State.CHECK_ACK);
        if (completeThrough(c, Psn.add(psn, -1)) != Through.COMPLETED) {
            SendWqe head = c.qp.sq().head();
            if (head == null || !head.opcode.isAtomic()) return impliedNak(c);
        }
        SendWqe w = c.qp.sq().head();
        if (w == null || !w.opcode.isAtomic() || w.state != SendWqe.State.PENDING || w.firstPsn != psn) {
            return impliedNak(c);
        }
        if (!Sges.stillValid(engine.keys, c.qp.pd(), Access.LOCAL_WRITE, w.sgList, w.sgeMrs, w.numSge)) return localError(c);
        to(c, State.ATOMIC);
        // the 8 bytes land in host (little-endian) order, as on an x86 host, over the SGE list (rxe copy_data)
        if (atomicResult == null) atomicResult = engine.arena.allocate(8, 8);
        atomicResult.set(HOST_LONG, 0, p.atomicAckEth().orig());
        Sges.scatter(w.sgList, w.sgeMrs, w.numSge, 0, atomicResult, 0, 8);
        advance(c, Psn.add(psn, 1));
        to(c, State.UPDATE_COMP);
        c.req.outstandingReadAtomic--;
        to(c, State.COMP_WQE);
        engine.completions.send(c, w, WcStatus.SUCCESS);
        return to(c, State.DONE);
    }

    /**
     * Completes the head WQEs whose last PSN is at or before {@code upTo}; stops at a READ or atomic reached
     * or entered, which only its own response completes (rxe check_psn and check_ack).
     */
    private Through completeThrough(QpContext c, int upTo) {
        while (true) {
            SendWqe w = c.qp.sq().head();
            if (w == null || w.state != SendWqe.State.PENDING) return Through.COMPLETED;
            if (Psn.diff(w.lastPsn, upTo) > 0) {
                // at or past the oldest unanswered PSN: a NAK for that PSN itself (upTo one before it) is the
                // answer to a re-issued READ, and stands
                boolean inside = w.opcode.needsResponse() && Psn.diff(upTo, w.firstPsn) >= 0 && Psn.diff(upTo, c.comp.psn) >= 0;
                return inside ? Through.INSIDE_RESPONSE : Through.COMPLETED;
            }
            if (w.opcode.needsResponse()) return Through.PAST_RESPONSE;
            int next = Psn.add(w.lastPsn, 1);
            to(c, State.WRITE_SEND);
            to(c, State.COMP_WQE);
            engine.completions.send(c, w, WcStatus.SUCCESS);
            advance(c, next);
        }
    }

    /** The local buffer of a READ or atomic was deregistered or invalidated meanwhile (rxe: IB_WC_LOC_PROT_ERR). */
    private State localError(QpContext c) {
        failHead(c, WcStatus.LOC_PROT_ERR);
        return to(c, State.ERROR);
    }

    /** Forward progress: note the new oldest unacknowledged PSN and refill the retry budgets. */
    private void advance(QpContext c, int nextUnacked) {
        if (Psn.diff(nextUnacked, c.comp.psn) > 0) c.comp.psn = nextUnacked;
        c.comp.retrying = false;
        c.comp.retryLeft = c.qp.attr().retryCnt;
        c.comp.rnrRetryLeft = c.qp.attr().rnrRetry;
        boolean outstanding = c.comp.psn != c.req.psn;
        long t = Engine.timeoutNanos(c.qp.attr().timeout);
        c.comp.retransmitDeadline = outstanding && t != QpContext.NEVER ? engine.now() + t : QpContext.NEVER;
    }

    /** A READ or atomic lost its response: go back to its first unanswered PSN. */
    private State impliedNak(QpContext c) {
        SendWqe w = c.qp.sq().head();
        if (w == null || w.state == SendWqe.State.POSTED) {
            engine.counters.inc(Counter.DROP_GHOST_ACK);
            return to(c, State.EXIT);
        }
        // responses already on their way from before the retry would each imply the same NAK (rxe: started_retry)
        if (c.comp.retrying) return to(c, State.EXIT);
        int from = w.opcode == SendOpcode.RDMA_READ
                ? Psn.add(w.firstPsn, (int) (w.received / c.qp.mtuBytes())) : w.firstPsn;
        c.comp.psn = from;
        return retry(c, from);
    }

    /** Go-back-N from {@code psn} if retry_cnt allows, else IBV_WC_RETRY_EXC_ERR. */
    private State retry(QpContext c, int psn) {
        if (c.comp.retryLeft <= 0) {
            engine.counters.inc(Counter.RETRY_EXCEEDED_ERR);
            failHead(c, WcStatus.RETRY_EXC_ERR);
            return to(c, State.ERROR);
        }
        c.comp.retryLeft--;
        c.comp.retrying = true;
        engine.counters.inc(Counter.COMPLETER_RETRY_ERR);
        engine.requester.rewind(c, psn);
        return to(c, State.ERROR_RETRY);
    }

    /** Reports the step to the device's state trace, if one listens, and returns it. */
    private State to(QpContext c, State s) {
        if (engine.stateTrace != null) engine.traceStep(c.qp.qpn(), org.softrnic.nic.StateTrace.Role.COMPLETER, s.name());
        return s;
    }

    /** The head WQE fails with {@code status}; the QP goes to ERR and the rest is flushed. */
    private void failHead(QpContext c, WcStatus status) {
        SendWqe w = c.qp.sq().head();
        // ERR first: a poller on another thread that sees the error completion then sees the QP in ERR too
        boolean wasErr = c.qp.state() == QpState.ERR;
        c.qp.state(QpState.ERR);
        if (w != null) engine.completions.send(c, w, status);
        if (!wasErr) engine.completions.flush(c);
    }

    /** The local ACK timeout and the RNR wait. */
    void timers(QpContext c, long now) {
        if (c.comp.rnrDeadline <= now) {
            c.comp.rnrDeadline = QpContext.NEVER;
            engine.requester.rewind(c, c.comp.rnrRetryPsn);
            engine.requester.run(c);
            return;
        }
        if (c.comp.retransmitDeadline <= now) {
            c.comp.retransmitDeadline = QpContext.NEVER;
            if (c.comp.psn == c.req.psn || c.qp.sq().isEmpty()) return;
            c.comp.retrying = false; // a timeout always retries
            retry(c, c.comp.psn);
            errorAtHead(c);
            engine.requester.run(c);
        }
    }
}
