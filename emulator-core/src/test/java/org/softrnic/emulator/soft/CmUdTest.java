package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.EventChannel;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.verbs.cm.RdmaCm;

/**
 * RDMA_PS_UDP through the public rdma_cm API, as udaddy runs it: SIDR_REQ and SIDR_REP find the server's UD QPN
 * and Q_Key, the client SENDs with immediate data (its own QPN), and the server answers through an address handle
 * made from the datagram's GRH.
 */
class CmUdTest {
    private static final Duration WAIT = CmSide.WAIT;
    private static final int SIZE = 100;
    private static final int GRH = 40;

    @Test
    void sidrFindsTheServersQpAndDatagramsGoBothWays() throws Exception {
        try (SoftFabric fabric = SoftFabric.virtual(21);
             SoftRnic server = fabric.add(SoftRnicConfig.builder().name("udS").gid("10.3.0.1").build());
             SoftRnic client = fabric.add(SoftRnicConfig.builder().name("udC").gid("10.3.0.2").build());
             EventChannel ch = RdmaCm.createEventChannel();
             Arena arena = Arena.ofShared()) {
            CmId listener = listen(ch, "10.3.0.1");
            CmId c = routed(ch, "10.3.0.1");
            Side cs = new Side(c, arena);
            assertEquals(QpState.RTS, c.qp().query().qpState, "rdma_create_qp takes a UD QP to RTS");
            assertEquals(0x01234567, c.qp().query().qkey, "with RDMA_UDP_QKEY");
            cs.postRecvs(10);
            c.connect(ConnParam.DEFAULT.withPrivateData("udaddy".getBytes()));

            CmEvent req = next(ch);
            assertEquals(CmEventType.CONNECT_REQUEST, req.type());
            assertEquals(listener, req.listenId());
            assertEquals(180, req.privateData().length, "a SIDR_REQ's private data after the CMA header");
            assertArrayEquals("udaddy".getBytes(), java.util.Arrays.copyOf(req.privateData(), 6));
            CmId s = req.id();
            assertEquals(new InetSocketAddress("10.3.0.2", c.localAddress().getPort()), s.peerAddress());
            Side ss = new Side(s, arena);
            ss.postRecvs(10);
            s.accept(null);

            CmEvent est = next(ch);
            assertEquals(CmEventType.ESTABLISHED, est.type());
            assertEquals(c, est.id());
            assertNotNull(est.ud(), "ESTABLISHED on a UD id brings param.ud");
            assertEquals(s.qp().qpn(), est.ud().qpNum());
            assertEquals(0x01234567, est.ud().qkey());
            assertEquals(Gid.parse("10.3.0.1"), est.ud().ahAttr().dgid());
            assertNull(ch.getEvent(Duration.ofMillis(200)), "the server hears nothing more: UD has no RTU");

            // udaddy: ten SENDs with the sender's QPN as immediate data
            AddressHandle toServer = cs.pd.createAh(est.ud().ahAttr());
            for (int i = 0; i < 10; i++) cs.send(toServer, est.ud().qpNum(), est.ud().qkey(), i);
            AddressHandle back = null;
            int replyTo = 0;
            for (int i = 0; i < 10; i++) {
                WorkCompletion wc = ss.poll();
                assertEquals(WcStatus.SUCCESS, wc.status);
                assertEquals(WcOpcode.RECV, wc.opcode);
                assertEquals(GRH + SIZE, wc.byteLen);
                assertEquals(c.qp().qpn(), wc.immData, "the immediate is the client's QPN (immData holds the wire's number)");
                if (back == null) {
                    back = ss.pd.createAhFromWc(wc, ss.mem, 1);
                    replyTo = wc.srcQp;
                }
            }
            assertEquals(c.qp().qpn(), replyTo);
            assertEquals(Gid.parse("10.3.0.2"), back.attr().dgid(), "the AH points back at the client");
            for (int i = 0; i < 10; i++) ss.send(back, replyTo, 0x01234567, 100 + i); // unsignaled: only receives complete
            for (int i = 0; i < 10; i++) {
                WorkCompletion wc = cs.poll();
                assertEquals(WcStatus.SUCCESS, wc.status, wc.toString());
            }
            assertEquals((byte) 109, cs.mem.get(ValueLayout.JAVA_BYTE, GRH), "the last reply landed after its GRH");
            toServer.close();
            back.close();
            cs.close();
            ss.close();
            listener.close();
        }
    }

    @Test
    void aSidrReqNoOneListensForIsUnreachableWithStatus1() throws Exception {
        try (SoftFabric fabric = SoftFabric.virtual(22);
             SoftRnic server = fabric.add(SoftRnicConfig.builder().name("udS2").gid("10.3.1.1").build());
             SoftRnic client = fabric.add(SoftRnicConfig.builder().name("udC2").gid("10.3.1.2").build());
             EventChannel ch = RdmaCm.createEventChannel();
             Arena arena = Arena.ofShared()) {
            CmId c = routed(ch, "10.3.1.1");
            Side cs = new Side(c, arena);
            c.connect(null);
            CmEvent e = next(ch);
            assertEquals(CmEventType.UNREACHABLE, e.type());
            assertEquals(1, e.status(), "IB_SIDR_UNSUPPORTED, as cma_sidr_rep_handler passes it on");
            cs.close();
        }
    }

    @Test
    void aRejectedSidrReqIsUnreachableWithStatus2AndTheRejectsPrivateData() throws Exception {
        try (SoftFabric fabric = SoftFabric.virtual(23);
             SoftRnic server = fabric.add(SoftRnicConfig.builder().name("udS3").gid("10.3.2.1").build());
             SoftRnic client = fabric.add(SoftRnicConfig.builder().name("udC3").gid("10.3.2.2").build());
             EventChannel ch = RdmaCm.createEventChannel();
             Arena arena = Arena.ofShared()) {
            CmId listener = listen(ch, "10.3.2.1");
            CmId c = routed(ch, "10.3.2.1");
            Side cs = new Side(c, arena);
            c.connect(null);
            CmEvent req = next(ch);
            req.id().reject("full".getBytes());
            CmEvent e = next(ch);
            assertEquals(CmEventType.UNREACHABLE, e.type());
            assertEquals(2, e.status(), "IB_SIDR_REJECT");
            assertArrayEquals("full".getBytes(), java.util.Arrays.copyOf(e.privateData(), 4));
            req.id().close();
            cs.close();
            listener.close();
        }
    }

    private static CmEvent next(EventChannel ch) throws InterruptedException {
        return CmSide.next(ch);
    }

    /** A UDP port space listener on {@code ip}, port 7174. */
    private static CmId listen(EventChannel ch, String ip) {
        CmId listener = ch.createId(PortSpace.UDP);
        listener.bind(new InetSocketAddress(ip, 7174));
        listener.listen(0);
        return listener;
    }

    /** A UDP port space id with its address and route to {@code ip}:7174 resolved. */
    private static CmId routed(EventChannel ch, String ip) throws InterruptedException {
        CmId c = ch.createId(PortSpace.UDP);
        c.resolveAddr(null, new InetSocketAddress(ip, 7174), WAIT);
        assertEquals(CmEventType.ADDR_RESOLVED, next(ch).type());
        c.resolveRoute(WAIT);
        assertEquals(CmEventType.ROUTE_RESOLVED, next(ch).type());
        return c;
    }

    /** An id's verbs objects as udaddy makes them: a buffer with room for the GRH, the UD QP on the id. */
    private static final class Side extends CmSide {
        Side(CmId id, Arena arena) {
            super(id, arena, SIZE + GRH, 0, cq -> new QpInitAttr(QpType.UD, cq, cq, null, new QpCaps(10, 10, 1, 1, 0), false));
            assertEquals(QpType.UD, id.qp().type());
        }

        void postRecvs(int n) {
            RecvWr r = new RecvWr(1).sge(mr.addr(), SIZE + GRH, mr.lkey());
            for (int i = 0; i < n; i++) id.qp().postRecv(r);
        }

        void send(AddressHandle ah, int qpn, int qkey, int mark) {
            mem.set(ValueLayout.JAVA_BYTE, 0, (byte) mark);
            SendWr w = new SendWr(1);
            w.opcode = SendOpcode.SEND_WITH_IMM;
            w.immData = id.qp().qpn(); // udaddy's htobe32(qp_num): immData is the number the wire carries
            w.sge(mr.addr(), SIZE, mr.lkey());
            w.ah = ah;
            w.remoteQpn = qpn;
            w.remoteQkey = qkey;
            id.qp().postSend(w);
        }
    }
}
