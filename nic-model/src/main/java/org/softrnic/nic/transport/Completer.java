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
    /** What a response did (rxe's named completer states, collapsed to their outcomes): for traces and tests. */
    enum Outcome { GHOST, DUPLICATE, ACKED, READ_DATA, ATOMIC_DONE, RNR_WAIT, RETRY, RETRY_EXCEEDED, RNR_EXCEEDED,
        REMOTE_ERROR, BAD_RESPONSE, WRONG_STATE, INSIDE_READ, LOCAL_ERROR }

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
    Outcome last;

    Completer(Engine engine) {
        this.engine = engine;
    }

    void receive(QpContext c, FrameView v) {
        last = handle(c, v.roce);
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

    private Outcome handle(QpContext c, RocePacketView p) {
        QueuePair qp = c.qp;
        if (qp.type() != QpType.RC || (qp.state() != QpState.RTS && qp.state() != QpState.SQD)) {
            engine.counters.inc(Counter.DROP_QP_STATE);
            return Outcome.WRONG_STATE;
        }
        int psn = p.bth().psn();
        // CHECK_PSN: a response for a PSN never sent is a ghost; one before the oldest unacked is stale
        if (Psn.diff(psn, c.reqPsn) >= 0) {
            engine.counters.inc(Counter.DROP_GHOST_ACK);
            return Outcome.GHOST;
        }
        if (Psn.diff(psn, c.compPsn) < 0) return Outcome.DUPLICATE;
        Opcode op = p.opcode();
        return switch (op.opClass) {
            case ACKNOWLEDGE -> ack(c, p, psn);
            case ATOMIC_ACKNOWLEDGE -> atomicAck(c, p, psn);
            case RDMA_READ_RESPONSE -> readResponse(c, p, psn, op);
            default -> Outcome.GHOST;
        };
    }

    private Outcome ack(QpContext c, RocePacketView p, int psn) {
        Aeth.View a = p.aeth();
        int syndrome = a.syndrome();
        switch (AethType.of(syndrome)) {
            case ACK -> {
                Through t = completeThrough(c, psn);
                if (t != Through.COMPLETED) return stopped(c, t);
                advance(c, Psn.add(psn, 1));
                return Outcome.ACKED;
            }
            case RNR_NAK -> {
                Through t = completeThrough(c, Psn.add(psn, -1));
                if (t != Through.COMPLETED) return stopped(c, t);
                engine.counters.inc(Counter.RCVD_RNR_ERR);
                if (Psn.diff(psn, c.compPsn) > 0) c.compPsn = psn; // no progress for the NAKed PSN itself
                if (c.compRnrRetryLeft == 0) {
                    engine.counters.inc(Counter.RETRY_RNR_EXCEEDED_ERR);
                    failHead(c, WcStatus.RNR_RETRY_EXC_ERR);
                    return Outcome.RNR_EXCEEDED;
                }
                if (c.qp.attr().rnrRetry != 7) c.compRnrRetryLeft--;
                c.retransmitDeadline = QpContext.NEVER;
                c.rnrDeadline = engine.now() + RnrTimer.micros(syndrome & 0x1f) * 1000L;
                c.rnrRetryPsn = psn;
                engine.requester.rewind(c, psn);
                return Outcome.RNR_WAIT;
            }
            case NAK -> {
                Through t = completeThrough(c, Psn.add(psn, -1));
                if (t != Through.COMPLETED) return stopped(c, t);
                NakCode code = NakCode.of(syndrome & 0x1f);
                if (code == null) {
                    // a reserved NAK code: rxe's check_ack fails the WQE as a remote operational error
                    failHead(c, WcStatus.REM_OP_ERR);
                    return Outcome.REMOTE_ERROR;
                }
                if (code == NakCode.PSN_SEQUENCE_ERROR) {
                    engine.counters.inc(Counter.RCVD_SEQ_ERR);
                    if (c.compRetrying) return Outcome.DUPLICATE; // already going back for this gap
                    c.compPsn = psn;
                    return retry(c, psn);
                }
                failHead(c, switch (code) {
                    case INVALID_REQUEST -> WcStatus.REM_INV_REQ_ERR;
                    case REMOTE_ACCESS_ERROR -> WcStatus.REM_ACCESS_ERR;
                    case REMOTE_OPERATIONAL_ERROR -> WcStatus.REM_OP_ERR;
                    default -> WcStatus.REM_INV_RD_REQ_ERR;
                });
                return Outcome.REMOTE_ERROR;
            }
            default -> {
                engine.counters.inc(Counter.DROP_MALFORMED);
                return Outcome.BAD_RESPONSE;
            }
        }
    }

    /**
     * An ACK or NAK that stopped at a READ or atomic: inside its response range it is ignored (rxe's check_psn:
     * only READ responses enter it); past it, its response was lost (an implied NAK).
     */
    private Outcome stopped(QpContext c, Through t) {
        if (t == Through.PAST_RESPONSE) return impliedNak(c);
        engine.counters.inc(Counter.DROP_ACK_INSIDE_READ);
        return Outcome.INSIDE_READ;
    }

    private Outcome readResponse(QpContext c, RocePacketView p, int psn, Opcode op) {
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
            c.reqOutstandingReadAtomic--;
            engine.completeSend(c, w, WcStatus.SUCCESS);
            return Outcome.ACKED;
        }
        if (w == null || w.opcode != SendOpcode.RDMA_READ || w.state != SendWqe.State.PENDING
                || Psn.diff(psn, w.firstPsn) < 0 || Psn.diff(psn, w.lastPsn) > 0) {
            return impliedNak(c);
        }
        if (psn != c.compPsn) return impliedNak(c); // a response packet went missing
        int mtu = c.qp.mtuBytes();
        long offset = (long) Psn.diff(psn, w.firstPsn) * mtu;
        int len = p.payloadLength();
        boolean ends = op.position.ends();
        if (offset + len > w.length || (ends ? offset + len != w.length : len != mtu)) {
            failHead(c, WcStatus.BAD_RESP_ERR);
            return Outcome.BAD_RESPONSE;
        }
        if (!Sges.stillValid(engine.keys, c.qp.pd(), Access.LOCAL_WRITE, w.sgList, w.sgeMrs, w.numSge)) return localError(c);
        Sges.scatter(w.sgList, w.sgeMrs, w.numSge, offset, p.segment(), p.payloadOffset(), len);
        w.received = offset + len;
        advance(c, Psn.add(psn, 1));
        if (ends) {
            c.reqOutstandingReadAtomic--;
            engine.completeSend(c, w, WcStatus.SUCCESS);
        }
        return Outcome.READ_DATA;
    }

    private Outcome atomicAck(QpContext c, RocePacketView p, int psn) {
        if (completeThrough(c, Psn.add(psn, -1)) != Through.COMPLETED) {
            SendWqe head = c.qp.sq().head();
            if (head == null || !head.opcode.isAtomic()) return impliedNak(c);
        }
        SendWqe w = c.qp.sq().head();
        if (w == null || !w.opcode.isAtomic() || w.state != SendWqe.State.PENDING || w.firstPsn != psn) {
            return impliedNak(c);
        }
        if (!Sges.stillValid(engine.keys, c.qp.pd(), Access.LOCAL_WRITE, w.sgList, w.sgeMrs, w.numSge)) return localError(c);
        // the 8 bytes land in host (little-endian) order, as on an x86 host, over the SGE list (rxe copy_data)
        if (atomicResult == null) atomicResult = engine.arena.allocate(8, 8);
        atomicResult.set(HOST_LONG, 0, p.atomicAckEth().orig());
        Sges.scatter(w.sgList, w.sgeMrs, w.numSge, 0, atomicResult, 0, 8);
        advance(c, Psn.add(psn, 1));
        c.reqOutstandingReadAtomic--;
        engine.completeSend(c, w, WcStatus.SUCCESS);
        return Outcome.ATOMIC_DONE;
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
                boolean inside = w.opcode.needsResponse() && Psn.diff(upTo, w.firstPsn) >= 0 && Psn.diff(upTo, c.compPsn) >= 0;
                return inside ? Through.INSIDE_RESPONSE : Through.COMPLETED;
            }
            if (w.opcode.needsResponse()) return Through.PAST_RESPONSE;
            int next = Psn.add(w.lastPsn, 1);
            engine.completeSend(c, w, WcStatus.SUCCESS);
            advance(c, next);
        }
    }

    /** The local buffer of a READ or atomic was deregistered or invalidated meanwhile (rxe: IB_WC_LOC_PROT_ERR). */
    private Outcome localError(QpContext c) {
        failHead(c, WcStatus.LOC_PROT_ERR);
        return Outcome.LOCAL_ERROR;
    }

    /** Forward progress: note the new oldest unacknowledged PSN and refill the retry budgets. */
    private void advance(QpContext c, int nextUnacked) {
        if (Psn.diff(nextUnacked, c.compPsn) > 0) c.compPsn = nextUnacked;
        c.compRetrying = false;
        c.compRetryLeft = c.qp.attr().retryCnt;
        c.compRnrRetryLeft = c.qp.attr().rnrRetry;
        boolean outstanding = c.compPsn != c.reqPsn;
        long t = Engine.timeoutNanos(c.qp.attr().timeout);
        c.retransmitDeadline = outstanding && t != QpContext.NEVER ? engine.now() + t : QpContext.NEVER;
    }

    /** A READ or atomic lost its response: go back to its first unanswered PSN. */
    private Outcome impliedNak(QpContext c) {
        SendWqe w = c.qp.sq().head();
        if (w == null || w.state == SendWqe.State.POSTED) {
            engine.counters.inc(Counter.DROP_GHOST_ACK);
            return Outcome.GHOST;
        }
        // responses already on their way from before the retry would each imply the same NAK (rxe: started_retry)
        if (c.compRetrying) return Outcome.DUPLICATE;
        int from = w.opcode == SendOpcode.RDMA_READ
                ? Psn.add(w.firstPsn, (int) (w.received / c.qp.mtuBytes())) : w.firstPsn;
        c.compPsn = from;
        return retry(c, from);
    }

    /** Go-back-N from {@code psn} if retry_cnt allows, else IBV_WC_RETRY_EXC_ERR. */
    private Outcome retry(QpContext c, int psn) {
        if (c.compRetryLeft <= 0) {
            engine.counters.inc(Counter.RETRY_EXCEEDED_ERR);
            failHead(c, WcStatus.RETRY_EXC_ERR);
            return Outcome.RETRY_EXCEEDED;
        }
        c.compRetryLeft--;
        c.compRetrying = true;
        engine.counters.inc(Counter.COMPLETER_RETRY_ERR);
        engine.requester.rewind(c, psn);
        return Outcome.RETRY;
    }

    /** The head WQE fails with {@code status}; the QP goes to ERR and the rest is flushed. */
    private void failHead(QpContext c, WcStatus status) {
        SendWqe w = c.qp.sq().head();
        // ERR first: a poller on another thread that sees the error completion then sees the QP in ERR too
        boolean wasErr = c.qp.state() == QpState.ERR;
        c.qp.state(QpState.ERR);
        if (w != null) engine.completeSend(c, w, status);
        if (!wasErr) engine.flush(c);
    }

    /** The local ACK timeout and the RNR wait. */
    void timers(QpContext c, long now) {
        if (c.rnrDeadline <= now) {
            c.rnrDeadline = QpContext.NEVER;
            engine.requester.rewind(c, c.rnrRetryPsn);
            engine.requester.run(c);
            return;
        }
        if (c.retransmitDeadline <= now) {
            c.retransmitDeadline = QpContext.NEVER;
            if (c.compPsn == c.reqPsn || c.qp.sq().isEmpty()) return;
            c.compRetrying = false; // a timeout always retries
            last = retry(c, c.compPsn);
            errorAtHead(c);
            engine.requester.run(c);
        }
    }
}
