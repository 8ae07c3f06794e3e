package org.softrnic.nic;

import static org.softrnic.nic.VerbChecks.error;

import java.lang.foreign.MemorySegment;
import org.softrnic.nic.mem.KeyTable;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.nic.qp.InlineData;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWqe;
import org.softrnic.nic.qp.SendWqe;
import org.softrnic.nic.transport.Engine;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;

/** ibv_post_send and ibv_post_recv: a request into its queue's next WQE, then to the engine. */
final class Posting {
    private final KeyTable keys;
    private final Engine engine;

    Posting(KeyTable keys, Engine engine) {
        this.keys = keys;
        this.engine = engine;
    }

    /**
     * Posts {@code wr}: checked, copied into the send queue's next WQE with the engine's objects its handles
     * name, then queued (or flushed at once on a QP in ERR or SQE, as rxe does).
     */
    void send(QueuePair qp, SendWr wr, MemorySegment inlineData, MemoryWindow window, MemoryRegion region) {
        String verb = "ibv_post_send";
        org.softrnic.nic.qp.Ring<SendWqe> sq = qp.sq();
        SendWqe w = qp.sqTail(); // a load from the QP, beside the ring's, not after it
        if (sq.isFull()) throw error(verb, Errno.ENOMEM, "send queue is full (max_send_wr " + qp.caps().maxSendWr() + ")");
        long length = VerbChecks.send(qp, wr, window != null);
        boolean inline = (wr.sendFlags & SendFlags.INLINE) != 0;
        if (w == null) w = sq.tail(); // the ring makes the slot
        if (copy(wr, w, length, inline, qp.type() == QpType.UD)) resolve(verb, wr, w.rare, window, region);
        if (inline && inlineData != null) MemorySegment.copy(inlineData, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, w.inline, 0, (int) length);
        else if (inline) copyInline(verb, qp, wr, w);
        sq.push();
        QpState s = qp.state();
        if (s == QpState.ERR || s == QpState.SQE) engine.flushSends(qp); // flushed at once, as rxe does
        else engine.sendQueued(qp);
    }

    /** Copies {@code wr} into {@code w}; returns whether it needs the WQE's rare part resolved. */
    private static boolean copy(SendWr wr, SendWqe w, long length, boolean inline, boolean ud) {
        boolean rare = w.copyFrom(wr, ud);
        w.length = length;
        w.isInline = inline;
        w.state = SendWqe.State.POSTED;
        w.status = null;
        return rare;
    }

    /**
     * The engine's objects the request's handles name: a window by its rkey and a region by its lkey (as rxe
     * finds a bind's window by its rkey), the address vector of a UD send's address handle.
     */
    private void resolve(String verb, SendWr wr, SendWqe.Rare w, MemoryWindow window, MemoryRegion region) {
        w.udAv = wr.ah == null ? null : wr.ah.attr();
        w.window = window;
        w.windowRegion = region;
        w.fastReg = null;
        if (wr.opcode == SendOpcode.BIND_MW && window == null) {
            w.window = keys.windowByRkey(wr.bindMw.rkey());
            w.windowRegion = keys.byLkey(wr.bindMr.lkey());
            if (w.window == null) throw error(verb, Errno.EINVAL, String.format("no memory window with rkey 0x%x", wr.bindMw.rkey()));
            if (w.windowRegion == null) throw error(verb, Errno.EINVAL, String.format("no memory region with lkey 0x%x", wr.bindMr.lkey()));
        }
        if (wr.opcode == SendOpcode.REG_MR) {
            w.fastReg = keys.byLkey(wr.regMr.lkey());
            if (w.fastReg == null || !w.fastReg.isFastReg()) {
                throw error(verb, Errno.EINVAL, "REG_MR needs a region from allocMr and the memory to map");
            }
        }
    }

    private void copyInline(String verb, QueuePair qp, SendWr wr, SendWqe w) {
        String bad = InlineData.copy(wr, qp.pd(), keys::byLkey, w.inline);
        if (bad != null) throw error(verb, Errno.EINVAL, bad);
    }

    void recv(QueuePair qp, RecvWr wr) {
        String verb = "ibv_post_recv";
        VerbChecks.recv(qp, wr);
        if (qp.rq().isFull()) throw error(verb, Errno.ENOMEM, "receive queue is full (max_recv_wr " + qp.caps().maxRecvWr() + ")");
        RecvWqe w = qp.rq().tail();
        w.copyFrom(wr);
        qp.rq().push();
        engine.recvQueued(qp);
    }
}
