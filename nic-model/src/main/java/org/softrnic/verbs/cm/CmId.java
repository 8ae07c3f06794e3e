package org.softrnic.verbs.cm;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;

/**
 * struct rdma_cm_id: one connection's end (or a listener), in rdma_cm's verbs. Each verb that starts
 * something ends in an event on the id's {@link EventChannel}; a verb out of turn is a
 * {@link org.softrnic.verbs.VerbsException} with EINVAL, as librdmacm returns it.
 */
public interface CmId extends AutoCloseable {
    /** rdma_bind_addr: the local address (and port; 0 picks one), which also picks the device. */
    void bind(InetSocketAddress local);

    /** rdma_resolve_addr: {@code source} may be null (the device that reaches {@code destination}); ends in ADDR_RESOLVED or ADDR_ERROR. */
    void resolveAddr(InetSocketAddress source, InetSocketAddress destination, Duration timeout);

    /** rdma_resolve_route: ends in ROUTE_RESOLVED or ROUTE_ERROR. */
    void resolveRoute(Duration timeout);

    /** rdma_listen: CONNECT_REQUEST events come for REQs to the bound port; on RoCE, as in the kernel, {@code backlog} bounds nothing. */
    void listen(int backlog);

    /** rdma_create_qp: an RC (or UD, on a UDP port space) QP on this id's device, moved to INIT for the connection. */
    QueuePair createQp(ProtectionDomain pd, QpInitAttr init);

    /** rdma_set_option(RDMA_OPTION_ID_TOS): the traffic class of the connection's packets (set before resolving the route). */
    void setTos(int tos);

    /** rdma_set_option(RDMA_OPTION_ID_ACK_TIMEOUT): the QP's local ACK timeout, in place of the one the CM derives. */
    void setAckTimeout(int timeout);

    /** rdma_connect (null: {@link ConnParam#DEFAULT}): ends in ESTABLISHED, REJECTED, UNREACHABLE or CONNECT_ERROR. */
    void connect(ConnParam param);

    /** rdma_accept on the id a CONNECT_REQUEST brought (null: the defaults): ends in ESTABLISHED. */
    void accept(ConnParam param);

    /** rdma_reject: REJ with reason 28 (consumer defined) and {@code privateData}. */
    void reject(byte[] privateData);

    /** rdma_disconnect: the QP to ERROR, then a DREQ (or the DREP the peer's DREQ waits for); ends in DISCONNECTED. */
    void disconnect();

    /** The verbs context of the id's device, once it has one (after bind or address resolution). */
    RdmaContext verbs();

    /** The QP {@link #createQp} made, or null. */
    QueuePair qp();

    InetSocketAddress localAddress();

    InetSocketAddress peerAddress();

    PortSpace portSpace();

    /** rdma_destroy_id. */
    @Override
    void close();
}
