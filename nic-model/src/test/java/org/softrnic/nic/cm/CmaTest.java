package org.softrnic.nic.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.CmaHeader;
import org.softrnic.wire.mad.Mad;

/** rdma_cm in the model: what the REQ carries, and how the REQ and REP set both QPs' attributes. */
class CmaTest {
    private static final Gid A = Gid.parse("192.0.2.2");
    private static final Gid B = Gid.parse("192.0.2.1");

    private static final class Side {
        final Nic nic;
        final Cma cma;
        final List<CmaEvent> events = new ArrayList<>();
        final ProtectionDomain pd;
        final CompletionQueue cq;

        Side(SimFabric f, String name, Gid gid, long seed, Mtu mtu) {
            nic = f.add(NicConfig.of(name, gid, seed).withMtu(mtu));
            cma = new Cma(nic, new CmAgent(nic, 0x5054_00ff_fe12_3400L + seed, seed), seed, events::add);
            pd = nic.allocPd();
            cq = nic.createCq(16);
        }

        QueuePair qp() {
            return nic.createQp(pd, QpType.RC, cq, cq, null, new QpCaps(16, 2, 1, 1, 0), false);
        }

        CmaEvent last() {
            return events.getLast();
        }
    }

    /** A listener on the server's port 7174, and a client id resolved and routed to it. */
    private static CmaId routedToListener(Side s, Side c) {
        CmaId listener = s.cma.createId(PortSpace.TCP, null);
        s.cma.bind(listener, new InetSocketAddress(B.toInetAddress(), 7174));
        s.cma.listen(listener);
        CmaId id = c.cma.createId(PortSpace.TCP, null);
        c.cma.resolveAddr(id, null, new InetSocketAddress(B.toInetAddress(), 7174));
        c.cma.resolveRoute(id);
        return id;
    }

    @Test
    void theReqAndRepSetBothQpsAsLibrdmacmDoes() {
        SimFabric f = new SimFabric(3);
        f.tracing(true);
        Side s = new Side(f, "server", B, 1, Mtu.MTU_1024);
        Side c = new Side(f, "client", A, 2, Mtu.MTU_1024);
        CmaId id = routedToListener(s, c);
        assertEquals(List.of(CmEventType.ADDR_RESOLVED, CmEventType.ROUTE_RESOLVED), c.events.stream().map(CmaEvent::type).toList());
        QueuePair cq = c.qp();
        c.cma.attachQp(id, cq);
        assertEquals(QpState.INIT, cq.state());
        c.cma.connect(id, ConnParam.DEFAULT.withDepths(1, 4));
        // until the listener hears: run on idle, the REQ's timer would run out while nobody accepts
        f.run(Long.MAX_VALUE, () -> !s.events.isEmpty());

        CmaEvent req = s.last();
        assertEquals(CmEventType.CONNECT_REQUEST, req.type());
        assertEquals(4, req.param().responderResources(), "the passive side serves what the active side's initiator depth asks");
        assertEquals(1, req.param().initiatorDepth());
        CmaId child = req.id();
        QueuePair sq = s.qp();
        s.cma.attachQp(child, sq);
        s.cma.accept(child, ConnParam.DEFAULT);
        f.runUntilIdle();
        assertEquals(CmEventType.ESTABLISHED, c.last().type());
        assertEquals(CmEventType.ESTABLISHED, s.last().type());

        MemorySegment reqMad = mad(f, CmMessage.REQ);
        MemorySegment repMad = mad(f, CmMessage.REP);
        int reqPsn = (int) CmMessage.REQ.field("starting_psn").get(reqMad);
        int repPsn = (int) CmMessage.REP.field("starting_psn").get(repMad);
        QpAttr a = cq.attr();
        QpAttr b = sq.attr();
        // each side's Starting PSN is what its own QP expects; the peer sends from it
        assertEquals(reqPsn, a.rqPsn);
        assertEquals(repPsn, a.sqPsn);
        assertEquals(repPsn, b.rqPsn);
        assertEquals(reqPsn, b.sqPsn);
        assertEquals(sq.qpn(), a.destQpNum);
        assertEquals(cq.qpn(), b.destQpNum);
        // the READ depths: asked 1 to serve and 4 outstanding; the accept's defaults answer in kind
        assertEquals(4, CmMessage.REP.field("responder_resources").get(repMad));
        assertEquals(1, CmMessage.REP.field("initiator_depth").get(repMad));
        assertEquals(1, a.maxDestRdAtomic);
        assertEquals(4, a.maxRdAtomic);
        assertEquals(4, b.maxDestRdAtomic);
        assertEquals(1, b.maxRdAtomic);
        assertEquals(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC, a.qpAccessFlags);
        assertEquals(19, a.timeout, "cm_ack_timeout(15, 18)");
        assertEquals(19, b.timeout, "the REQ's Local ACK Timeout");
        assertEquals(7, a.retryCnt);
        assertEquals(7, b.retryCnt);
        assertEquals(7, a.rnrRetry);
        assertEquals(Mtu.MTU_1024, a.pathMtu);
        assertEquals(Mtu.MTU_1024, b.pathMtu, "the REQ's MTU as received");
        assertEquals(QpState.RTS, cq.state());
        assertEquals(QpState.RTS, sq.state());

        CmaHeader h = CmaHeader.read(reqMad, CmMessage.REQ.privateDataOffset);
        assertEquals(A.toInetAddress(), h.src());
        assertEquals(B.toInetAddress(), h.dst());
        assertEquals(id.local().getPort(), h.srcPort());
        assertEquals(PortSpace.TCP.serviceId(7174), CmMessage.REQ.field("service_id").get(reqMad));
        assertEquals((id.local().getPort() * 31 + 7174) & 0xfffff, CmMessage.REQ.field("primary_flow_label").get(reqMad));
        assertEquals(id.local(), child.peer());
    }

    @Test
    void verbsOutOfTurnAndTakenPortsAreRefused() {
        SimFabric f = new SimFabric(4);
        Side s = new Side(f, "server", B, 1, Mtu.MTU_1024);
        CmaId a = s.cma.createId(PortSpace.TCP, null);
        s.cma.bind(a, new InetSocketAddress(B.toInetAddress(), 7174));
        CmaId b = s.cma.createId(PortSpace.TCP, null);
        assertEquals(Errno.EADDRINUSE, assertThrows(VerbsException.class,
                () -> s.cma.bind(b, new InetSocketAddress(B.toInetAddress(), 7174))).errno());
        assertEquals(Errno.EADDRNOTAVAIL, assertThrows(VerbsException.class,
                () -> s.cma.bind(b, new InetSocketAddress(A.toInetAddress(), 7174))).errno());
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> s.cma.resolveRoute(a)).errno());
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> s.cma.connect(a, ConnParam.DEFAULT)).errno());
    }

    /**
     * rdma_disconnect on a passive id that accepted but has not seen the RTU (REP_SENT): the QP goes to ERR and
     * the call returns 0, as cma.c's does (neither the DREQ's nor the DREP's failure is returned); no DREQ goes out.
     */
    @Test
    void rdmaDisconnectBeforeTheRtuReturnsLikeTheKernels() {
        SimFabric f = new SimFabric(5);
        f.tracing(true);
        f.dropWhen(p -> {
            byte[] b = p.bytes();
            return Mad.cmMessage(MemorySegment.ofArray(b).asSlice(b.length - 4 - Mad.SIZE, Mad.SIZE)) == CmMessage.RTU;
        });
        Side s = new Side(f, "server", B, 1, Mtu.MTU_1024);
        Side c = new Side(f, "client", A, 2, Mtu.MTU_1024);
        CmaId id = routedToListener(s, c);
        c.cma.attachQp(id, c.qp());
        c.cma.connect(id, ConnParam.DEFAULT);
        f.run(Long.MAX_VALUE, () -> !s.events.isEmpty());
        CmaId child = s.last().id();
        QueuePair sq = s.qp();
        s.cma.attachQp(child, sq);
        s.cma.accept(child, ConnParam.DEFAULT);
        f.run(f.clock().nanoTime() + 1_000_000, () -> false); // the REP arrives; its RTU is lost
        assertEquals(CmState.REP_SENT, child.ib.state());
        int before = f.trace().size();
        s.cma.disconnect(child);
        assertEquals(QpState.ERR, sq.state());
        f.run(f.clock().nanoTime() + 1_000_000, () -> false);
        assertEquals(0, f.trace().subList(before, f.trace().size()).stream().filter(p -> {
            byte[] b = p.bytes();
            return Mad.cmMessage(MemorySegment.ofArray(b).asSlice(b.length - 4 - Mad.SIZE, Mad.SIZE)) == CmMessage.DREQ;
        }).count(), "no DREQ: the connection is not established yet");
    }

    private static MemorySegment mad(SimFabric f, CmMessage msg) {
        for (SimFabric.Packet p : f.trace()) {
            byte[] b = p.bytes();
            MemorySegment m = MemorySegment.ofArray(b).asSlice(b.length - 4 - Mad.SIZE, Mad.SIZE); // the MAD, then the ICRC
            if (Mad.cmMessage(m) == msg) return m;
        }
        throw new AssertionError("no " + msg + " on the wire");
    }

    /** cma_ib_check_req_qp_type: a REQ (RC) whose service ID is an RDMA_PS_UDP listener's is refused, REJ 28, and never reaches it. */
    @Test
    void aReqForAUdpListenerIsRefusedWithReason28() {
        SimFabric f = new SimFabric(31);
        Side b = new Side(f, "b", B, 2, Mtu.MTU_1024);
        CmaId listener = b.cma.createId(PortSpace.UDP, null);
        b.cma.bind(listener, new InetSocketAddress(B.toInetAddress(), 7174));
        b.cma.listen(listener);
        Nic a = f.add(NicConfig.of("a", A, 1).withMtu(Mtu.MTU_1024));
        CmAgent agent = new CmAgent(a, 0x5054_00ff_fe12_3401L, 1);
        List<IbCmEvent> seen = new ArrayList<>();
        List<Long> reasons = new ArrayList<>();
        IbCmId id = agent.createId((i, l, e, mad) -> {
            seen.add(e);
            if (mad != null) reasons.add(CmMessage.REJ.field("reason").get(mad));
        });
        byte[] pd = new byte[CmaHeader.SIZE];
        new CmaHeader(0, 4, 40000, A.toInetAddress(), B.toInetAddress()).write(MemorySegment.ofArray(pd), 0);
        agent.sendReq(id, new CmReq(PortSpace.UDP.serviceId(7174), 0x11, 0, 0x1234, 1, 1, 7, 7, false, Mtu.MTU_1024, A, B, 0, 0, 64,
                CmTimeouts.CMA_IBOE_PACKET_LIFETIME, CmTimeouts.CMA_CM_RESPONSE_TIMEOUT, CmTimeouts.CMA_CM_RESPONSE_TIMEOUT,
                CmTimeouts.CMA_MAX_CM_RETRIES, pd));
        f.runUntilIdle();
        assertEquals(List.of(IbCmEvent.REJ_RECEIVED), seen);
        assertEquals(List.of(28L), reasons, "IB_CM_REJ_CONSUMER_DEFINED");
        assertEquals(0, b.events.stream().filter(e -> e.type() == CmEventType.CONNECT_REQUEST).count(), "the UDP listener heard nothing");
    }
}
