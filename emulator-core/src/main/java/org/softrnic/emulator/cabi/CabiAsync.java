package org.softrnic.emulator.cabi;

import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentHashMap;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;

/**
 * A context's asynchronous events: its async_fd is a {@link CabiPump}'s eventfd, fed from the verbs context's events;
 * ibv_get_async_event takes one and names the QP, CQ or port it concerns.
 */
final class CabiAsync {
    /** Each context's pump, by its async fd. */
    static final ConcurrentHashMap<Integer, CabiPump<AsyncEvent>> PUMPS = new ConcurrentHashMap<>();

    private CabiAsync() {
    }

    static CabiPump<AsyncEvent> start(RdmaContext ctx) {
        CabiPump<AsyncEvent> p = new CabiPump<>("softrnic-async", ctx::getAsyncEvent);
        PUMPS.put(p.fd.fd, p);
        return p;
    }

    static void stop(CabiPump<AsyncEvent> p) {
        PUMPS.remove(p.fd.fd);
        p.close();
    }

    /** Blocks until the context has an event, as a read of the kernel's async fd does; -1 when it fails. */
    static int ibv_get_async_event(MemorySegment context, MemorySegment event) {
        CabiPump<AsyncEvent> p = PUMPS.get(context.reinterpret(CONTEXT_SIZE).get(ValueLayout.JAVA_INT, CONTEXT_ASYNC_FD));
        AsyncEvent e = p == null ? null : p.take();
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
            case org.softrnic.verbs.SharedReceiveQueue srq -> {
                for (var q : CabiSrqs.SRQS.all()) if (q.srq == srq) ev.set(ValueLayout.ADDRESS, AE_ELEMENT, q.struct);
            }
            case null, default -> ev.set(ValueLayout.JAVA_INT, AE_ELEMENT, 1); // a port's event: element.port_num
        }
        return 0;
    }

    /** Nothing waits on acknowledged events here: a destroy does not wait for them, as the kernel's may. */
    static void ibv_ack_async_event(MemorySegment event) {
    }
}
