package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.time.Duration;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.PortSpace;

/**
 * struct rdma_cm_id through librdmacm: each verb is librdmacm's, its result an event on the channel. The id's
 * verbs context is librdmacm's own (id->verbs); a QP made here is rdma_create_qp's, and closing it clears
 * id->qp as rdma_destroy_qp does. Every native call runs under the id's monitor, which close takes too.
 */
final class IbvCmId implements CmId {
    private static final short AF_INET = 2, AF_INET6 = 10;
    private static final int SOCKADDR_IN6 = 28;

    final MemorySegment ptr;
    private final IbvEventChannel channel;
    private final PortSpace ps;
    private volatile QueuePair qp;
    private boolean closed;

    IbvCmId(IbvEventChannel channel, MemorySegment ptr, PortSpace ps) {
        this.channel = channel;
        this.ptr = ptr;
        this.ps = ps;
    }

    private String describe() {
        return "rdma_cm id " + localAddress() + " -> " + peerAddress();
    }

    /** The pointer for a verb about to use it; callers hold the monitor. */
    private MemorySegment live(String verb) {
        if (closed) throw new VerbsException(verb, Errno.EINVAL, "the id is closed");
        return ptr;
    }

    @Override
    public synchronized void bind(InetSocketAddress local) {
        try (Arena a = Arena.ofConfined()) {
            RdmaCmLib.check("rdma_bind_addr", local.toString(), RdmaCmLib.get().bindAddr, live("rdma_bind_addr"), sockaddr(a, local));
        }
    }

    @Override
    public synchronized void resolveAddr(InetSocketAddress source, InetSocketAddress destination, Duration timeout) {
        if (destination == null) throw new VerbsException("rdma_resolve_addr", Errno.EINVAL, "no destination");
        try (Arena a = Arena.ofConfined()) {
            RdmaCmLib.check("rdma_resolve_addr", destination.toString(), RdmaCmLib.get().resolveAddr, live("rdma_resolve_addr"),
                    source == null ? MemorySegment.NULL : sockaddr(a, source), sockaddr(a, destination), (int) timeout.toMillis());
        }
    }

    @Override
    public synchronized void resolveRoute(Duration timeout) {
        RdmaCmLib.check("rdma_resolve_route", describe(), RdmaCmLib.get().resolveRoute, live("rdma_resolve_route"), (int) timeout.toMillis());
    }

    @Override
    public synchronized void listen(int backlog) {
        RdmaCmLib.check("rdma_listen", describe(), RdmaCmLib.get().listen, live("rdma_listen"), backlog);
    }

    /** rdma_create_qp: on the id's device, with a PD of {@link #verbs()}; librdmacm moves it as rdma_cm wants. */
    @Override
    public synchronized QueuePair createQp(ProtectionDomain pd, QpInitAttr init) {
        IbvPd p = IbvResource.own(pd, IbvPd.class, "rdma_create_qp");
        if (qp != null) throw new VerbsException("rdma_create_qp", Errno.EINVAL, "the id has a QP already");
        MemorySegment id = live("rdma_create_qp");
        QueuePair made = p.createQp(init, attr -> {
            RdmaCmLib.check("rdma_create_qp", describe(), RdmaCmLib.get().createQp, id, p.live("rdma_create_qp"), attr);
            return id.get(ADDRESS, CM_ID_QP);
        });
        ((IbvQp) made).afterDestroy = () -> forgetQp(made);
        qp = made;
        return made;
    }

    /** rdma_destroy_qp's part after ibv_destroy_qp: id->qp is NULL again, and a new QP may be made. */
    private synchronized void forgetQp(QueuePair gone) {
        if (qp != gone) return;
        if (!closed) ptr.set(ADDRESS, CM_ID_QP, MemorySegment.NULL);
        qp = null;
    }

    @Override
    public void setTos(int tos) {
        option(RdmaCmLib.OPTION_ID_TOS, tos, "a ToS is 0..255, not ");
    }

    @Override
    public void setAckTimeout(int timeout) {
        if (timeout < 0 || timeout > 31) throw new VerbsException("rdma_set_option", Errno.EINVAL, "an ACK timeout is 0..31, not " + timeout);
        option(RdmaCmLib.OPTION_ID_ACK_TIMEOUT, timeout, "");
    }

    private synchronized void option(int name, int value, String range) {
        if (value < 0 || value > 0xff) throw new VerbsException("rdma_set_option", Errno.EINVAL, range + value);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(1);
            v.set(JAVA_BYTE, 0, (byte) value);
            RdmaCmLib.check("rdma_set_option", describe(), RdmaCmLib.get().setOption, live("rdma_set_option"), RdmaCmLib.OPTION_ID, name, v, 1L);
        }
    }

    @Override
    public synchronized void connect(ConnParam param) {
        try (Arena a = Arena.ofConfined()) {
            RdmaCmLib.check("rdma_connect", describe(), RdmaCmLib.get().connect, live("rdma_connect"), connParam(a, param));
        }
    }

    @Override
    public synchronized void accept(ConnParam param) {
        // librdmacm reads conn_param->qp_num when the id has no QP: NULL would be read through
        if (qp == null && (param == null || param.qpNum() == 0)) {
            throw new VerbsException("rdma_accept", Errno.EINVAL, "no QP: make one on the id (rdma_create_qp), or name its number");
        }
        try (Arena a = Arena.ofConfined()) {
            RdmaCmLib.check("rdma_accept", describe(), RdmaCmLib.get().accept, live("rdma_accept"), connParam(a, param));
        }
    }

    @Override
    public synchronized void reject(byte[] privateData) {
        byte[] pd = privateData == null ? new byte[0] : privateData;
        if (pd.length > 0xff) throw new VerbsException("rdma_reject", Errno.EINVAL, "private data of " + pd.length + " bytes");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment data = pd.length == 0 ? MemorySegment.NULL : a.allocateFrom(JAVA_BYTE, pd);
            RdmaCmLib.check("rdma_reject", describe(), RdmaCmLib.get().reject, live("rdma_reject"), data, pd.length);
        }
    }

    @Override
    public synchronized void disconnect() {
        RdmaCmLib.check("rdma_disconnect", describe(), RdmaCmLib.get().disconnect, live("rdma_disconnect"));
    }

    /** librdmacm's context for the id's device, once it has one (after bind or address resolution). */
    @Override
    public synchronized RdmaContext verbs() {
        MemorySegment v = live("rdma_cm_id").get(ADDRESS, CM_ID_VERBS);
        return v.address() == 0 ? null : channel.context(v);
    }

    @Override
    public QueuePair qp() {
        return qp;
    }

    @Override
    public InetSocketAddress localAddress() {
        return address(CM_ID_SRC);
    }

    @Override
    public InetSocketAddress peerAddress() {
        return address(CM_ID_DST);
    }

    @Override
    public PortSpace portSpace() {
        return ps;
    }

    /** rdma_destroy_id, once its QP is closed (librdmacm's order: rdma_destroy_qp first), else EBUSY. */
    @Override
    public synchronized void close() {
        if (closed) return;
        if (qp != null) throw new VerbsException("rdma_destroy_id", Errno.EBUSY, describe() + " still has its QP: close the QP first");
        RdmaCmLib.check("rdma_destroy_id", describe(), RdmaCmLib.get().destroyId, ptr);
        closed = true;
        channel.ids.remove(ptr.address());
    }

    /** NULL for the defaults (librdmacm's: the device's READ depths, retry 7, RNR retry 7), else the struct. */
    private static MemorySegment connParam(Arena a, ConnParam p) {
        if (p == null || p == ConnParam.DEFAULT) return MemorySegment.NULL;
        MemorySegment s = a.allocate(CONN_PARAM_SIZE, 8);
        byte[] pd = p.privateData();
        if (pd.length > 0xff) throw new VerbsException("rdma_connect", Errno.EINVAL, "private data of " + pd.length + " bytes");
        s.set(ADDRESS, CP_PRIVATE_DATA, pd.length == 0 ? MemorySegment.NULL : a.allocateFrom(JAVA_BYTE, pd));
        s.set(JAVA_BYTE, CP_PRIVATE_DATA_LEN, (byte) pd.length);
        s.set(JAVA_BYTE, CP_RESPONDER_RESOURCES, (byte) p.responderResources());
        s.set(JAVA_BYTE, CP_INITIATOR_DEPTH, (byte) p.initiatorDepth());
        s.set(JAVA_BYTE, CP_FLOW_CONTROL, (byte) p.flowControl());
        s.set(JAVA_BYTE, CP_RETRY_COUNT, (byte) Math.min(7, p.retryCount()));
        s.set(JAVA_BYTE, CP_RNR_RETRY_COUNT, (byte) Math.min(7, p.rnrRetryCount()));
        s.set(JAVA_BYTE, CP_SRQ, (byte) (p.srq() ? 1 : 0));
        s.set(JAVA_INT, CP_QP_NUM, p.qpNum());
        return s;
    }

    /** struct sockaddr_in or sockaddr_in6, port in network order. */
    private static MemorySegment sockaddr(Arena a, InetSocketAddress at) {
        MemorySegment s = a.allocate(SOCKADDR_IN6, 8);
        boolean v4 = at.getAddress() instanceof Inet4Address;
        s.set(JAVA_SHORT, 0, v4 ? AF_INET : AF_INET6);
        s.set(JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2, (short) at.getPort());
        byte[] raw = at.getAddress().getAddress();
        MemorySegment.copy(raw, 0, s, JAVA_BYTE, v4 ? 4 : 8, raw.length);
        return s;
    }

    /** The id's source or destination address, as librdmacm keeps it; null when it has none yet. */
    private synchronized InetSocketAddress address(long at) {
        if (closed) return null;
        MemorySegment s = ptr.asSlice(at, SOCKADDR_IN6);
        short family = s.get(JAVA_SHORT, 0);
        if (family != AF_INET && family != AF_INET6) return null;
        int port = Short.toUnsignedInt(s.get(JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 2));
        byte[] raw = s.asSlice(family == AF_INET ? 4 : 8, family == AF_INET ? 4 : 16).toArray(JAVA_BYTE);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(raw), port);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
