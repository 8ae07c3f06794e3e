package org.softrnic.nic.cm;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.softrnic.nic.Nic;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.CmaHeader;

/**
 * rdma_cm on one device, as the kernel's cma.c and librdmacm together run it for a QP made on the id: ports
 * and service IDs, the CMA header in the REQ, the REQ and REP fields mapped onto the QP's attributes (the
 * PSN each side expects, the READ depths swapped and bounded, MTU, retries, ACK timeout), and the CM's
 * events turned into RDMA_CM_EVENT_*. Runs on the device's thread, below a provider's public ids.
 */
public final class Cma {
    static final int ETIMEDOUT = -110, EINVAL = -22;
    /** RDMA_UDP_QKEY: the Q_Key of every RDMA_PS_UDP QP (cma_set_default_qkey), sent in the SIDR_REP. */
    public static final int RDMA_UDP_QKEY = 0x01234567;
    /** ip_local_port_range's default: where an id that connects without a port gets one. */
    private static final int EPHEMERAL_FIRST = 32768, EPHEMERAL_LAST = 60999;

    final Nic nic;
    final CmAgent cm;
    final Random random;
    final Consumer<CmaEvent> events;
    private final Map<Long, CmaId> ports = new HashMap<>();
    /** What the CM's events do to the ids (cma.c's handlers). */
    private final CmaEvents cmEvents = new CmaEvents(this);

    public Cma(Nic nic, CmAgent cm, long seed, Consumer<CmaEvent> events) {
        this.nic = nic;
        this.cm = cm;
        this.random = new Random(seed);
        this.events = events;
    }

    public Nic nic() {
        return nic;
    }

    public CmaId createId(PortSpace ps, Object context) {
        return new CmaId(ps, random.nextInt() & 0xffffff, context);
    }

    /** rdma_bind_addr: an address of this device (the wildcard: its first GID) and a free port (0: one is picked). */
    public void bind(CmaId id, InetSocketAddress at) {
        String verb = "rdma_bind_addr";
        expect(id, verb, CmaState.IDLE);
        Gid gid = at.getAddress().isAnyLocalAddress() ? nic.gids().getFirst() : Gid.of(at.getAddress());
        if (!nic.gids().contains(gid)) throw new VerbsException(verb, Errno.EADDRNOTAVAIL, at.getAddress().getHostAddress() + " is not an address of " + nic.config().name());
        int port = at.getPort();
        if (port == 0) port = ephemeral(id.ps);
        else if (ports.containsKey(key(id.ps, port))) throw new VerbsException(verb, Errno.EADDRINUSE, id.ps + " port " + port + " is bound");
        ports.put(key(id.ps, port), id);
        id.localGid = gid;
        id.local = new InetSocketAddress(at.getAddress().isAnyLocalAddress() ? at.getAddress() : gid.toInetAddress(), port);
        id.state = CmaState.ADDR_BOUND;
    }

    /** rdma_resolve_addr: RoCE needs no query beyond the device's own addresses (the link resolves MACs itself). */
    public void resolveAddr(CmaId id, InetSocketAddress source, InetSocketAddress destination) {
        String verb = "rdma_resolve_addr";
        if (id.state == CmaState.IDLE) bind(id, source != null ? source : new InetSocketAddress(sourceFor(destination).toInetAddress(), 0));
        expect(id, verb, CmaState.ADDR_BOUND);
        if (id.local.getAddress().isAnyLocalAddress()) {
            id.localGid = sourceFor(destination);
            id.local = new InetSocketAddress(id.localGid.toInetAddress(), id.local.getPort());
        }
        id.peer = destination;
        id.peerGid = Gid.of(destination.getAddress());
        id.state = CmaState.ADDR_RESOLVED;
        events.accept(new CmaEvent(CmEventType.ADDR_RESOLVED, id, null, 0, null, null));
    }

    /**
     * The local address a route to {@code destination} leaves from: one of its family (IPv4-mapped for IPv4),
     * not link-local for a global destination, as the kernel's source address selection picks it.
     */
    private Gid sourceFor(InetSocketAddress destination) {
        boolean v4 = destination.getAddress() instanceof java.net.Inet4Address;
        boolean linkLocal = destination.getAddress().isLinkLocalAddress();
        for (Gid g : nic.gids()) {
            if (v4 == g.isIpv4Mapped() && (v4 || linkLocal == g.toInetAddress().isLinkLocalAddress())) return g;
        }
        return nic.gids().getFirst();
    }

    /**
     * rdma_resolve_route: the path is the two GIDs, hop limit 64, and the port's MTU fitted to the link's IP MTU
     * (iboe_get_mtu: a 1500-byte link gives 1024).
     */
    public void resolveRoute(CmaId id) {
        expect(id, "rdma_resolve_route", CmaState.ADDR_RESOLVED);
        Mtu mtu = nic.config().activeMtu();
        int ipMtu = nic.linkIpMtu();
        if (ipMtu > 0) {
            Mtu fits = Mtu.forIpMtu(ipMtu, !id.localGid.isIpv4Mapped());
            if (fits.bytes < mtu.bytes) mtu = fits;
        }
        id.pathMtu = mtu;
        id.state = CmaState.ROUTE_RESOLVED;
        events.accept(new CmaEvent(CmEventType.ROUTE_RESOLVED, id, null, 0, null, null));
    }

    public void listen(CmaId id) {
        if (id.state == CmaState.IDLE) bind(id, new InetSocketAddress(nic.gids().getFirst().toInetAddress(), 0));
        expect(id, "rdma_listen", CmaState.ADDR_BOUND);
        id.ib = cm.createId(cmEvents::ib);
        id.ib.context = id;
        cm.listen(id.ib, id.ps.serviceId(id.local.getPort()));
        id.state = CmaState.LISTEN;
    }

    /**
     * rdma_create_qp's part: the QP belongs to the id; an RC QP goes to INIT (ucma_init_conn_qp), a UD QP of
     * RDMA_PS_UDP straight to RTS with Q_Key {@link #RDMA_UDP_QKEY} (ucma_init_ud_qp).
     */
    public void attachQp(CmaId id, QueuePair qp) {
        if (id.qp != null) throw new VerbsException("rdma_create_qp", Errno.EINVAL, "the id has a QP already");
        QpType wanted = id.ps == PortSpace.UDP ? QpType.UD : QpType.RC;
        if (qp.type() != wanted) throw new VerbsException("rdma_create_qp", Errno.EINVAL, id.ps.cmName() + " takes " + wanted + " QPs, not " + qp.type());
        id.qp = qp;
        if (wanted == QpType.UD) {
            QpAttr a = new QpAttr();
            a.qpState = QpState.INIT;
            a.pkeyIndex = 0;
            a.portNum = 1;
            a.qkey = RDMA_UDP_QKEY;
            nic.modifyQp(qp, a, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY);
            nic.modifyQp(qp, new QpAttr().state(QpState.RTR), QpAttrMask.STATE);
            QpAttr rts = new QpAttr().state(QpState.RTS);
            rts.sqPsn = 0;
            nic.modifyQp(qp, rts, QpAttrMask.STATE | QpAttrMask.SQ_PSN);
            return;
        }
        QpAttr a = new QpAttr();
        a.qpState = QpState.INIT;
        a.pkeyIndex = 0;
        a.portNum = 1;
        a.qpAccessFlags = Access.REMOTE_WRITE;
        nic.modifyQp(qp, a, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
    }

    public void setTos(CmaId id, int tos) {
        id.tos = tos;
    }

    /** rdma_set_option(ACK_TIMEOUT): rdma_init_qp_attr puts it in place of the CM's at RTS, on either side. */
    public void setAckTimeout(CmaId id, int timeout) {
        id.ackTimeout = timeout;
    }

    /**
     * rdma_connect: the REQ, with the CMA header and the parameters bounded as librdmacm bounds them; on
     * RDMA_PS_UDP the SIDR_REQ, with the CMA header (cma_resolve_ib_udp).
     */
    public void connect(CmaId id, ConnParam p) {
        String verb = "rdma_connect";
        expect(id, verb, CmaState.ROUTE_RESOLVED);
        if (id.ps == PortSpace.UDP) {
            resolveUd(id, p.privateData());
            return;
        }
        if (id.qp == null) throw new VerbsException(verb, Errno.EINVAL, "make the QP on the id first (rdma_create_qp)");
        byte[] user = p.privateData();
        int room = CmMessage.REQ.privateDataSize() - CmaHeader.SIZE;
        if (user.length > room) throw new VerbsException(verb, Errno.EINVAL, "a REQ carries " + room + " bytes of private data, not " + user.length);
        int rr = depth(verb, p.responderResources(), nic.queryDevice().maxQpRdAtom());
        int depth = depth(verb, p.initiatorDepth(), nic.queryDevice().maxQpInitRdAtom());
        id.param = new ConnParam(user, rr, depth, p.flowControl(), Math.min(7, p.retryCount()), Math.min(7, p.rnrRetryCount()),
                p.srq(), 0);
        byte[] pd = cmaPrivateData(id, user);
        int flowLabel = flowLabel(id);
        id.ib = cm.createId(cmEvents::ib);
        id.ib.context = id;
        id.state = CmaState.CONNECT;
        cm.sendReq(id.ib, new CmReq(id.ps.serviceId(id.peer.getPort()), id.qp.qpn(), 0, id.seqNum, rr, depth,
                id.param.retryCount(), id.param.rnrRetryCount(), id.qp.srq() != null, id.pathMtu, id.localGid, id.peerGid,
                flowLabel, id.tos, 64, CmTimeouts.CMA_IBOE_PACKET_LIFETIME, CmTimeouts.CMA_CM_RESPONSE_TIMEOUT,
                CmTimeouts.CMA_CM_RESPONSE_TIMEOUT, CmTimeouts.CMA_MAX_CM_RETRIES, pd));
    }

    /**
     * The SIDR_REQ: the CMA header and the user's data, 4096 ms apart, 1 + 15 times. The route's flow label is
     * the one RC's REQ carries (cma_resolve_iboe_route sets it for every port space).
     */
    private void resolveUd(CmaId id, byte[] user) {
        String verb = "rdma_connect";
        int room = CmMessage.SIDR_REQ.privateDataSize() - CmaHeader.SIZE;
        if (user.length > room) throw new VerbsException(verb, Errno.EINVAL, "a SIDR_REQ carries " + room + " bytes of private data, not " + user.length);
        id.ib = cm.createId(cmEvents::ib);
        id.ib.context = id;
        id.state = CmaState.CONNECT;
        cm.sendSidrReq(id.ib, id.ps.serviceId(id.peer.getPort()), route(id), CmTimeouts.toNanos(CmTimeouts.SIDR_TIMEOUT),
                CmTimeouts.CMA_MAX_CM_RETRIES, cmaPrivateData(id, user));
    }

    /** The path to the peer as the route holds it: the two GIDs, the flow label, hop limit 64, the ToS. */
    AddressVector route(CmaId id) {
        int sgid = nic.gids().indexOf(id.localGid);
        return new AddressVector(id.peerGid, Math.max(sgid, 0), flowLabel(id), 64, id.tos);
    }

    /** cma_get_roce_udp_flow_label: from the two ports, so that rxe spreads connections over UDP source ports. */
    private static int flowLabel(CmaId id) {
        return (id.local.getPort() * 31 + id.peer.getPort()) & 0xfffff;
    }

    /** The CMA header (cma_format_hdr) and then the user's private data. */
    private static byte[] cmaPrivateData(CmaId id, byte[] user) {
        byte[] pd = new byte[CmaHeader.SIZE + user.length];
        new CmaHeader(0, id.localGid.isIpv4Mapped() ? 4 : 6, id.local.getPort(), id.local.getAddress(), id.peer.getAddress())
                .write(MemorySegment.ofArray(pd), 0);
        System.arraycopy(user, 0, pd, CmaHeader.SIZE, user.length);
        return pd;
    }

    /** rdma_accept: the QP to RTR and RTS from the REQ, then the REP (librdmacm's order); on RDMA_PS_UDP the SIDR_REP. */
    public void accept(CmaId id, ConnParam p) {
        String verb = "rdma_accept";
        expect(id, verb, CmaState.CONNECT);
        if (id.ps == PortSpace.UDP) {
            if (id.ib == null || id.ib.state() != CmState.SIDR_REQ_RCVD) {
                throw new VerbsException(verb, Errno.EINVAL, "only an id a CONNECT_REQUEST brought is accepted");
            }
            int qpn = live(id) != null ? id.qp.qpn() : p.qpNum(); // without a QP on the id: conn_param's qp_num
            if (qpn == 0) throw new VerbsException(verb, Errno.EINVAL, "no QP: make one on the id, or name its number");
            byte[] pd = p.privateData();
            int room = CmMessage.SIDR_REP.privateDataSize();
            if (pd.length > room) throw new VerbsException(verb, Errno.EINVAL, "a SIDR_REP carries " + room + " bytes of private data, not " + pd.length);
            cm.sendSidrRep(id.ib, CmAgent.SIDR_SUCCESS, qpn, RDMA_UDP_QKEY, pd);
            return;
        }
        if (id.ib == null || (id.ib.state() != CmState.REQ_RCVD && id.ib.state() != CmState.MRA_REQ_SENT)) {
            throw new VerbsException(verb, Errno.EINVAL, "only an id a CONNECT_REQUEST brought is accepted");
        }
        if (id.qp == null) throw new VerbsException(verb, Errno.EINVAL, "make the QP on the id first (rdma_create_qp)");
        // librdmacm's defaults: what the REQ asked for, bounded by the device
        int rr = p.responderResources() == ConnParam.MAX ? Math.min(id.reqInitiatorDepth, nic.queryDevice().maxQpRdAtom())
                : depth(verb, p.responderResources(), nic.queryDevice().maxQpRdAtom());
        int depth = p.initiatorDepth() == ConnParam.MAX ? Math.min(id.reqResponderResources, nic.queryDevice().maxQpInitRdAtom())
                : depth(verb, p.initiatorDepth(), nic.queryDevice().maxQpInitRdAtom());
        if (id.reqMtu == null) throw new VerbsException(verb, Errno.EINVAL, "the REQ's path MTU code " + id.reqMtuCode + " names no MTU");
        AddressVector av = id.ib.peer();
        toRts(id.qp, rr, av, id.reqMtu, id.reqQpn, id.seqNum, id.reqPsn, depth, id.reqRetry, id.reqRnrRetry,
                id.ackTimeout >= 0 ? id.ackTimeout : Math.max(1, id.reqAckTimeout)); // av.timeout: (t - 1) + 1, and 1 for 0
        cm.sendRep(id.ib, new CmRep(id.qp.qpn(), id.seqNum, rr, depth, Math.min(7, p.rnrRetryCount()), id.qp.srq() != null,
                CmTimeouts.LOCAL_CA_ACK_DELAY, p.privateData()));
    }

    /** rdma_reject: REJ 28 with the private data; on RDMA_PS_UDP a SIDR_REP with status 2 (IB_SIDR_REJECT). */
    public void reject(CmaId id, byte[] privateData) {
        if (id.ib == null) throw new VerbsException("rdma_reject", Errno.EINVAL, "only an id a CONNECT_REQUEST brought is rejected");
        byte[] pd = privateData == null ? new byte[0] : privateData;
        if (id.ps == PortSpace.UDP) cm.sendSidrRep(id.ib, CmAgent.SIDR_REJECT, 0, 0, pd);
        else cm.sendRej(id.ib, CmAgent.REJ_CONSUMER_DEFINED, new byte[0], pd);
        id.state = CmaState.IDLE;
    }

    /** rdma_disconnect: the QP to ERROR, then a DREQ, or the DREP when the peer's DREQ came first. */
    public void disconnect(CmaId id) {
        String verb = "rdma_disconnect";
        if (id.ps == PortSpace.UDP && id.ib != null) {
            toError(live(id)); // cma_modify_qp_err; a UD id has no connection, so neither DREQ nor DREP goes out
            return;
        }
        if (id.ib == null || (id.state != CmaState.CONNECT && id.state != CmaState.DISCONNECT)) {
            throw new VerbsException(verb, Errno.EINVAL, "the id is not connected (" + id.state + ")");
        }
        toError(live(id));
        // cma.c: a DREQ if established, else a DREP if the peer's DREQ came; neither failure is returned, so a
        // passive id still waiting for its RTU (REP_SENT) returns 0 with its QP in ERR, and sends nothing
        if (id.ib.state() == CmState.ESTABLISHED) cm.sendDreq(id.ib, new byte[0]);
        else if (id.ib.state() == CmState.DREQ_RCVD) cm.sendDrep(id.ib, new byte[0]);
    }

    /** rdma_destroy_id: the CM id goes (with what its state owes the peer) and the port is free again. */
    public void destroy(CmaId id) {
        id.state = CmaState.DESTROYING;
        if (id.ib != null) cm.destroy(id.ib);
        if (id.local != null) ports.remove(key(id.ps, id.local.getPort()), id);
        id.context = null;
    }

    // ---- helpers

    /** INIT (again, now with the READ depth known), RTR and RTS: ucma_modify_qp_rtr and _rts. */
    void toRts(QueuePair qp, int responderResources, AddressVector av, Mtu mtu, int destQpn, int rqPsn, int sqPsn,
                       int initiatorDepth, int retry, int rnrRetry, int timeout) {
        QpAttr init = new QpAttr();
        init.qpState = QpState.INIT;
        init.qpAccessFlags = Access.REMOTE_WRITE | (responderResources != 0 ? Access.REMOTE_READ | Access.REMOTE_ATOMIC : 0);
        nic.modifyQp(qp, init, QpAttrMask.STATE | QpAttrMask.ACCESS_FLAGS);
        QpAttr rtr = new QpAttr();
        rtr.qpState = QpState.RTR;
        rtr.ahAttr = av;
        rtr.pathMtu = mtu;
        rtr.destQpNum = destQpn;
        rtr.rqPsn = rqPsn;
        rtr.maxDestRdAtomic = responderResources;
        rtr.minRnrTimer = 0;
        nic.modifyQp(qp, rtr, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN | QpAttrMask.RQ_PSN
                | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);
        QpAttr rts = new QpAttr();
        rts.qpState = QpState.RTS;
        rts.sqPsn = sqPsn;
        rts.maxRdAtomic = initiatorDepth;
        rts.retryCnt = retry;
        rts.rnrRetry = rnrRetry;
        rts.timeout = timeout;
        nic.modifyQp(qp, rts, QpAttrMask.STATE | QpAttrMask.SQ_PSN | QpAttrMask.MAX_QP_RD_ATOMIC | QpAttrMask.RETRY_CNT
                | QpAttrMask.RNR_RETRY | QpAttrMask.TIMEOUT);
    }

    /**
     * The id's QP, or null once the application destroyed it (rdma_destroy_qp clears id->qp): events that come
     * after must not touch a QP the device no longer has.
     */
    QueuePair live(CmaId id) {
        if (id.qp != null && nic.qp(id.qp.qpn()) != id.qp) id.qp = null;
        return id.qp;
    }

    void toError(QueuePair qp) {
        if (qp == null || qp.state() == QpState.ERR || qp.state() == QpState.RESET) return;
        nic.modifyQp(qp, new QpAttr().state(QpState.ERR), QpAttrMask.STATE);
    }

    void emit(CmEventType type, CmaId id, int status, byte[] pd, ConnParam param) {
        if (id == null || id.state == CmaState.DESTROYING) return;
        events.accept(new CmaEvent(type, id, null, status, pd, param));
    }

    /** A message's whole private data area: the MAD carries no length, and rdma_cm reports all of it. */
    static byte[] privateData(CmMessage msg, MemorySegment mad) {
        return mad.asSlice(msg.privateDataOffset).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    static long field(MemorySegment mad, String name) {
        return CmMessage.REQ.field(name).get(mad);
    }

    /** A depth asked for: MAX is the device's; more than the device has is EINVAL (ucma_valid_param). */
    private static int depth(String verb, int asked, int max) {
        if (asked == ConnParam.MAX) return max;
        if (asked > max) throw new VerbsException(verb, Errno.EINVAL, "depth " + asked + " is over the device's " + max);
        return asked;
    }

    private static void expect(CmaId id, String verb, CmaState state) {
        if (id.state != state) throw new VerbsException(verb, Errno.EINVAL, "the id is " + id.state + ", not " + state);
    }

    private int ephemeral(PortSpace ps) {
        int span = EPHEMERAL_LAST - EPHEMERAL_FIRST + 1;
        int start = random.nextInt(span);
        for (int i = 0; i < span; i++) {
            int p = EPHEMERAL_FIRST + (start + i) % span;
            if (!ports.containsKey(key(ps, p))) return p;
        }
        throw new VerbsException("rdma_bind_addr", Errno.EADDRINUSE, "no free " + ps + " port");
    }

    private static long key(PortSpace ps, int port) {
        return ps.serviceId(port);
    }
}
