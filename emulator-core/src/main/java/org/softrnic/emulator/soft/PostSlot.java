package org.softrnic.emulator.soft;

import java.lang.foreign.MemorySegment;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.SharedReceiveQueue;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendWr;

/**
 * One posted work request on its way from an application thread to the device's loop: the request already
 * checked and translated into the model's form, inline data already copied, and the queue room it took.
 */
final class PostSlot {
    enum Kind { NONE, SEND, RECV, SRQ_RECV }

    Kind kind = Kind.NONE;
    QueuePair qp;
    SharedReceiveQueue srq;
    /** The room the request holds in its queue, given back if the device refuses it after all. */
    QueueRoom room;
    final SendWr send;
    /** ibv_bind_mw's request: the engine's window and region, found on the posting thread. */
    org.softrnic.nic.mem.MemoryWindow bindWindow;
    org.softrnic.nic.mem.MemoryRegion bindRegion;
    final RecvWr recv;
    final byte[] inline;
    final MemorySegment inlineData;
    boolean hasInline;

    PostSlot(int maxSge, int maxInline) {
        send = new SendWr(maxSge);
        recv = new RecvWr(maxSge);
        inline = new byte[maxInline];
        inlineData = MemorySegment.ofArray(inline);
    }

    /** What a slot posted to, for a refusal: "QP 0x11 (wr_id 4)", "an SRQ (wr_id 4)". */
    static String describe(Kind kind, QueuePair qp, long wrId) {
        return switch (kind) {
            case SEND -> String.format("QP 0x%x (wr_id %d)", qp.qpn(), wrId);
            case RECV -> String.format("QP 0x%x's receive queue (wr_id %d)", qp.qpn(), wrId);
            case SRQ_RECV -> String.format("an SRQ (wr_id %d)", wrId);
            case NONE -> "nothing";
        };
    }

    /**
     * Posts the request to the model (on its thread). A request the model refuses (a VerbsException, thrown
     * before anything is queued) gives its room back and the refusal is thrown; so is a post to a QP
     * destroyed meanwhile.
     */
    void postTo(org.softrnic.nic.Nic nic) {
        try {
            // the QP's own flag, not a look-up by QPN: with thousands of QPs the device's map is a cache miss a post
            if ((kind == Kind.SEND || kind == Kind.RECV) && qp.destroyed()) {
                throw new org.softrnic.verbs.VerbsException(kind == Kind.SEND ? "ibv_post_send" : "ibv_post_recv",
                        org.softrnic.verbs.Errno.EINVAL, "QP 0x" + Integer.toHexString(qp.qpn()) + " was destroyed");
            }
            switch (kind) {
                case SEND -> {
                    if (bindWindow != null) nic.postBind(qp, send, bindWindow, bindRegion);
                    else nic.postSend(qp, send, hasInline ? inlineData : null);
                }
                case RECV -> nic.postRecv(qp, recv);
                case SRQ_RECV -> nic.postSrqRecv(srq, recv);
                case NONE -> { }
            }
        } catch (org.softrnic.verbs.VerbsException e) {
            // the model's checks refused it before queueing it; any other failure came after
            if (room != null) room.giveBack();
            throw e;
        } finally {
            clear();
        }
    }

    /**
     * Posts a receive (to a QP's own queue, or to an SRQ when {@code srq} is not null) through the runner:
     * copied, given room, published; a refusal publishes the slot empty and is thrown.
     */
    static void postRecv(Runner runner, RecvWr wr, QueueRoom room, QueuePair qp, SharedReceiveQueue srq) {
        long c = runner.claim();
        PostSlot s = runner.slot(c);
        try {
            Requests.copy(wr, s.recv);
            room.take();
            s.kind = srq != null ? Kind.SRQ_RECV : Kind.RECV;
            s.qp = qp;
            s.srq = srq;
            s.room = room;
        } catch (RuntimeException | Error e) {
            s.cancel(runner, c); // a claim is always published, or the loop would wait on it for ever
            throw e;
        }
        runner.publish(c);
    }

    /** Gives up a claimed slot: it is published empty, since the consumer takes slots strictly in order. */
    void cancel(Runner runner, long claim) {
        clear();
        runner.publish(claim);
    }

    void clear() {
        kind = Kind.NONE;
        qp = null;
        srq = null;
        room = null;
        hasInline = false;
        send.clearHandles();
        bindWindow = null;
        bindRegion = null;
    }
}
