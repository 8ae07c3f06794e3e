package org.softrnic.cli.perftest;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.cli.RunFailure;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.EventChannel;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.verbs.cm.RdmaCm;

/**
 * perftest -R's test QPs (create_rdma_cm_connection): each its own RDMA CM connection to the server's port, the
 * QP made on the id (rdma_create_qp) and moved to RTS by the CM; and their end (destroy_ctx): the client
 * disconnects each and waits for its DISCONNECTED, the server answers the client's DREQs as they come.
 */
final class CmTests implements AutoCloseable {
    /** perftest's MIN_RNR_TIMER, which its server sets on each QP after rdma_accept. */
    private static final int MIN_RNR_TIMER = 12;
    /** rdma_cm_client_connection: up to 10 attempts, 100 ms apart (the server may not listen yet). */
    private static final int ATTEMPTS = 10;

    private final boolean client;
    private final EventChannel channel = RdmaCm.createEventChannel();
    private final List<CmId> ids = new ArrayList<>();
    private final List<QueuePair> qps = new ArrayList<>();
    private CmId listener;
    /** The client's own address, the source of its connections. */
    private InetAddress local;

    private CmTests(boolean client) {
        this.client = client;
    }

    /** The server's side: listening on {@code port} before the barrier that lets the client connect. */
    static CmTests listen(InetAddress local, int port, int qps) {
        CmTests t = new CmTests(false);
        try {
            t.listener = t.channel.createId(PortSpace.TCP);
            t.listener.bind(new InetSocketAddress(local, port));
            t.listener.listen(qps);
            return t;
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
    }

    static CmTests client(InetAddress local) {
        CmTests t = new CmTests(true);
        t.local = local;
        return t;
    }

    List<QueuePair> qps() {
        return qps;
    }

    /**
     * rdma_cm_connect_events: the client resolves and connects {@code n} ids, making each QP as its route
     * resolves; the server accepts {@code n} requests, making each QP on the request's id. Both with perftest's
     * parameters: READ depths {@code reads} each way, retry and RNR retry 7.
     */
    void connect(InetAddress server, int port, int n, ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq,
                 org.softrnic.verbs.QpCaps caps, int reads) throws IOException {
        try {
            connectOrAccept(server, port, n, pd, sendCq, recvCq, caps, reads);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private void connectOrAccept(InetAddress server, int port, int n, ProtectionDomain pd, CompletionQueue sendCq,
                                 CompletionQueue recvCq, org.softrnic.verbs.QpCaps caps, int reads) throws IOException, InterruptedException {
        ConnParam param = new ConnParam(null, reads, reads, 0, 7, 7, false, 0);
        QpInitAttr init = new QpInitAttr(org.softrnic.verbs.QpType.RC, sendCq, recvCq, null, caps, false);
        if (!client) {
            accept(n, pd, init, param);
            return;
        }
        for (int attempt = 1; ; attempt++) {
            String failure = tryConnect(server, port, n, pd, init, param);
            if (failure == null) return;
            closeConnections();
            if (attempt == ATTEMPTS) throw new RunFailure("Failed to connect RDMA CM client, tried " + ATTEMPTS + " times: " + failure);
            Thread.sleep(100);
        }
    }

    /** One attempt of the client's: null when every connection is up, else what went wrong. */
    private String tryConnect(InetAddress server, int port, int n, ProtectionDomain pd, QpInitAttr init, ConnParam param)
            throws IOException, InterruptedException {
        for (int i = 0; i < n; i++) {
            CmId id = channel.createId(PortSpace.TCP);
            ids.add(id);
            id.resolveAddr(new InetSocketAddress(local, 0), new InetSocketAddress(server, port), Duration.ofMillis(2000));
        }
        int left = n;
        while (left > 0) {
            CmEvent e = next();
            if (!ids.contains(e.id())) continue; // an id of an attempt given up: its events come late
            switch (e.type()) {
                case ADDR_RESOLVED -> e.id().resolveRoute(Duration.ofMillis(2000));
                case ROUTE_RESOLVED -> {
                    qps.add(e.id().createQp(pd, init));
                    e.id().connect(param);
                }
                case ESTABLISHED -> left--;
                case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                    return "RDMA CM event error: Event: " + e.type() + "; error: " + e.status() + ".";
                }
                default -> { }
            }
        }
        return null;
    }

    /** rdma_cm_connection_request_handler, {@code n} times; a request past that is rejected. */
    private void accept(int n, ProtectionDomain pd, QpInitAttr init, ConnParam param) throws IOException, InterruptedException {
        while (qps.size() < n) {
            CmEvent e = next();
            if (e.type() != CmEventType.CONNECT_REQUEST) continue; // a previous connection's ESTABLISHED
            ids.add(e.id());
            QueuePair qp = e.id().createQp(pd, init);
            qps.add(qp);
            e.id().accept(param);
            QpAttr rnr = new QpAttr().state(QpState.RTS);
            rnr.minRnrTimer = MIN_RNR_TIMER;
            qp.modify(rnr, QpAttrMask.STATE | QpAttrMask.MIN_RNR_TIMER);
        }
        listener.close(); // rdma_cm_server_connection destroys its listen id once every QP is connected
        listener = null;
    }

    private CmEvent next() throws IOException, InterruptedException {
        CmEvent e = channel.getEvent(CmWire.CM_WAIT);
        if (e == null) throw new IOException("the RDMA CM brought no event within " + CmWire.CM_WAIT.toSeconds() + " s");
        return e;
    }

    /**
     * destroy_ctx's rdma_cm part. The client: rdma_disconnect on each, then its DISCONNECTED (the server's DREP).
     * The server: the client's DREQs answered as they come (rdma_disconnect sends the DREP), for a while at most.
     * Then every QP and id, and the channel.
     */
    @Override
    public void close() {
        try {
            int connected = qps.size();
            if (client) {
                for (CmId id : ids) {
                    try {
                        if (id.qp() != null) id.disconnect();
                    } catch (RuntimeException e) {
                        connected--; // never connected
                    }
                }
            }
            long end = System.nanoTime() + 15_000_000_000L;
            while (connected > 0 && System.nanoTime() < end) {
                CmEvent e = channel.getEvent(Duration.ofMillis(200));
                if (e != null && e.type() == CmEventType.CONNECT_REQUEST && !ids.contains(e.id())) e.id().close(); // refused
                if (e == null || e.type() != CmEventType.DISCONNECTED) continue;
                connected--;
                if (!client) e.id().disconnect();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // a peer gone: the objects are closed all the same
        } finally {
            closeConnections();
            if (listener != null) listener.close();
            channel.close();
        }
    }

    /** librdmacm's order: each QP (rdma_destroy_qp), then each id. */
    private void closeConnections() {
        for (QueuePair qp : qps) qp.close();
        qps.clear();
        for (CmId id : ids) id.close();
        ids.clear();
    }
}
