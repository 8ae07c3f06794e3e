package org.softrnic.emulator.cabi;

import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;

/**
 * A context's asynchronous events: its async_fd is an eventfd the program may poll, which a pump feeds from the verbs
 * context's events; ibv_get_async_event takes one and names the QP, CQ or port it concerns.
 */
final class CabiAsync {
    /** One context's pump. */
    static final class Pump {
        final RdmaContext ctx;
        final CabiFd fd = new CabiFd();
        final ConcurrentLinkedQueue<AsyncEvent> events = new ConcurrentLinkedQueue<>();
        volatile boolean closed;
        final Thread thread;

        Pump(RdmaContext ctx) {
            this.ctx = ctx;
            this.thread = Thread.ofPlatform().daemon().name("softrnic-async").start(this::run);
        }

        private void run() {
            while (!closed) {
                try {
                    AsyncEvent e = ctx.getAsyncEvent(Duration.ofMillis(200));
                    if (e == null) continue;
                    events.add(e);
                    fd.post();
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    if (!closed) System.err.println("softrnic: async events: " + e.getMessage());
                    return;
                }
            }
        }

        void close() {
            closed = true;
            try {
                thread.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            fd.close();
        }
    }

    /** Each context's pump, by its async fd. */
    static final ConcurrentHashMap<Integer, Pump> PUMPS = new ConcurrentHashMap<>();

    private CabiAsync() {
    }

    static Pump start(RdmaContext ctx) {
        Pump p = new Pump(ctx);
        PUMPS.put(p.fd.fd, p);
        return p;
    }

    static void stop(Pump p) {
        PUMPS.remove(p.fd.fd);
        p.close();
    }

    /** Blocks until the context has an event, as a read of the kernel's async fd does; -1 when it fails. */
    static int ibv_get_async_event(MemorySegment context, MemorySegment event) {
        Pump p = PUMPS.get(context.reinterpret(CONTEXT_SIZE).get(ValueLayout.JAVA_INT, CONTEXT_ASYNC_FD));
        if (p == null || !p.fd.take()) return -1;
        AsyncEvent e = p.events.poll();
        if (e == null) return -1;
        MemorySegment ev = event.reinterpret(ASYNC_EVENT_SIZE).fill((byte) 0);
        ev.set(ValueLayout.JAVA_INT, AE_EVENT_TYPE, e.type().ordinal());
        switch (e.subject()) {
            case QueuePair qp -> {
                for (var q : CabiQps.QPS.all()) if (q.qp == qp) ev.set(ValueLayout.ADDRESS, AE_ELEMENT, q.struct);
            }
            case CompletionQueue cq -> {
                var c = CabiCqs.BY_QUEUE.get(cq);
                if (c != null) ev.set(ValueLayout.ADDRESS, AE_ELEMENT, c.struct);
            }
            case null, default -> ev.set(ValueLayout.JAVA_INT, AE_ELEMENT, 1); // a port's event: element.port_num
        }
        return 0;
    }

    /** Nothing waits on acknowledged events here: a destroy does not wait for them, as the kernel's may. */
    static void ibv_ack_async_event(MemorySegment event) {
    }
}
