package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.EventChannel;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.verbs.cm.RdmaCm;

/** Two soft RNICs connected through the public rdma_cm API, as rping connects: listen, resolve, connect, accept, data, disconnect. */
class CmConnectTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void aClientConnectsWritesAndDisconnectsThroughRdmaCm() throws Exception {
        try (SoftFabric fabric = SoftFabric.virtual(11);
             SoftRnic server = fabric.add(SoftRnicConfig.builder().name("cmS").gid("10.2.0.1").build());
             SoftRnic client = fabric.add(SoftRnicConfig.builder().name("cmC").gid("10.2.0.2").build());
             EventChannel ch = RdmaCm.createEventChannel();
             Arena arena = Arena.ofShared()) {
            CmId listener = ch.createId(PortSpace.TCP);
            listener.bind(new InetSocketAddress("10.2.0.1", 7174));
            listener.listen(3);

            CmId c = ch.createId(PortSpace.TCP);
            c.resolveAddr(new InetSocketAddress("10.2.0.2", 0), new InetSocketAddress("10.2.0.1", 7174), WAIT);
            assertEquals(CmEventType.ADDR_RESOLVED, next(ch).type());
            c.resolveRoute(WAIT);
            assertEquals(CmEventType.ROUTE_RESOLVED, next(ch).type());
            Side cs = new Side(c, arena);
            c.connect(ConnParam.DEFAULT.withDepths(1, 1).withPrivateData("hello".getBytes()));

            CmEvent req = next(ch);
            assertEquals(CmEventType.CONNECT_REQUEST, req.type());
            assertEquals(listener, req.listenId());
            assertArrayEquals("hello".getBytes(), java.util.Arrays.copyOf(req.privateData(), 5));
            assertEquals(56, req.privateData().length, "a REQ's private data after the CMA header, as rdma_cm reports it");
            assertEquals(c.qp().qpn(), req.param().qpNum());
            CmId s = req.id();
            assertEquals(new InetSocketAddress("10.2.0.2", c.localAddress().getPort()), s.peerAddress());
            Side ss = new Side(s, arena);
            s.accept(null);
            // the client's ESTABLISHED comes with the REP, the server's with the RTU
            CmEvent est = next(ch);
            assertEquals(CmEventType.ESTABLISHED, est.type());
            assertEquals(CmEventType.ESTABLISHED, next(ch).type());
            assertEquals(QpState.RTS, c.qp().query().qpState);
            assertEquals(QpState.RTS, s.qp().query().qpState);

            cs.mem.setString(0, "rdma-ping-0: ABCDEFG");
            SendWr w = new SendWr(1);
            w.opcode = SendOpcode.RDMA_WRITE;
            w.sendFlags = org.softrnic.verbs.SendFlags.SIGNALED;
            w.sge(cs.mr.addr(), 64, cs.mr.lkey());
            w.remoteAddr = ss.mr.addr();
            w.rkey = ss.mr.rkey();
            c.qp().postSend(w);
            WorkCompletion wc = cs.poll();
            assertEquals(WcStatus.SUCCESS, wc.status);
            assertEquals("rdma-ping-0: ABCDEFG", ss.mem.getString(0));

            c.disconnect();
            CmEvent d1 = next(ch);
            assertEquals(CmEventType.DISCONNECTED, d1.type());
            assertEquals(s, d1.id(), "the server hears the DREQ first");
            s.disconnect(); // the DREP
            CmEvent d2 = next(ch);
            assertEquals(CmEventType.DISCONNECTED, d2.type());
            assertEquals(c, d2.id());
            assertEquals(QpState.ERR, c.qp().query().qpState);
            CmEvent t1 = next(ch);
            CmEvent t2 = next(ch);
            assertEquals(CmEventType.TIMEWAIT_EXIT, t1.type());
            assertEquals(CmEventType.TIMEWAIT_EXIT, t2.type());
            cs.close();
            ss.close();
            listener.close();
        }
    }

    @Test
    void aConnectNoOneListensForIsRejectedWithReason8() throws Exception {
        try (SoftFabric fabric = SoftFabric.virtual(12);
             SoftRnic server = fabric.add(SoftRnicConfig.builder().name("cmS2").gid("10.2.1.1").build());
             SoftRnic client = fabric.add(SoftRnicConfig.builder().name("cmC2").gid("10.2.1.2").build());
             EventChannel ch = RdmaCm.createEventChannel();
             Arena arena = Arena.ofShared()) {
            CmId c = ch.createId(PortSpace.TCP);
            c.resolveAddr(null, new InetSocketAddress("10.2.1.1", 7174), WAIT);
            assertEquals(CmEventType.ADDR_RESOLVED, next(ch).type());
            VerbsException early = assertThrows(VerbsException.class, () -> c.connect(null));
            assertEquals(Errno.EINVAL, early.errno(), "connect before the route: " + early.getMessage());
            c.resolveRoute(WAIT);
            next(ch);
            Side cs = new Side(c, arena);
            c.connect(null);
            CmEvent e = next(ch);
            assertEquals(CmEventType.REJECTED, e.type());
            assertEquals(8, e.status(), "IB_CM_REJ_INVALID_SERVICE_ID");
            assertEquals(QpState.ERR, c.qp().query().qpState);
            cs.close();
        }
    }

    /**
     * A connection request the server never took (its CONNECT_REQUEST still queued) goes with the server's channel:
     * closing the channel is no EBUSY, and the client hears REJ 28, as when the kernel's ucma_close destroys the id.
     */
    @Test
    void aRequestNobodyTookIsRefusedWhenItsChannelCloses() throws Exception {
        try (SoftFabric fabric = SoftFabric.threaded();
             SoftRnic server = fabric.add(SoftRnicConfig.builder().name("cmS3").gid("10.2.2.1").build());
             SoftRnic client = fabric.add(SoftRnicConfig.builder().name("cmC3").gid("10.2.2.2").build());
             EventChannel cch = RdmaCm.createEventChannel();
             Arena arena = Arena.ofShared()) {
            EventChannel sch = RdmaCm.createEventChannel();
            CmId listener = sch.createId(PortSpace.TCP);
            listener.bind(new InetSocketAddress("10.2.2.1", 7174));
            listener.listen(1);
            CmId c = cch.createId(PortSpace.TCP);
            c.resolveAddr(null, new InetSocketAddress("10.2.2.1", 7174), WAIT);
            next(cch);
            c.resolveRoute(WAIT);
            next(cch);
            Side cs = new Side(c, arena);
            c.connect(null);
            for (long end = System.nanoTime() + 5_000_000_000L; server.counters().get("cm_rx_msgs") == 0 && System.nanoTime() < end; ) {
                Thread.sleep(10);
            }
            Thread.sleep(200); // the request is queued on the server's channel, untaken
            listener.close();
            sch.close();
            CmEvent e = next(cch);
            assertEquals(CmEventType.REJECTED, e.type());
            assertEquals(28, e.status(), "the destroyed request's REJ: IB_CM_REJ_CONSUMER_DEFINED");
            cs.close();
        }
    }

    private static CmEvent next(EventChannel ch) throws InterruptedException {
        return CmSide.next(ch);
    }

    /** An id's verbs objects: PD, CQ, a 4 KiB region and the RC QP made on the id, left in INIT by rdma_create_qp. */
    private static final class Side extends CmSide {
        Side(CmId id, Arena arena) {
            super(id, arena, 4096, Access.REMOTE_WRITE | Access.REMOTE_READ,
                    cq -> new QpInitAttr(QpType.RC, cq, cq, null, new QpCaps(16, 2, 1, 1, 0), false));
            assertEquals(QpState.INIT, id.qp().query().qpState, "rdma_create_qp leaves the QP in INIT");
        }
    }
}
