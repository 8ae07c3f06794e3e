package org.softrnic.verbs.cm;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.VerbsException;

/**
 * A listening rdma_cm id with a channel of its own, whose {@link #accept} makes a whole {@link CmConnection} in
 * one call. Close the connections it made before it (their ids are on its channel).
 */
public final class CmListener implements AutoCloseable {
    private final EventChannel channel;
    private final CmId id;
    /** Requests that came while an accept waited for its RTU: the next accepts take them first. */
    private final ArrayDeque<CmEvent> requests = new ArrayDeque<>();

    private CmListener(EventChannel channel, CmId id) {
        this.channel = channel;
        this.id = id;
    }

    /** rdma_bind_addr and rdma_listen on {@code at} (rdma_cm's TCP port space). */
    public static CmListener listen(InetSocketAddress at) {
        EventChannel ch = RdmaCm.createEventChannel();
        CmId id = null;
        try {
            id = ch.createId(PortSpace.TCP);
            id.bind(at);
            id.listen(16);
            return new CmListener(ch, id);
        } catch (RuntimeException e) {
            if (id != null) id.close();
            ch.close();
            throw e;
        }
    }

    /** The next connection request, accepted with a new RC QP of {@code caps}; ETIMEDOUT when none came within {@code timeout}. */
    public CmConnection accept(QpCaps caps, ConnParam param, Duration timeout) throws InterruptedException {
        CmEvent request = requests.poll();
        long end = System.nanoTime() + timeout.toNanos();
        while (request == null) {
            long left = end - System.nanoTime();
            CmEvent e = left <= 0 ? null : channel.getEvent(Duration.ofNanos(left));
            if (e == null) throw new VerbsException("rdma_get_request", Errno.ETIMEDOUT, "no connection request within " + timeout.toSeconds() + " s");
            if (e.type() == CmEventType.CONNECT_REQUEST) request = e;
        }
        return CmConnection.accept(channel, request, caps, param, timeout, e -> {
            if (e.type() == CmEventType.CONNECT_REQUEST) requests.add(e);
        });
    }

    public InetSocketAddress localAddress() {
        return id.localAddress();
    }

    @Override
    public void close() {
        for (CmEvent e; (e = requests.poll()) != null; ) e.id().close(); // taken and never accepted: refused
        id.close();
        channel.close();
    }
}
