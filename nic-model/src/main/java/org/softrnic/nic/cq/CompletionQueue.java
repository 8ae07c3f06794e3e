package org.softrnic.nic.cq;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * A completion queue: a ring of preallocated work completions. When it is full, the next completion
 * overflows it: the CQ goes into error (IBV_EVENT_CQ_ERR) and the device moves its QPs to ERR.
 *
 * <p>One thread produces (the device's engine); any number of threads may {@link #poll} and
 * {@link #requestNotify} at the same time, without locks. Each slot carries a sequence number (a bounded
 * queue in the manner of D. Vyukov's): {@code pos} when free for the producer at {@code pos},
 * {@code pos + 1} once filled, and {@code pos + capacity} again after a consumer has copied it out.
 */
public final class CompletionQueue {
    /** Arming for the next completion event, as ibv_req_notify_cq's solicited_only argument. */
    public enum Notify { NONE, NEXT_COMPLETION, SOLICITED }

    private static final VarHandle SEQ = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle HEAD;
    private static final VarHandle ARMED;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(CompletionQueue.class, "head", long.class);
            ARMED = MethodHandles.lookup().findVarHandle(CompletionQueue.class, "armed", Notify.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int handle;
    /** The completions it holds, as ibv_create_cq reports them. */
    private final int cqe;
    /** At least two slots: with one, a slot's "filled" sequence would read as its next lap's "free". */
    private final WorkCompletion[] ring;
    private final long[] seq;
    /** Producer only. */
    private long tail;
    private volatile long head;
    private volatile boolean overflowed;
    private volatile Notify armed = Notify.NONE;
    private int users;
    private Runnable eventHandler = () -> { };

    public CompletionQueue(int handle, int cqe) {
        this.handle = handle;
        this.cqe = cqe;
        int slots = Math.max(2, cqe);
        this.ring = new WorkCompletion[slots];
        this.seq = new long[slots];
        for (int i = 0; i < slots; i++) {
            ring[i] = new WorkCompletion();
            seq[i] = i;
        }
    }

    public int handle() { return handle; }
    /** The number of entries, as ibv_create_cq reports it in cqe. */
    public int capacity() { return cqe; }
    /** Completions not yet polled (a snapshot when other threads poll). */
    public int size() { return (int) Math.max(0, tail - head); }
    public boolean overflowed() { return overflowed; }
    public int users() { return users; }
    public void attach() { users++; }
    public void detach() { users--; }

    /** Called on the engine thread when an armed CQ gets a completion that matches its arming. */
    public void onEvent(Runnable handler) {
        this.eventHandler = handler;
    }

    public void requestNotify(boolean solicitedOnly) {
        armed = solicitedOnly ? Notify.SOLICITED : Notify.NEXT_COMPLETION;
    }

    private int index(long pos) {
        return (int) (pos % ring.length);
    }

    /**
     * The slot for the next completion, or null when the CQ is full (it is then in error). The caller
     * fills the slot and then calls {@link #commit(boolean)}.
     */
    public WorkCompletion reserve() {
        if (overflowed) return null;
        if (tail - head >= cqe) {
            overflowed = true;
            return null;
        }
        int i = index(tail);
        // a poller has taken this slot's last entry but not yet copied it out: it is about to be free
        while ((long) SEQ.getAcquire(seq, i) != tail) Thread.onSpinWait();
        return ring[i].clear();
    }

    public void commit(boolean solicited) {
        int i = index(tail);
        WorkCompletion wc = ring[i];
        boolean error = wc.status != WcStatus.SUCCESS;
        // volatile, so that reading the arming below cannot overtake it: a poller that arms and then finds the
        // CQ empty must see this completion raise its event
        SEQ.setVolatile(seq, i, tail + 1);
        tail++;
        Notify a = armed;
        if ((a == Notify.NEXT_COMPLETION || (a == Notify.SOLICITED && (solicited || error)))
                && ARMED.compareAndSet(this, a, Notify.NONE)) {
            eventHandler.run();
        }
    }

    /** Copies up to {@code out.length} completions into the caller's objects; returns how many. */
    public int poll(WorkCompletion[] out) {
        return poll(out, out.length);
    }

    public int poll(WorkCompletion[] out, int max) {
        int limit = Math.min(max, out.length);
        while (true) {
            long h = head;
            int n = 0;
            while (n < limit && (long) SEQ.getAcquire(seq, index(h + n)) == h + n + 1) n++;
            if (n == 0) return 0;
            if (!HEAD.compareAndSet(this, h, h + n)) continue; // another poller took them first
            for (int k = 0; k < n; k++) {
                int i = index(h + k);
                out[k].copyFrom(ring[i]);
                SEQ.setRelease(seq, i, h + k + ring.length);
            }
            return n;
        }
    }
}
