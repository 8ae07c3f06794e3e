package org.softrnic.nic.transport;

import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWqe;
import org.softrnic.nic.qp.SharedReceiveQueue;

/**
 * The receive WQE a message lands in (rxe's get_srq_wqe and the RQ's head): taken at the message's first
 * packet, released when it completes. A WQE from an SRQ is copied out, since its ring slot is free at once.
 */
final class RecvWqes {
    private final Engine engine;

    RecvWqes(Engine engine) {
        this.engine = engine;
    }

    /** The QP's next receive, now the message's (null when none is posted). */
    RecvWqe take(QpContext ctx) {
        QueuePair qp = ctx.qp;
        SharedReceiveQueue srq = qp.srq();
        if (srq == null) {
            if (qp.rq().isEmpty()) qp.rq().accept(); // posted since the device last answered the doorbell
            RecvWqe w = qp.rq().head();
            ctx.resp.wqe = w;
            ctx.resp.wqeFromSrq = false;
            return w;
        }
        if (srq.ring().isEmpty()) srq.ring().accept();
        RecvWqe head = srq.ring().head();
        if (head == null) return null;
        if (ctx.resp.srqCopy == null || ctx.resp.srqCopy.maxSge() < srq.maxSge()) ctx.resp.srqCopy = new RecvWqe(srq.maxSge());
        RecvWqe copy = ctx.resp.srqCopy;
        copy.copyFrom(head);
        srq.ring().pop();
        if (srq.limitReached()) engine.srqLimit(srq);
        ctx.resp.wqe = copy;
        ctx.resp.wqeFromSrq = true;
        return copy;
    }

    void release(QpContext ctx) {
        if (!ctx.resp.wqeFromSrq) ctx.qp.rq().pop();
        ctx.resp.wqe = null;
        ctx.respOffset(0);
    }
}
