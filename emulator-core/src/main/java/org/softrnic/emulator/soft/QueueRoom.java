package org.softrnic.emulator.soft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.softrnic.nic.qp.Ring;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;

/**
 * The free room of a send, receive or shared receive queue, counted on the posting threads: requests
 * posted (CAS) minus requests the device has retired from its ring ({@link Ring#retired()}). A request that
 * is still on its way to the loop already holds its room, so the model's ring never overflows. Its count is
 * a field of its own and its words are made only for a refusal: with thousands of QPs each post reads one
 * object here, not three.
 */
final class QueueRoom {
    private volatile long posted;
    private final Ring<?> ring;
    private final int capacity;
    private final String verb;
    /** The queue's name before its owner's ("the send queue of "), or "" when the owner's name says it all. */
    private final String queue;
    private final SoftResource owner;
    private static final VarHandle POSTED;

    static {
        try {
            POSTED = MethodHandles.lookup().findVarHandle(QueueRoom.class, "posted", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    QueueRoom(Ring<?> ring, String verb, String queue, SoftResource owner) {
        this.ring = ring;
        this.capacity = ring.capacity();
        this.verb = verb;
        this.queue = queue;
        this.owner = owner;
    }

    /** Takes one place, or fails with ENOMEM as rdma-core does on a full queue. */
    void take() {
        while (true) {
            long p = posted;
            if (p - ring.retired() >= capacity) {
                throw new VerbsException(verb, Errno.ENOMEM, queue + owner.describe() + " is full (" + capacity + " requests outstanding)");
            }
            if (POSTED.compareAndSet(this, p, p + 1)) return;
        }
    }

    /** Gives back a place taken by a request that was not posted after all. */
    void giveBack() {
        POSTED.getAndAdd(this, -1L);
    }
}
