package org.softrnic.nic.qp;

import org.softrnic.nic.mem.ProtectionDomain;

/**
 * A shared receive queue. When its fill level drops below an armed limit, it raises IBV_EVENT_SRQ_LIMIT_REACHED
 * once and disarms, as ibv_modify_srq's srq_limit specifies.
 */
public final class SharedReceiveQueue {
    private final int handle;
    private final ProtectionDomain pd;
    private final Ring<RecvWqe> ring;
    private final int maxSge;
    private int limit;
    private int users;

    public SharedReceiveQueue(int handle, ProtectionDomain pd, int maxWr, int maxSge, int limit) {
        this.handle = handle;
        this.pd = pd;
        this.maxSge = maxSge;
        this.ring = new Ring<>(maxWr, i -> new RecvWqe(maxSge));
        this.limit = limit;
    }

    public int handle() { return handle; }
    public ProtectionDomain pd() { return pd; }
    public Ring<RecvWqe> ring() { return ring; }
    public int maxSge() { return maxSge; }
    public int limit() { return limit; }
    public void arm(int newLimit) { this.limit = newLimit; }
    public int users() { return users; }
    public void attach() { users++; }
    public void detach() { users--; }

    /** True once when the queue has fallen below the armed limit; the limit is then disarmed. */
    public boolean limitReached() {
        if (limit > 0 && ring.outstanding() < limit) {
            limit = 0;
            return true;
        }
        return false;
    }
}
