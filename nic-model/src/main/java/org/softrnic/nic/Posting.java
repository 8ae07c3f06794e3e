package org.softrnic.nic;

import static org.softrnic.nic.VerbChecks.error;

import java.util.function.IntFunction;
import org.softrnic.nic.mem.KeyTable;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.nic.qp.InlineData;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWqe;
import org.softrnic.nic.qp.Ring;
import org.softrnic.nic.qp.SendWqe;
import org.softrnic.nic.qp.SharedReceiveQueue;
import org.softrnic.nic.transport.Engine;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;

/**
 * ibv_post_send and ibv_post_recv as a provider and its device split them. The poster checks a request and
 * writes it once, into its queue's next WQE ({@link #writeSend}, {@link #writeRecv}), then publishes it and rings
 * the doorbell; the device answers the doorbell ({@link #doorbell}): the WQEs become live and the engine runs, or
 * flushes them on a QP in ERR or SQE, as rxe does. The writing side reads only what may be read off the device's
 * thread (the QP's type, caps and volatile state, a region table made for it); the device's own posts (the model
 * used alone, the CM on QP1) take both steps on its thread.
 */
final class Posting {
    private final KeyTable keys;
    private final Engine engine;

    Posting(KeyTable keys, Engine engine) {
        this.keys = keys;
        this.engine = engine;
    }

    /**
     * Writes {@code wr} into the send queue's next WQE, with the engine's objects its handles name, and returns it
     * to be published. Refusals are thrown before anything is published.
     *
     * @param typeOneBind the request is ibv_bind_mw's, for a type 1 window
     * @param window   a bind's window, found by the poster (null: found here by its rkey, on the device's thread)
     * @param lkeys    the regions by lkey, for inline data
     */
    static SendWqe writeSend(QueuePair qp, SendWr wr, boolean typeOneBind, MemoryWindow window, MemoryRegion region,
                             IntFunction<MemoryRegion> lkeys, KeyTable keys) {
        String verb = "ibv_post_send";
        Ring<SendWqe> sq = qp.sq();
        if (sq.full()) throw error(verb, Errno.ENOMEM, "the send queue of " + name(qp) + " is full (max_send_wr " + qp.caps().maxSendWr() + ")");
        long length = VerbChecks.send(qp, wr, typeOneBind);
        SendWqe w = sq.claim();
        boolean inline = (wr.sendFlags & SendFlags.INLINE) != 0;
        if (w.copyFrom(wr, qp.type() == QpType.UD)) resolve(verb, wr, w.rare, window, region, keys);
        w.length = length;
        w.isInline = inline;
        w.state = SendWqe.State.POSTED;
        w.status = null;
        if (inline) {
            String bad = InlineData.copy(wr, qp.pd(), lkeys, w.inline);
            if (bad != null) throw error(verb, Errno.EINVAL, bad);
        }
        return w;
    }

    /** Writes {@code wr} into the QP's (or, when {@code qp} is null, the SRQ's) next receive WQE, and returns it. */
    static RecvWqe writeRecv(QueuePair qp, SharedReceiveQueue srq, RecvWr wr) {
        Ring<RecvWqe> ring = qp != null ? qp.rq() : srq.ring();
        if (qp != null) VerbChecks.recv(qp, wr);
        else VerbChecks.srqRecv(srq, wr);
        if (ring.full()) {
            throw qp != null ? error("ibv_post_recv", Errno.ENOMEM, "the receive queue of " + name(qp) + " is full (max_recv_wr " + qp.caps().maxRecvWr() + ")")
                    : error("ibv_post_srq_recv", Errno.ENOMEM, "the SRQ is full (max_wr " + ring.capacity() + ")");
        }
        RecvWqe w = ring.claim();
        w.copyFrom(wr);
        return w;
    }

    private static String name(QueuePair qp) {
        return qp.type() + " QP 0x" + Integer.toHexString(qp.qpn());
    }

    /** The device's own post: written, published and answered on its thread. */
    void send(QueuePair qp, SendWr wr, MemoryWindow window, MemoryRegion region) {
        writeSend(qp, wr, window != null, window, region, keys::byLkey, keys);
        qp.sq().publish();
        doorbell(qp);
    }

    void recv(QueuePair qp, SharedReceiveQueue srq, RecvWr wr) {
        Ring<RecvWqe> ring = qp != null ? qp.rq() : srq.ring();
        writeRecv(qp, srq, wr);
        ring.publish();
        if (qp != null) doorbell(qp);
        else ring.accept();
    }

    /**
     * The doorbell: what was published becomes live. Sends start (or are flushed at once on a QP in ERR or SQE,
     * as rxe does); receives are flushed on a QP in ERR, else wait for their messages. Requests that a destroy or a
     * reset to RESET overtook (checked before it, published after it) are dropped, as it would have refused them:
     * returns how many.
     */
    int doorbell(QueuePair qp) {
        if (qp.destroyed() || qp.state() == QpState.RESET) {
            int lost = qp.sq().pending() + (qp.rq() == null ? 0 : qp.rq().pending());
            qp.sq().clear();
            if (qp.rq() != null) qp.rq().clear();
            return lost;
        }
        if (qp.sq().accept() > 0) {
            QpState s = qp.state();
            if (s == QpState.ERR || s == QpState.SQE) engine.flushSends(qp);
            else engine.sendQueued(qp);
        }
        if (qp.rq() != null && qp.rq().accept() > 0) engine.recvQueued(qp);
        return 0;
    }

    /**
     * The engine's objects the request's handles name: a window by its rkey and a region by its lkey (as rxe
     * finds a bind's window by its rkey), the address vector of a UD send's address handle.
     */
    private static void resolve(String verb, SendWr wr, SendWqe.Rare w, MemoryWindow window, MemoryRegion region, KeyTable keys) {
        w.udAv = wr.ah == null ? null : wr.ah.attr();
        w.window = window;
        w.windowRegion = region;
        w.fastReg = null;
        if (wr.opcode == SendOpcode.BIND_MW && window == null) {
            if (keys == null) throw error(verb, Errno.EINVAL, "a poster off the device's thread names the window it binds");
            w.window = keys.windowByRkey(wr.bindMw.rkey());
            w.windowRegion = keys.byLkey(wr.bindMr.lkey());
            if (w.window == null) throw error(verb, Errno.EINVAL, String.format("no memory window with rkey 0x%x", wr.bindMw.rkey()));
            if (w.windowRegion == null) throw error(verb, Errno.EINVAL, String.format("no memory region with lkey 0x%x", wr.bindMr.lkey()));
        }
        if (wr.opcode == SendOpcode.REG_MR) {
            if (keys == null) throw error(verb, Errno.EINVAL, "REG_MR is posted on the device's thread");
            w.fastReg = keys.byLkey(wr.regMr.lkey());
            if (w.fastReg == null || !w.fastReg.isFastReg()) {
                throw error(verb, Errno.EINVAL, "REG_MR needs a region from allocMr and the memory to map");
            }
        }
    }
}
