package org.softrnic.emulator.soft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReference;
import org.softrnic.nic.Nic;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.SharedReceiveQueue;

/**
 * The queues whose doorbell rang since the device last answered: a poster publishes its WQE, then rings; the
 * device takes the whole list in one exchange and answers each queue once, however many posts it missed. A bell is
 * on the list at most once (its own flag says so), and the list links the bells themselves: ringing allocates
 * nothing. The device clears a bell's flag before it reads the queue, and a poster publishes before it reads the
 * flag, so a post is never left unanswered (both are volatile).
 */
final class Doorbells {
    /** One queue's bell: a QP's send and receive queues, or an SRQ. */
    static final class Bell {
        final QueuePair qp;
        final SharedReceiveQueue srq;
        @SuppressWarnings("unused") // through RUNG
        private volatile int rung;
        private Bell next;

        Bell(QueuePair qp, SharedReceiveQueue srq) {
            this.qp = qp;
            this.srq = srq;
        }
    }

    private static final VarHandle RUNG;

    static {
        try {
            RUNG = MethodHandles.lookup().findVarHandle(Bell.class, "rung", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AtomicReference<Bell> top = new AtomicReference<>();

    /** Rings {@code b}; true when it was not on the list yet (the device may need waking). */
    boolean ring(Bell b) {
        if (b.rung != 0 || !RUNG.compareAndSet(b, 0, 1)) return false;
        Bell t;
        do {
            t = top.get();
            b.next = t;
        } while (!top.compareAndSet(t, b));
        return true;
    }

    boolean isEmpty() {
        return top.get() == null;
    }

    /**
     * Answers every bell rung so far (device thread): the published requests go live. A QP destroyed or reset
     * meanwhile takes nothing more; what was published to it is counted on {@code dropped}. Returns the bells
     * answered. If answering one throws, the bells after it go back on the list, rung, before the throw.
     */
    int answer(Nic nic, Dropped dropped) {
        if (top.get() == null) return 0; // a read, not an exchange, on an idle turn
        int n = 0;
        for (Bell b = top.getAndSet(null); b != null; n++) {
            Bell next = b.next;
            b.next = null;
            RUNG.setVolatile(b, 0);
            try {
                answer(b, nic, dropped);
            } catch (RuntimeException | Error e) {
                requeue(next);
                throw e;
            }
            b = next;
        }
        return n;
    }

    private static void answer(Bell b, Nic nic, Dropped dropped) {
        if (b.srq != null) {
            nic.doorbell(b.srq);
            return;
        }
        int lost = nic.doorbell(b.qp);
        if (lost > 0) dropped.dropped(b.qp, lost, b.qp.destroyed() ? "ibv_destroy_qp" : "ibv_modify_qp to RESET");
    }

    private void requeue(Bell chain) {
        while (chain != null) {
            Bell next = chain.next;
            chain.next = null;
            RUNG.setVolatile(chain, 0);
            ring(chain);
            chain = next;
        }
    }

    /** Hears requests published to a QP that a destroy or a reset overtook before the device took them. */
    interface Dropped {
        void dropped(QueuePair qp, int requests, String overtaken);
    }
}
