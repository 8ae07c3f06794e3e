package org.softrnic.nic.cm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.VerbsException;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.CmaHeader;
import org.softrnic.wire.mad.Mad;

/** The CM of two devices on the virtual fabric: the handshake, its end, and what loss and refusal do to them. */
class CmAgentTest {
    static final Gid A = Gid.parse("192.0.2.1");
    static final Gid B = Gid.parse("192.0.2.2");
    static final long SERVICE = CmaHeader.serviceId(CmaHeader.PS_TCP, 7174);

    /** One event as a handler saw it, with the fields a test asks about copied out of the MAD. */
    record Seen(IbCmId id, IbCmEvent event, long at, CmMessage msg, byte[] mad) {}

    static final class Side {
        final Nic nic;
        final CmAgent cm;
        final List<Seen> seen = new ArrayList<>();
        final IbCmHandler handler;

        Side(SimFabric f, String name, Gid gid, long seed, IbCmHandler react) {
            nic = f.add(NicConfig.of(name, gid, seed).withMtu(Mtu.MTU_1024));
            cm = new CmAgent(nic, 0x5054_00ff_fe12_3400L + seed, seed);
            handler = (id, listener, e, mad) -> {
                seen.add(new Seen(id, e, nic.clock().nanoTime(), mad == null ? null : Mad.cmMessage(mad),
                        mad == null ? null : mad.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
                if (react != null) react.event(id, listener, e, mad);
            };
        }

        List<IbCmEvent> events() {
            return seen.stream().map(Seen::event).toList();
        }
    }

    static CmReq req(int qpn, byte[] pd) {
        return new CmReq(SERVICE, qpn, 0, 0x95459b, 1, 1, 7, 7, false, Mtu.MTU_1024, A, B, 0xC867D, 0, 64,
                CmTimeouts.CMA_IBOE_PACKET_LIFETIME, CmTimeouts.CMA_CM_RESPONSE_TIMEOUT,
                CmTimeouts.CMA_CM_RESPONSE_TIMEOUT, CmTimeouts.CMA_MAX_CM_RETRIES, pd);
    }

    static CmRep rep(int qpn) {
        return new CmRep(qpn, 0x48451d, 1, 1, 7, false, CmTimeouts.LOCAL_CA_ACK_DELAY, null);
    }

    /** A passive side that accepts as rdma_cm does (silent MRA, then the REP), and an active side that sends the RTU. */
    static Side[] pair(SimFabric f) {
        Side[] s = new Side[2];
        s[1] = new Side(f, "b", B, 2, (id, l, e, mad) -> {
            if (e == IbCmEvent.REQ_RECEIVED) {
                s[1].cm.sendMra(id);
                s[1].cm.sendRep(id, rep(0x11));
            } else if (e == IbCmEvent.DREQ_RECEIVED) {
                s[1].cm.sendDrep(id, new byte[0]);
            }
        });
        s[0] = new Side(f, "a", A, 1, (id, l, e, mad) -> {
            if (e == IbCmEvent.REP_RECEIVED) {
                s[0].cm.sendMra(id);
                s[0].cm.sendRtu(id, new byte[0]);
            }
        });
        s[1].cm.listen(s[1].cm.createId(s[1].handler), SERVICE);
        return s;
    }

    @Test
    void reqRepRtuEstablishBothSidesAndDreqDrepEndInTimewait() {
        SimFabric f = new SimFabric(1);
        Side[] s = pair(f);
        IbCmId active = s[0].cm.createId(s[0].handler);
        s[0].cm.sendReq(active, req(0x11, new byte[] {1, 2, 3}));
        f.runUntilIdle();
        assertEquals(List.of(IbCmEvent.REP_RECEIVED), s[0].events());
        assertEquals(List.of(IbCmEvent.REQ_RECEIVED, IbCmEvent.RTU_RECEIVED), s[1].events());
        IbCmId passive = s[1].seen.getFirst().id();
        assertEquals(CmState.ESTABLISHED, active.state());
        assertEquals(CmState.ESTABLISHED, passive.state());
        assertEquals(active.localCommId(), passive.remoteCommId());
        assertEquals(passive.localCommId(), active.remoteCommId());
        assertEquals(0x11, active.remoteQpn());
        byte[] req = s[1].seen.getFirst().mad();
        assertEquals(3, req[CmMessage.REQ.privateDataOffset + 2], "the REQ's private data reaches the listener");

        long t0 = f.clock().nanoTime();
        s[0].cm.sendDreq(active, new byte[0]);
        f.runUntilIdle();
        assertEquals(List.of(IbCmEvent.REP_RECEIVED, IbCmEvent.DREP_RECEIVED, IbCmEvent.TIMEWAIT_EXIT), s[0].events());
        assertEquals(List.of(IbCmEvent.REQ_RECEIVED, IbCmEvent.RTU_RECEIVED, IbCmEvent.DREQ_RECEIVED, IbCmEvent.TIMEWAIT_EXIT),
                s[1].events());
        assertEquals(CmState.IDLE, active.state());
        long timewait = s[0].seen.get(2).at() - t0;
        // the active side's av.timeout after the REP: cm_ack_timeout(15, 18) = 19, timewait 2^(19-8) ms
        assertEquals(2048, timewait / 1_000_000, "timewait of the active side, ms");
        assertEquals(5, s[0].nic.counters().get(Counter.CM_TX_MSGS) + s[1].nic.counters().get(Counter.CM_TX_MSGS),
                "REQ, REP, RTU, DREQ, DREP and nothing else: the MRAs were silent");
    }

    @Test
    void aLostReqGoesOutAgainAfterItsTimeoutAndTheConnectionIsMade() {
        SimFabric f = new SimFabric(2);
        boolean[] dropped = {false};
        f.dropWhen(p -> !dropped[0] && (dropped[0] = true)); // the first packet: the REQ
        Side[] s = pair(f);
        IbCmId active = s[0].cm.createId(s[0].handler);
        long t0 = f.clock().nanoTime();
        s[0].cm.sendReq(active, req(0x11, new byte[0]));
        f.runUntilIdle();
        assertEquals(CmState.ESTABLISHED, active.state());
        assertEquals(1, s[0].nic.counters().get(Counter.CM_TX_RETRIES));
        long at = s[1].seen.getFirst().at() - t0;
        // ib_send_cm_req's timer: 2 x 2^(18-8) + 2^(20-8) = 6144 ms
        assertTrue(at >= 6_144_000_000L && at < 6_145_000_000L, "the REQ came again after 6144 ms: " + at);
    }

    static final long UD_SERVICE = CmaHeader.serviceId(CmaHeader.PS_UDP, 7174);
    static final AddressVector TO_B = new AddressVector(B, 0, 0, 64, 0);

    /** A UD listener on B that answers every SIDR_REQ with QPN 0x12 and rdma_cm's Q_Key. */
    static Side udListener(SimFabric f) {
        Side[] b = new Side[1];
        b[0] = new Side(f, "b", B, 2, (id, l, e, mad) -> {
            if (e == IbCmEvent.SIDR_REQ_RECEIVED) b[0].cm.sendSidrRep(id, CmAgent.SIDR_SUCCESS, 0x12, Cma.RDMA_UDP_QKEY, "hi".getBytes());
        });
        b[0].cm.listen(b[0].cm.createId(b[0].handler), UD_SERVICE);
        return b[0];
    }

    @Test
    void aSidrReqIsAnsweredWithTheQpnAndQkeyEchoingItsIdAndTid() {
        SimFabric f = new SimFabric(11);
        Side b = udListener(f);
        Side a = new Side(f, "a", A, 1, null);
        IbCmId active = a.cm.createId(a.handler);
        a.cm.sendSidrReq(active, UD_SERVICE, TO_B, CmTimeouts.toNanos(CmTimeouts.SIDR_TIMEOUT), CmTimeouts.CMA_MAX_CM_RETRIES,
                new byte[] {7, 8});
        f.runUntilIdle();
        assertEquals(List.of(IbCmEvent.SIDR_REQ_RECEIVED), b.events());
        assertEquals(List.of(IbCmEvent.SIDR_REP_RECEIVED), a.events());
        MemorySegment req = MemorySegment.ofArray(b.seen.getFirst().mad());
        MemorySegment rep = MemorySegment.ofArray(a.seen.getFirst().mad());
        assertEquals(active.localCommId(), (int) CmMessage.SIDR_REQ.field("request_id").get(req));
        assertEquals(0xffff, CmMessage.SIDR_REQ.field("partition_key").get(req));
        assertEquals(UD_SERVICE, CmMessage.SIDR_REQ.field("service_id").get(req));
        assertEquals(8, req.get(java.lang.foreign.ValueLayout.JAVA_BYTE, CmMessage.SIDR_REQ.privateDataOffset + 1));
        assertEquals(active.localCommId(), (int) CmMessage.SIDR_REP.field("request_id").get(rep), "the Request ID echoed");
        assertEquals(Mad.TID.get(req), Mad.TID.get(rep), "the TID echoed");
        assertEquals(CmAgent.SIDR_SUCCESS, CmMessage.SIDR_REP.field("status").get(rep));
        assertEquals(0x12, CmMessage.SIDR_REP.field("local_qpn").get(rep));
        assertEquals(0x01234567L, CmMessage.SIDR_REP.field("qkey").get(rep));
        assertEquals(UD_SERVICE, CmMessage.SIDR_REP.field("service_id").get(rep));
        assertEquals('h', rep.get(java.lang.foreign.ValueLayout.JAVA_BYTE, CmMessage.SIDR_REP.privateDataOffset));
        assertEquals(CmState.IDLE, active.state());
        assertEquals(CmState.IDLE, b.seen.getFirst().id().state(), "a SIDR has no connection: both ids end idle");
        assertEquals(2, a.nic.counters().get(Counter.CM_TX_MSGS) + b.nic.counters().get(Counter.CM_TX_MSGS));
    }

    @Test
    void aSidrReqNoOneListensForIsAnsweredStatus1() {
        SimFabric f = new SimFabric(12);
        Side a = new Side(f, "a", A, 1, null);
        new Side(f, "b", B, 2, null);
        IbCmId active = a.cm.createId(a.handler);
        a.cm.sendSidrReq(active, UD_SERVICE, TO_B, CmTimeouts.toNanos(CmTimeouts.SIDR_TIMEOUT), CmTimeouts.CMA_MAX_CM_RETRIES, new byte[0]);
        f.runUntilIdle();
        assertEquals(List.of(IbCmEvent.SIDR_REP_RECEIVED), a.events());
        MemorySegment rep = MemorySegment.ofArray(a.seen.getFirst().mad());
        assertEquals(CmAgent.SIDR_UNSUPPORTED, CmMessage.SIDR_REP.field("status").get(rep));
        assertEquals(0, CmMessage.SIDR_REP.field("local_qpn").get(rep), "no QPN without a service");
        assertEquals(UD_SERVICE, CmMessage.SIDR_REP.field("service_id").get(rep), "the service ID is returned (cm.c since 5.8)");
        assertEquals(0, a.nic.counters().get(Counter.CM_TX_RETRIES));
    }

    @Test
    void aLostSidrReqGoesOutAgainAfter4096MsAndACopyOfAnOpenRequestIsDropped() {
        SimFabric f = new SimFabric(13);
        boolean[] dropped = {false};
        f.dropWhen(p -> !dropped[0] && (dropped[0] = true)); // the first SIDR_REQ
        Side[] b = new Side[1];
        List<IbCmId> open = new ArrayList<>();
        b[0] = new Side(f, "b", B, 2, (id, l, e, mad) -> open.add(id)); // the consumer has not answered yet
        b[0].cm.listen(b[0].cm.createId(b[0].handler), UD_SERVICE);
        Side a = new Side(f, "a", A, 1, null);
        IbCmId active = a.cm.createId(a.handler);
        long t0 = f.clock().nanoTime();
        a.cm.sendSidrReq(active, UD_SERVICE, TO_B, CmTimeouts.toNanos(CmTimeouts.SIDR_TIMEOUT), 2, new byte[0]);
        f.runUntilIdle();
        assertEquals(1, open.size(), "two copies arrived after the lost one: one request");
        long at = b[0].seen.getFirst().at() - t0;
        assertTrue(at >= 4_096_000_000L && at < 4_097_000_000L, "the SIDR_REQ came again after 4096 ms: " + at);
        assertEquals(1, b[0].nic.counters().get(Counter.CM_RX_DUPLICATES), "the third send found the request open");
        assertEquals(List.of(IbCmEvent.SIDR_REQ_ERROR), a.events(), "nobody answered: 1 + 2 sends, then the error");
        assertEquals(3 * 4096L, (a.seen.getFirst().at() - t0) / 1_000_000);
        b[0].cm.destroy(open.getFirst());
        f.runUntilIdle();
        assertEquals(CmState.IDLE, open.getFirst().state());
    }

    @Test
    void aSidrRequestDestroyedUnansweredIsRejectedWithStatus2() {
        SimFabric f = new SimFabric(14);
        Side[] b = new Side[1];
        b[0] = new Side(f, "b", B, 2, (id, l, e, mad) -> b[0].cm.destroy(id));
        b[0].cm.listen(b[0].cm.createId(b[0].handler), UD_SERVICE);
        Side a = new Side(f, "a", A, 1, null);
        IbCmId active = a.cm.createId(a.handler);
        a.cm.sendSidrReq(active, UD_SERVICE, TO_B, CmTimeouts.toNanos(CmTimeouts.SIDR_TIMEOUT), 15, new byte[0]);
        f.runUntilIdle();
        assertEquals(CmAgent.SIDR_REJECT, CmMessage.SIDR_REP.field("status").get(MemorySegment.ofArray(a.seen.getFirst().mad())));
        assertThrows(VerbsException.class, () -> a.cm.sendSidrRep(active, 0, 1, 1, new byte[0]), "no reply without a request");
    }

    /** rdma_destroy_id on an established id: the DREQ goes once, and timewait runs out without the id (it used to throw EINVAL on the device's timer). */
    @Test
    void anIdDestroyedWhileConnectedWaitsOutTimewaitAndIsForgotten() {
        SimFabric f = new SimFabric(15);
        Side[] s = pair(f);
        IbCmId active = s[0].cm.createId(s[0].handler);
        s[0].cm.sendReq(active, req(0x11, new byte[0]));
        f.runUntilIdle();
        assertEquals(CmState.ESTABLISHED, active.state());
        int before = s[0].cm.liveIds();
        s[0].cm.destroy(active);
        assertEquals(CmState.TIMEWAIT, active.state());
        f.runUntilIdle();
        assertEquals(CmState.IDLE, active.state());
        assertEquals(before - 1, s[0].cm.liveIds(), "the destroyed id is gone once timewait is over");
        assertEquals(List.of(IbCmEvent.REP_RECEIVED), s[0].events(), "a destroyed id tells nothing more");
    }

    @Test
    void aReqNoOneListensForIsRejectedWithReason8() {
        SimFabric f = new SimFabric(3);
        Side a = new Side(f, "a", A, 1, null);
        new Side(f, "b", B, 2, null); // no listener
        IbCmId active = a.cm.createId(a.handler);
        a.cm.sendReq(active, req(0x11, new byte[0]));
        f.runUntilIdle();
        assertEquals(List.of(IbCmEvent.REJ_RECEIVED), a.events());
        byte[] rej = a.seen.getFirst().mad();
        MemorySegment m = MemorySegment.ofArray(rej);
        assertEquals(CmAgent.REJ_INVALID_SERVICE_ID, CmMessage.REJ.field("reason").get(m));
        assertEquals(active.localCommId(), (int) CmMessage.REJ.field("remote_comm_id").get(m));
        assertEquals(CmFormat.REJECTED_REQ, CmMessage.REJ.field("message_rejected").get(m));
        assertEquals(CmState.IDLE, active.state());
        assertEquals(0, a.nic.counters().get(Counter.CM_TX_RETRIES), "the REJ stopped the REQ's timer");
    }

    @Test
    void aConsumerRejectCarriesReason28AndItsPrivateData() {
        SimFabric f = new SimFabric(4);
        Side[] b = new Side[1];
        b[0] = new Side(f, "b", B, 2, (id, l, e, mad) -> {
            if (e == IbCmEvent.REQ_RECEIVED) b[0].cm.sendRej(id, CmAgent.REJ_CONSUMER_DEFINED, new byte[0], "no thanks".getBytes());
        });
        b[0].cm.listen(b[0].cm.createId(b[0].handler), SERVICE);
        Side a = new Side(f, "a", A, 1, null);
        IbCmId active = a.cm.createId(a.handler);
        a.cm.sendReq(active, req(0x11, new byte[0]));
        f.runUntilIdle();
        MemorySegment m = MemorySegment.ofArray(a.seen.getFirst().mad());
        assertEquals(28, CmMessage.REJ.field("reason").get(m));
        byte[] pd = m.asSlice(CmMessage.REJ.privateDataOffset, 9).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        assertArrayEquals("no thanks".getBytes(), pd);
        assertEquals(0, CmMessage.REJ.field("local_comm_id").get(m), "from REQ_RCVD, no MRA told the peer an ID");
    }

    @Test
    void aReqNoOneAnswersGoesOut16TimesThenReqError() {
        SimFabric f = new SimFabric(5);
        f.dropWhen(p -> true);
        Side a = new Side(f, "a", A, 1, null);
        new Side(f, "b", B, 2, null);
        IbCmId active = a.cm.createId(a.handler);
        long t0 = f.clock().nanoTime();
        a.cm.sendReq(active, req(0x11, new byte[0]));
        f.runUntilIdle();
        assertEquals(List.of(IbCmEvent.REQ_ERROR), a.events());
        assertEquals(16, a.nic.counters().get(Counter.CM_TX_MSGS));
        assertEquals(16 * 6144L, (a.seen.getFirst().at() - t0) / 1_000_000, "ms until the id gave up");
    }

    @Test
    void aDuplicateRepIsAnsweredWithTheRtuAgain() {
        SimFabric f = new SimFabric(6);
        int[] n = {0};
        // the first RTU is lost: the passive side's REP comes again, and the active answers with its RTU
        f.dropWhen(p -> cm(p.bytes()) == CmMessage.RTU && n[0]++ == 0);
        Side[] s = pair(f);
        IbCmId active = s[0].cm.createId(s[0].handler);
        s[0].cm.sendReq(active, req(0x11, new byte[0]));
        f.runUntilIdle();
        IbCmId passive = s[1].seen.getFirst().id();
        assertEquals(CmState.ESTABLISHED, passive.state());
        assertEquals(1, s[0].nic.counters().get(Counter.CM_RX_DUPLICATES), "the REP came twice");
        assertEquals(List.of(IbCmEvent.REP_RECEIVED), s[0].events(), "a duplicate is no event");
    }

    @Test
    void verbsOutOfTurnAreEinval() {
        SimFabric f = new SimFabric(7);
        Side a = new Side(f, "a", A, 1, null);
        IbCmId id = a.cm.createId(a.handler);
        VerbsException e = assertThrows(VerbsException.class, () -> a.cm.sendRtu(id, new byte[0]));
        assertEquals(Errno.EINVAL, e.errno());
        assertThrows(VerbsException.class, () -> a.cm.sendDreq(id, new byte[0]));
        a.cm.listen(a.cm.createId(a.handler), SERVICE);
        assertEquals(Errno.EBUSY, assertThrows(VerbsException.class, () -> a.cm.listen(id, SERVICE)).errno());
    }

    /** A flood of datagrams too long for QP1's buffers (each a LOC_LEN_ERR receive) leaves it taking MADs still. */
    @Test
    void datagramsTooLongForQp1DoNotLeaveItDeaf() {
        SimFabric f = new SimFabric(8);
        Side[] s = pair(f);
        Nic a = s[0].nic;
        // from A's own QP1, which may send with the GSI Q_Key (another QP's WR naming it would use its own)
        var ud = a.qp(Nic.GSI_QPN);
        var pd = ud.pd();
        var mr = a.regMr(pd, java.lang.foreign.Arena.ofAuto().allocate(512, 8), org.softrnic.verbs.Access.LOCAL_WRITE);
        for (int i = 0; i < 100; i++) {
            org.softrnic.verbs.SendWr w = new org.softrnic.verbs.SendWr(1).sge(mr.iova(), 300, mr.lkey());
            w.ah = org.softrnic.nic.Handles.ah(org.softrnic.verbs.AddressVector.to(B));
            w.remoteQpn = Nic.GSI_QPN;
            w.remoteQkey = Nic.GSI_QKEY;
            a.postSend(ud, w);
            f.runUntilIdle();
        }
        assertTrue(s[1].nic.counters().get(Counter.CM_RX_DROPPED) >= 100, "each too-long datagram counted: " + s[1].nic.counters().snapshot());
        IbCmId active = s[0].cm.createId(s[0].handler);
        s[0].cm.sendReq(active, req(0x11, new byte[0]));
        f.runUntilIdle();
        assertEquals(CmState.ESTABLISHED, active.state(), "QP1 still takes MADs");
    }

    /**
     * A passive id destroyed after rdma_cm's silent MRA, before its REP: REJ 28 that rejects the REQ, which the
     * active side takes. From MRA_REQ_SENT cm_format_rej names the id's Local Comm ID (the MRA told it already).
     */
    @Test
    void aPassiveIdDestroyedBeforeItsRepRejectsTheReqAsTheKernelFormatsIt() {
        SimFabric f = new SimFabric(9);
        Side[] b = new Side[1];
        IbCmId[] passive = new IbCmId[1];
        b[0] = new Side(f, "b", B, 2, (id, l, e, mad) -> {
            if (e == IbCmEvent.REQ_RECEIVED) {
                passive[0] = id;
                b[0].cm.sendMra(id);
                b[0].cm.destroy(id);
            }
        });
        b[0].cm.listen(b[0].cm.createId(b[0].handler), SERVICE);
        Side a = new Side(f, "a", A, 1, null);
        IbCmId active = a.cm.createId(a.handler);
        a.cm.sendReq(active, req(0x11, new byte[0]));
        f.runUntilIdle();
        assertEquals(List.of(IbCmEvent.REJ_RECEIVED), a.events());
        MemorySegment m = MemorySegment.ofArray(a.seen.getFirst().mad());
        assertEquals(CmAgent.REJ_CONSUMER_DEFINED, CmMessage.REJ.field("reason").get(m));
        assertEquals(CmFormat.REJECTED_REQ, CmMessage.REJ.field("message_rejected").get(m));
        assertEquals(Integer.toUnsignedLong(passive[0].localCommId()), CmMessage.REJ.field("local_comm_id").get(m));
        assertEquals(CmState.IDLE, active.state());
    }

    /**
     * A DREQ on a connection whose REQ drew an MRA is retried on the id's own timeout (cm_send_dreq_locked), not
     * the MRA's: cm_mra_handler changes only the MAD then pending (ib_modify_mad).
     */
    @Test
    void aDreqAfterAnMraIsRetransmittedOnTheIdsOwnTimeoutNotTheMras() {
        SimFabric f = new SimFabric(10);
        f.tracing(true);
        IbCmId[] passive = new IbCmId[1];
        Side[] s = new Side[2];
        s[1] = new Side(f, "b", B, 2, (id, l, e, mad) -> {
            if (e == IbCmEvent.REQ_RECEIVED) {
                passive[0] = id;
                s[1].cm.sendMra(id); // silent; the application is slow to accept
            }
        });
        s[0] = new Side(f, "a", A, 1, (id, l, e, mad) -> {
            if (e == IbCmEvent.REP_RECEIVED) s[0].cm.sendRtu(id, new byte[0]);
        });
        s[1].cm.listen(s[1].cm.createId(s[1].handler), SERVICE);
        IbCmId active = s[0].cm.createId(s[0].handler);
        s[0].cm.sendReq(active, req(0x11, new byte[0]));
        // the REQ again after 6144 ms: the passive side answers the duplicate with a real MRA
        f.run(f.clock().nanoTime() + 6_200_000_000L, () -> active.state() == CmState.MRA_REQ_RCVD);
        assertEquals(CmState.MRA_REQ_RCVD, active.state());
        s[1].cm.sendRep(passive[0], rep(0x11));
        f.run(f.clock().nanoTime() + 1_000_000_000L, () -> passive[0].state() == CmState.ESTABLISHED);
        assertEquals(CmState.ESTABLISHED, active.state());

        f.dropWhen(p -> true); // the peer is gone
        s[0].cm.sendDreq(active, new byte[0]);
        int before = f.trace().size();
        f.run(f.clock().nanoTime() + 20_000_000_000L, () -> f.trace().size() >= before + 2);
        List<SimFabric.Packet> dreqs = f.trace().subList(before, before + 2);
        assertEquals(CmMessage.DREQ, cm(dreqs.get(0).bytes()));
        assertEquals(CmMessage.DREQ, cm(dreqs.get(1).bytes()));
        // the id's timeout: the REQ's 2 x 2^(18-8) + 2^(20-8) ms, not the MRA's 2^(24-8) + 2^(19-8) ms
        assertEquals(6144, (dreqs.get(1).sentAt() - dreqs.get(0).sentAt()) / 1_000_000, "ms between the DREQ's tries");
    }

    /** The CM message a packet carries, or null. */
    static CmMessage cm(byte[] ip) {
        var p = new FrameCodec().decodeIp(ip, 0).packet();
        if (p.bth().dqpn() != Nic.GSI_QPN) return null;
        MemorySegment payload = MemorySegment.ofArray(p.payload());
        assertNotNull(payload);
        return Mad.cmMessage(payload);
    }
}
