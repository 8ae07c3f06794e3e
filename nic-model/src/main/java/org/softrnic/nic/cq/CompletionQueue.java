package org.softrnic.nic.cq;

/**
 * A completion queue: a ring of preallocated work completions. When it is full, the next completion
 * overflows it: the CQ goes into error (IBV_EVENT_CQ_ERR) and the device moves its QPs to ERR.
 */
public final class CompletionQueue {
    /** Arming for the next completion event, as ibv_req_notify_cq's solicited_only argument. */
    public enum Notify { NONE, NEXT_COMPLETION, SOLICITED }

    private final int handle;
    private final WorkCompletion[] ring;
    private int head;
    private int count;
    private boolean overflowed;
    private Notify armed = Notify.NONE;
    private int users;
    private Runnable eventHandler = () -> { };

    public CompletionQueue(int handle, int cqe) {
        this.handle = handle;
        this.ring = new WorkCompletion[cqe];
        for (int i = 0; i < cqe; i++) ring[i] = new WorkCompletion();
    }

    public int handle() { return handle; }
    /** The number of entries, as ibv_create_cq reports it in cqe. */
    public int capacity() { return ring.length; }
    public int size() { return count; }
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

    /**
     * The slot for the next completion, or null when the CQ is full (it is then in error). The caller
     * fills the slot and then calls {@link #commit(boolean)}.
     */
    public WorkCompletion reserve() {
        if (overflowed) return null;
        if (count == ring.length) {
            overflowed = true;
            return null;
        }
        return ring[(head + count) % ring.length].clear();
    }

    public void commit(boolean solicited) {
        count++;
        WorkCompletion wc = ring[(head + count - 1) % ring.length];
        if (armed == Notify.NEXT_COMPLETION || (armed == Notify.SOLICITED && (solicited || wc.status != WcStatus.SUCCESS))) {
            armed = Notify.NONE;
            eventHandler.run();
        }
    }

    /** Copies up to {@code out.length} completions into the caller's objects; returns how many. */
    public int poll(WorkCompletion[] out) {
        return poll(out, out.length);
    }

    public int poll(WorkCompletion[] out, int max) {
        int n = Math.min(max, count);
        for (int i = 0; i < n; i++) {
            out[i].copyFrom(ring[head]);
            head = (head + 1) % ring.length;
        }
        count -= n;
        return n;
    }
}
