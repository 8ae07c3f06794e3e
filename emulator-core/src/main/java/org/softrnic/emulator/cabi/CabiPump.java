package org.softrnic.emulator.cabi;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What makes a verbs event source a file descriptor a C program can poll(): a thread that waits on the source and, for
 * each event, queues it and adds one to an eventfd; the verb that reads an event (ibv_get_cq_event,
 * ibv_get_async_event, rdma_get_cm_event) takes one from the fd, blocking as a read of the kernel's does, then the
 * event. Close the source first; then {@link #close} stops the thread and closes the fd.
 */
final class CabiPump<T> implements AutoCloseable {
    /** The source: its next event within {@code wait}, or null. */
    interface Source<T> {
        T next(Duration wait) throws InterruptedException;
    }

    final CabiFd fd = new CabiFd();
    private final ConcurrentLinkedQueue<T> events = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;
    private final Thread thread;

    CabiPump(String name, Source<T> source) {
        thread = Thread.ofPlatform().daemon().name(name).start(() -> run(name, source));
    }

    private void run(String name, Source<T> source) {
        while (!closed) {
            try {
                T e = source.next(Duration.ofMillis(200));
                if (e == null) continue;
                events.add(e);
                fd.post();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!closed) System.err.println("softrnic: " + name + ": " + e.getMessage());
                return;
            }
        }
    }

    /** Waits for an event and takes it; null when the fd failed. A count whose event was discarded is skipped. */
    T take() {
        while (fd.take()) {
            T e = events.poll();
            if (e != null) return e;
        }
        return null;
    }

    /**
     * Drops the queued events {@code which} selects, which the program never read: a destroyed object's, as the kernel
     * drops them from its event file. How many went.
     */
    int discard(java.util.function.Predicate<T> which) {
        int n = 0;
        for (var it = events.iterator(); it.hasNext();) {
            if (which.test(it.next())) {
                it.remove();
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() {
        closed = true;
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        fd.close();
    }
}
