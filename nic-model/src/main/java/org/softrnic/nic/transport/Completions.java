package org.softrnic.nic.transport;

import org.softrnic.nic.Counter;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWqe;
import org.softrnic.nic.qp.Ring;
import org.softrnic.nic.qp.SendWqe;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * Work completions and the error transitions that end in them (rxe_comp.c's do_complete and the flush of a
 * QP that enters ERR): the requester, responder and completer write completions here, not in the engine.
 */
final class Completions {
    private final Engine engine;

    Completions(Engine engine) {
        this.engine = engine;
    }

    /**
     * Retires the head WQE: pops it, then writes its completion when it is signaled or failed. The pop comes
     * first because a full CQ moves the QP to ERR, which flushes whatever is still queued.
     */
    void send(QpContext c, SendWqe w, WcStatus status) {
        QueuePair qp = c.qp;
        long wrId = w.wrId;
        WcOpcode opcode = w.opcode.wcOpcode;
        int byteLen = (int) w.length;
        boolean report = status != WcStatus.SUCCESS || w.signaled(qp.sqSigAll());
        if (status == WcStatus.SUCCESS) countSend(w);
        w.state = status == WcStatus.SUCCESS ? SendWqe.State.DONE : SendWqe.State.ERROR;
        qp.sq().pop();
        if (c.reqIndex > 0) c.reqIndex--;
        if (c.reqStarted > 0) c.reqStarted--;
        if (report) {
            WorkCompletion wc = reserve(qp.sendCq());
            if (wc != null) {
                wc.wrId = wrId;
                wc.status = status;
                wc.opcode = opcode;
                wc.byteLen = byteLen;
                wc.qpNum = qp.qpn();
                qp.sendCq().commit(false);
            }
        }
    }

    private void countSend(SendWqe w) {
        if (w.opcode.isSend()) engine.counters.inc(Counter.RDMA_SENDS);
    }

    /** A receive completion slot on the QP's receive CQ, or null when that CQ overflowed. */
    WorkCompletion reserve(CompletionQueue cq) {
        WorkCompletion wc = cq.reserve();
        if (wc == null && cq.overflowed()) cqOverflow(cq);
        return wc;
    }

    private void cqOverflow(CompletionQueue cq) {
        engine.event(AsyncEvent.Type.CQ_ERR, cq);
        java.util.ArrayList<QpContext> affected = new java.util.ArrayList<>();
        engine.contexts.forEachValue(c -> {
            if ((c.qp.sendCq() == cq || c.qp.recvCq() == cq) && c.qp.state() != QpState.ERR) affected.add(c);
        });
        for (QpContext c : affected) toError(c, AsyncEvent.Type.QP_FATAL);
    }

    /** Writes a receive completion; the caller has already released the WQE (see {@link #send}). */
    void recv(QpContext c, long wrId, WcStatus status, WcOpcode opcode, int byteLen, int imm, int flags,
                      int srcQp, boolean solicited) {
        QueuePair qp = c.qp;
        WorkCompletion wc = reserve(qp.recvCq());
        if (wc != null) {
            wc.wrId = wrId;
            wc.status = status;
            wc.opcode = opcode;
            wc.byteLen = byteLen;
            wc.immData = imm;
            wc.wcFlags = flags;
            wc.qpNum = qp.qpn();
            wc.srcQp = srcQp;
            qp.recvCq().commit(solicited);
        }
        if (status == WcStatus.SUCCESS) engine.counters.inc(Counter.RDMA_RECVS);
    }

    /**
     * A local send-queue error: RC QPs go to ERR; UC and UD QPs go to SQE, where the send queue is flushed
     * but receives go on, until modify_qp takes them back to RTS (IBTA 10.3.1.6).
     */
    void sendQueueError(QpContext c, AsyncEvent.Type event) {
        QueuePair qp = c.qp;
        if (qp.type() == QpType.RC || qp.state() == QpState.ERR) {
            toError(c, event);
            return;
        }
        c.state(QpState.SQE);
        if (event != null) engine.event(event, qp);
        flushSendQueue(c);
    }

    /** Moves the QP to ERR, raises the affiliated event, and flushes its queues. */
    void toError(QpContext c, AsyncEvent.Type event) {
        if (c.qp.state() == QpState.ERR) return;
        c.state(QpState.ERR);
        if (event != null) engine.event(event, c.qp);
        flush(c);
    }

    /**
     * Completes every outstanding WQE of an ERR QP with IBV_WC_WR_FLUSH_ERR, as rxe does on entering ERR. A QP
     * on an SRQ flushes the SRQ WQE it was filling, then has no WQE left: IBV_EVENT_QP_LAST_WQE_REACHED
     * (the IBTA: the QP is in ERR and no more WQEs are on its receive queue).
     */
    void flush(QpContext c) {
        QueuePair qp = c.qp;
        flushSendQueue(c);
        if (c.resp.wqe != null) {
            // a partly received message's WQE: an RQ's is still at the head and flushed with the rest; an
            // SRQ's was taken from the SRQ, so it is flushed here
            if (c.resp.wqeFromSrq) recv(c, c.resp.wqe.wrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, 0, 0, false);
            c.resp.wqe = null;
            c.respOffset(0);
        }
        if (qp.srq() != null && !c.resp.lastWqeReached) {
            c.resp.lastWqeReached = true;
            engine.event(AsyncEvent.Type.QP_LAST_WQE_REACHED, qp);
        }
        Ring<RecvWqe> rq = qp.rq();
        if (rq != null) {
            while (!rq.isEmpty()) {
                long wrId = rq.head().wrId;
                rq.pop();
                recv(c, wrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, 0, 0, false);
            }
        }
    }

    void flushSendQueue(QpContext c) {
        QueuePair qp = c.qp;
        c.disarmTimers();
        while (!qp.sq().isEmpty()) {
            SendWqe w = qp.sq().head();
            send(c, w, w.state == SendWqe.State.ERROR && w.status != null ? w.status : WcStatus.WR_FLUSH_ERR);
        }
        c.reqIndex = 0;
        c.reqStarted = 0;
        c.outstandingReadAtomic = 0;
        // every way into ERR or SQE comes here: the QP's share of the device's window goes with its sends
        engine.txWindow.recount(c);
    }
}
