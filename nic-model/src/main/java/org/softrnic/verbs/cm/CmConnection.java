package org.softrnic.verbs.cm;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.VerbsException;

/**
 * An RC connection made in one call, as librdmacm's rdma_create_ep and rdma_connect (or rdma_get_request and
 * rdma_accept) make one: the id, a PD and one CQ on the id's context, and the QP, connected; {@link #close}
 * disconnects and frees them all, the QP first. {@link #connect} opens a channel of its own; a connection a
 * {@link CmListener} accepted shares the listener's.
 */
public final class CmConnection implements AutoCloseable {
    private final EventChannel ownChannel;
    private final CmId id;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final byte[] privateData;

    private CmConnection(EventChannel ownChannel, CmId id, ProtectionDomain pd, CompletionQueue cq, QueuePair qp, byte[] privateData) {
        this.ownChannel = ownChannel;
        this.id = id;
        this.pd = pd;
        this.cq = cq;
        this.qp = qp;
        this.privateData = privateData;
    }

    /**
     * Connects to {@code server} (rdma_cm's TCP port space): address, route, the objects, rdma_connect, and the
     * wait for ESTABLISHED, each step within {@code timeout}. A refusal is a VerbsException: REJECTED (ECONNREFUSED's
     * place) with its REJ reason, UNREACHABLE as ETIMEDOUT.
     */
    public static CmConnection connect(InetSocketAddress server, QpCaps caps, ConnParam param, Duration timeout) {
        EventChannel ch = RdmaCm.createEventChannel();
        CmId id = null;
        Made m = null;
        try {
            id = ch.createId(PortSpace.TCP);
            id.resolveAddr(null, server, timeout);
            expect(ch, id, CmEventType.ADDR_RESOLVED, timeout, "rdma_resolve_addr");
            id.resolveRoute(timeout);
            expect(ch, id, CmEventType.ROUTE_RESOLVED, timeout, "rdma_resolve_route");
            m = made(id, caps);
            id.connect(param);
            CmEvent e = expect(ch, id, CmEventType.ESTABLISHED, timeout, "rdma_connect");
            return new CmConnection(ch, id, m.pd, m.cq, m.qp, e.privateData());
        } catch (RuntimeException | InterruptedException e) {
            if (m != null) m.close();
            if (id != null) id.close();
            ch.close();
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            if (e instanceof RuntimeException r) throw r; // as it came: a refusal's own type and words
            throw new VerbsException("rdma_connect", Errno.EINTR, "interrupted while connecting");
        }
    }

    /** rdma_accept of a request a listener took: the objects on its id, accept, and the wait for ESTABLISHED. */
    static CmConnection accept(EventChannel ch, CmEvent request, QpCaps caps, ConnParam param, Duration timeout,
                               java.util.function.Consumer<CmEvent> others) throws InterruptedException {
        CmId id = request.id();
        Made m = null;
        try {
            m = made(id, caps);
            id.accept(param);
            while (true) {
                CmEvent e = ch.getEvent(timeout);
                if (e == null) throw new VerbsException("rdma_accept", Errno.ETIMEDOUT, "no RTU came within " + timeout.toSeconds() + " s");
                if (e.id() != id) {
                    others.accept(e); // another connection's: the listener keeps it
                    continue;
                }
                if (e.type() == CmEventType.ESTABLISHED) return new CmConnection(null, id, m.pd, m.cq, m.qp, request.privateData());
                throw new VerbsException("rdma_accept", Errno.ECONNREFUSED, e.toString());
            }
        } catch (RuntimeException | InterruptedException e) {
            if (m != null) m.close();
            id.close();
            throw e;
        }
    }

    private record Made(ProtectionDomain pd, CompletionQueue cq, QueuePair qp) {
        void close() {
            qp.close();
            cq.close();
            pd.close();
        }
    }

    /** A PD and one CQ on the id's context (librdmacm's rdma_create_qp wants a PD of it), and the RC QP. */
    private static Made made(CmId id, QpCaps caps) {
        ProtectionDomain pd = id.verbs().allocPd();
        CompletionQueue cq = null;
        try {
            cq = id.verbs().createCq(caps.maxSendWr() + caps.maxRecvWr());
            return new Made(pd, cq, id.createQp(pd, QpInitAttr.rc(cq, caps)));
        } catch (RuntimeException e) {
            if (cq != null) cq.close();
            pd.close();
            throw e;
        }
    }

    /** The next event of {@code id}, which must be {@code type}: else a VerbsException named for {@code verb}. */
    private static CmEvent expect(EventChannel ch, CmId id, CmEventType type, Duration timeout, String verb) throws InterruptedException {
        CmEvent e = ch.getEvent(timeout);
        if (e == null) throw new VerbsException(verb, Errno.ETIMEDOUT, "no " + type + " within " + timeout.toSeconds() + " s");
        if (e.type() == type) return e;
        if (e.type() == CmEventType.REJECTED) {
            throw new VerbsException(verb, Errno.ECONNREFUSED, id.peerAddress() + " refused the connection: REJ reason " + e.status());
        }
        if (e.type() == CmEventType.UNREACHABLE) throw new VerbsException(verb, Errno.ETIMEDOUT, id.peerAddress() + " did not answer");
        throw new VerbsException(verb, Errno.EINVAL, e + " where " + type + " was due");
    }

    public CmId id() {
        return id;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    /** The QP's one CQ, for its sends and its receives. */
    public CompletionQueue cq() {
        return cq;
    }

    public QueuePair qp() {
        return qp;
    }

    /** What the peer's REP (for a client) or REQ (for a server) carried. */
    public byte[] privateData() {
        return privateData.clone();
    }

    /** rdma_disconnect (when still connected), then the QP, CQ, PD and id, and a channel of its own. */
    @Override
    public void close() {
        try {
            id.disconnect();
        } catch (VerbsException e) {
            // the peer disconnected first, or the connection never was: nothing to say
        }
        qp.close();
        cq.close();
        pd.close();
        id.close();
        if (ownChannel != null) ownChannel.close();
    }
}
