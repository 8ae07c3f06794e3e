package org.softrnic.emulator.soft;

import java.util.concurrent.atomic.AtomicLong;
import org.softrnic.nic.qp.Ring;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;

/**
 * The free room of a send, receive or shared receive queue, counted on the posting threads: requests
 * posted (CAS) minus requests the device has retired from its ring ({@link Ring#retired()}). A request that
 * is still on its way to the loop already holds its room, so the model's ring never overflows.
 */
final class QueueRoom {
    private final AtomicLong posted = new AtomicLong();
    private final Ring<?> ring;
    private final int capacity;
    private final String verb;
    private final String what;

    QueueRoom(Ring<?> ring, String verb, String what) {
        this.ring = ring;
        this.capacity = ring.capacity();
        this.verb = verb;
        this.what = what;
    }

    /** Takes one place, or fails with ENOMEM as rdma-core does on a full queue. */
    void take() {
        while (true) {
            long p = posted.get();
            if (p - ring.retired() >= capacity) {
                throw new VerbsException(verb, Errno.ENOMEM, what + " is full (" + capacity + " requests outstanding)");
            }
            if (posted.compareAndSet(p, p + 1)) return;
        }
    }

    /** Gives back a place taken by a request that was not posted after all. */
    void giveBack() {
        posted.decrementAndGet();
    }
}
