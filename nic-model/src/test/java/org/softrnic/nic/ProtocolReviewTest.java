package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.softrnic.nic.RcErrorPathsTest.opcodeOf;
import static org.softrnic.nic.RcErrorPathsTest.psnOf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.SharedReceiveQueue;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.frame.Udp;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.header.NakCode;
import org.softrnic.wire.header.Reth;
import org.softrnic.wire.packet.RocePacket;
import org.softrnic.wire.testing.RandomFrames;

/**
 * The nineteen findings of the protocol review against rxe (shared/reviews/protocol-review.md), one test each,
 * named after the behaviour now required; each failed before its fix. A is the requester (SQ PSN 0x100), B
 * the responder, path MTU 1024, unless a test says otherwise. The comment above each test writes out the
 * exchange it checks.
 */
class ProtocolReviewTest {
    static final ValueLayout.OfLong HOST = RcErrorPathsTest.HOST;

    /** An ACK or NAK from B to A. */
    static byte[] ackToA(Pair p, int syndrome, int psn) {
        return Pkt.of(Opcode.RC_ACKNOWLEDGE).qpn(p.a.qp.qpn()).psn(psn).aeth(syndrome, 1).from("192.0.2.2").to("192.0.2.1").frame();
    }

    /** An RDMA WRITE ONLY of {@code payload} into B's region at {@code offset}, with the given addresses and P_Key. */
    static byte[] writeToB(Pair p, String src, String dst, int pkey, int psn, long offset, byte[] payload) {
        return Pkt.of(Opcode.RC_RDMA_WRITE_ONLY).qpn(p.b.qp.qpn()).psn(psn).pkey(pkey).ackReq()
                .reth(p.b.va(offset), p.b.mr.rkey(), payload.length).payload(payload).from(src).to(dst).frame();
    }

    static List<SimFabric.Packet> sentBy(Pair p, int side) {
        return p.fabric.trace().stream().filter(pk -> pk.from() == side).toList();
    }

    static SendWr read(Pair p, long wrId, long localOff, long remoteOff, int len) {
        SendWr r = p.a.wr(wrId, SendOpcode.RDMA_READ, localOff, len);
        r.remoteAddr = p.b.va(remoteOff);
        r.rkey = p.b.mr.rkey();
        return r;
    }

    static SendWr write(Pair p, long wrId, long localOff, long remoteOff, int len) {
        return p.write(wrId, localOff, remoteOff, len);
    }

    static void assertStatuses(List<WorkCompletion> wcs, WcStatus... expected) {
        assertEquals(List.of(expected), wcs.stream().map(w -> w.status).toList(), wcs.toString());
    }

    // 1. A READ of 4 packets (0x100-0x103); B's MIDDLE 0x101 is lost:
    //    B->A FIRST 0x100, MIDDLE 0x101 (lost), MIDDLE 0x102, LAST 0x103
    //    A->B READ 0x101 (len 3072, the implied NAK's re-issue)
    //    B->A MIDDLE 0x101, MIDDLE 0x102, LAST 0x103 (MSN 1)   <- rxe's replay: FIRST only at the READ's first PSN
    @Test
    void aPartialDuplicateReadIsReplayedWithMiddleAndLastAndTheCurrentMsn() {
        Pair p = Pair.rc();
        AtomicInteger fromB = new AtomicInteger();
        p.fabric.dropWhen(pk -> pk.from() == 1 && fromB.incrementAndGet() == 2);
        p.b.fill(0, 4096, 9);
        p.a.post(read(p, 1, 0, 0, 4096));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
        RcBasicsTest.assertSameBytes(p.b.mem, 0, p.a.mem, 0, 4096);
        List<SimFabric.Packet> b = sentBy(p, 1);
        assertEquals(List.of(Opcode.RC_RDMA_READ_RESPONSE_FIRST, Opcode.RC_RDMA_READ_RESPONSE_MIDDLE,
                Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, Opcode.RC_RDMA_READ_RESPONSE_LAST,
                Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, Opcode.RC_RDMA_READ_RESPONSE_LAST),
                b.stream().map(RcErrorPathsTest::opcodeOf).toList());
        assertEquals(List.of(0x100, 0x101, 0x102, 0x103, 0x101, 0x102, 0x103), b.stream().map(RcErrorPathsTest::psnOf).toList());
        assertEquals(1, msnOf(b.getLast()), "the replayed LAST carries the responder's current MSN");
    }

    static int msnOf(SimFabric.Packet pk) {
        byte[] x = pk.bytes();
        int aeth = (x[0] & 0xf) * 4 + 8 + 12;
        return (x[aeth + 1] & 0xff) << 16 | (x[aeth + 2] & 0xff) << 8 | (x[aeth + 3] & 0xff);
    }

    // 2. A: WRITE 0x100, READ 0x101; B's ACK 0x100 and READ RESPONSE 0x101 are both lost; A times out and
    //    sends both again. B: the WRITE is a duplicate, ACKed with 0x100 (rxe's ack_psn - 1), not with 0x101,
    //    the READ's PSN, which would complete an rxe requester's READ without its data.
    @Test
    void theAckForADuplicateWriteAfterAReadNamesTheWritesPsn() {
        Pair p = Pair.rc();
        AtomicInteger fromB = new AtomicInteger();
        p.fabric.dropWhen(pk -> pk.from() == 1 && fromB.incrementAndGet() <= 2);
        p.a.fill(0, 64, 1);
        p.b.fill(4096, 64, 2);
        p.a.post(write(p, 1, 0, 0, 64));
        p.a.post(read(p, 2, 8192, 4096, 64));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS, WcStatus.SUCCESS);
        RcBasicsTest.assertSameBytes(p.b.mem, 4096, p.a.mem, 8192, 64);
        List<SimFabric.Packet> b = sentBy(p, 1);
        assertEquals(Opcode.RC_ACKNOWLEDGE, opcodeOf(b.get(2)));
        assertEquals(0x100, psnOf(b.get(2)), "the duplicate WRITE's ACK");
        assertEquals(1, p.a.nic.counters().get(Counter.COMPLETER_RETRY_ERR), "the timeout's retry only, no implied NAK");
    }

    // 3. UC: B's receive 2 names lkey 0xdeadbeef. A's SEND lands on it: the receive completes with
    //    IBV_WC_LOC_PROT_ERR and B's QP goes to ERR (rxe: class A, RESPST_ERR_MALFORMED_WQE); nothing is written
    //    through the slot's earlier mapping, and A's next SEND is dropped by B.
    @Test
    void aUcReceiveWithABadLkeyCompletesInErrorAndNothingIsWritten() {
        Pair p = new Pair(QpType.UC, Mtu.MTU_1024, 1, a -> { });
        p.a.fill(0, 64, 0x42);
        p.b.postRecv(1, 0, 64);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.run();
        assertStatuses(p.b.recvCompletions(), WcStatus.SUCCESS);
        RecvWr bad = new RecvWr();
        bad.wrId = 2;
        bad.numSge = 1;
        bad.sgList[0].set(p.b.va(0x2000), 64, 0xdeadbeef);
        p.b.nic.postRecv(p.b.qp, bad);
        p.a.post(p.a.wr(2, SendOpcode.SEND, 0, 64));
        p.a.post(p.a.wr(3, SendOpcode.SEND, 0, 64));
        p.run();
        List<WorkCompletion> r = p.b.recvCompletions();
        assertStatuses(r, WcStatus.LOC_PROT_ERR);
        assertEquals(2, r.getFirst().wrId);
        assertEquals(QpState.ERR, p.b.qp.state());
        assertEquals(0, p.b.mem.get(ValueLayout.JAVA_BYTE, 0x2000), "nothing written where the bad receive pointed");
        assertEquals(1, p.b.nic.counters().get(Counter.DROP_QP_STATE), "the SEND after it finds the QP in ERR");
    }

    // 4. A READ of 4 packets; B's LAST (0x103) is lost; B deregisters the region; A times out and re-issues
    //    READ 0x103. B checks the key again (rxe_recheck_mr): NAK remote access error, not data.
    @Test
    void aDuplicateReadOfADeregisteredRegionIsARemoteAccessError() {
        Pair p = Pair.rc();
        p.fabric.dropWhen(pk -> pk.from() == 1 && opcodeOf(pk) == Opcode.RC_RDMA_READ_RESPONSE_LAST);
        p.b.fill(0, 4096, 3);
        p.a.post(read(p, 1, 0, 0, 4096));
        p.fabric.run(p.fabric.clock().nanoTime() + 1_000_000); // the responses, not yet the timeout
        p.b.nic.deregMr(p.b.mr);
        p.fabric.dropWhen(null);
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.REM_ACCESS_ERR);
        assertEquals(QpState.ERR, p.b.qp.state());
        assertEquals(0, p.a.mem.get(ValueLayout.JAVA_BYTE, 3072), "no byte of the last 1024 arrived");
    }

    // 4b. A duplicate READ that names another rkey than the READ it repeats is dropped (rxe duplicate_request).
    @Test
    void aDuplicateReadWithAnotherRkeyIsDropped() {
        Pair p = Pair.rc();
        p.b.fill(0, 1024, 3);
        p.a.post(read(p, 1, 0, 0, 1024));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
        byte[] dup = Pkt.of(Opcode.RC_RDMA_READ_REQUEST).qpn(p.b.qp.qpn()).psn(0x100).ackReq()
                .reth(p.b.va(0), p.b.mr.rkey() ^ 1, 1024).frame();
        int before = sentBy(p, 1).size();
        p.fabric.inject(p.b.nic, dup);
        p.run();
        assertEquals(before, sentBy(p, 1).size(), "no response");
        assertEquals(1, p.b.nic.counters().get(Counter.DROP_BAD_DUPLICATE));
        assertEquals(QpState.RTS, p.b.qp.state());
    }

    // 5. A type 1 window bound twice: each bind takes ibv_inc_rkey of the last key, so the first binding's rkey
    //    reaches nothing after the second bind.
    @Test
    void aType1WindowGetsANewRkeyOnEveryBind() {
        Pair p = Pair.rc();
        MemoryRegion mr = MemoryWindowTest.bindable(p);
        MemoryWindow mw = p.b.nic.allocMw(p.b.pd, 1);
        p.b.nic.bindMw(p.b.qp, mw, 1, mr, mr.iova(), 4096, Access.REMOTE_WRITE);
        p.run();
        int first = mw.rkey();
        p.b.nic.bindMw(p.b.qp, mw, 2, mr, mr.iova() + 32768, 4096, Access.REMOTE_WRITE);
        p.run();
        assertStatuses(p.b.sendCompletions(), WcStatus.SUCCESS, WcStatus.SUCCESS);
        int second = mw.rkey();
        assertNotEquals(first, second);
        assertEquals(MemoryWindow.incRkey(first), second);
        p.a.post(MemoryWindowTest.writeTo(p, mr.iova() + 32768, second, 64));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
        p.a.post(MemoryWindowTest.writeTo(p, mr.iova() + 32768, first, 64));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.REM_ACCESS_ERR);
    }

    // 6. B expects PSN 0x100 from A (192.0.2.1). A WRITE ONLY with B's QPN, PSN 0x100 and a valid rkey from
    //    198.51.100.9, and one from A's address to another of B's, are dropped as drop_wrong_peer (rxe
    //    check_addr); A's real WRITE with PSN 0x100 then executes.
    @Test
    void aRequestFromAnAddressOtherThanThePeersIsDroppedAndChangesNothing() {
        Pair p = Pair.rc();
        byte[] payload = new byte[64];
        java.util.Arrays.fill(payload, (byte) 0x66);
        p.fabric.inject(p.b.nic, writeToB(p, "198.51.100.9", "192.0.2.2", 0xffff, 0x100, 0, payload));
        p.fabric.inject(p.b.nic, writeToB(p, "192.0.2.1", "192.0.2.99", 0xffff, 0x100, 0, payload));
        assertEquals(2, p.b.nic.counters().get(Counter.DROP_WRONG_PEER));
        assertEquals(0, p.b.mem.get(ValueLayout.JAVA_BYTE, 0));
        p.a.fill(0, 64, 0x11);
        p.a.post(write(p, 1, 0, 0x100, 64));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
        RcBasicsTest.assertSameBytes(p.a.mem, 0, p.b.mem, 0x100, 64);
        assertEquals(0, p.b.nic.counters().get(Counter.DUPLICATE_REQUEST));
        assertTrue(sentBy(p, 1).size() == 1, "B answered nothing but A's WRITE");
    }

    // 7. A FETCH_ADD whose result goes to two SGEs of 4 bytes (+0 and +0x80): the 8 bytes are scattered over
    //    the list (rxe copy_data); the bytes after SGE 0 are untouched.
    @Test
    void anAtomicsResultIsScatteredOverItsSgeList() {
        Pair p = Pair.rc();
        p.a.mem.asSlice(0, 0x100).fill((byte) 0xee);
        p.b.mem.set(HOST, 0, 0x1122334455667788L);
        SendWr w = p.a.wr(1, SendOpcode.ATOMIC_FETCH_AND_ADD, 0, 4);
        w.numSge = 2;
        w.sgList[1].set(p.a.va(0x80), 4, p.a.mr.lkey());
        w.remoteAddr = p.b.va(0);
        w.rkey = p.b.mr.rkey();
        w.compareAdd = 1;
        p.a.post(w);
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
        assertEquals(0x55667788, p.a.mem.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 0));
        assertEquals(0x11223344, p.a.mem.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 0x80));
        assertEquals((byte) 0xee, p.a.mem.get(ValueLayout.JAVA_BYTE, 4), "the byte after SGE 0");
        assertEquals(0x1122334455667789L, p.b.mem.get(HOST, 0));
    }

    // 8. UC has no SEND with invalidate: ibv_post_send says EINVAL, and the send queue goes on working.
    @Test
    void ucSendWithInvalidateIsRefusedAtPost() {
        Pair p = new Pair(QpType.UC, Mtu.MTU_1024, 1, a -> { });
        SendWr inv = p.a.wr(1, SendOpcode.SEND_WITH_INV, 0, 64);
        inv.invalidateRkey = 0x1234;
        VerbsException e = assertThrows(VerbsException.class, () -> p.a.post(inv));
        assertEquals(Errno.EINVAL, e.errno());
        p.b.postRecv(1, 0, 64);
        p.a.post(p.a.wr(2, SendOpcode.SEND, 0, 64));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
        assertStatuses(p.b.recvCompletions(), WcStatus.SUCCESS);
    }

    // 9. A READ of 4 packets (0x100-0x103) is outstanding; a plain ACK 0x101 arrives before the responses.
    //    It lies inside the READ's response range: ignored (rxe check_psn), and the READ completes whole.
    @Test
    void anAckInsideAReadsResponseRangeIsIgnored() {
        Pair p = Pair.rc();
        p.b.fill(0, 4096, 7);
        p.a.post(read(p, 1, 0, 0, 4096));
        p.fabric.inject(p.a.nic, ackToA(p, Aeth.ACK_CREDITS_INVALID, 0x101));
        p.fabric.inject(p.a.nic, ackToA(p, Aeth.nak(NakCode.PSN_SEQUENCE_ERROR, 0).syndrome(), 0x102));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
        RcBasicsTest.assertSameBytes(p.b.mem, 0, p.a.mem, 0, 4096);
        assertEquals(2, p.a.nic.counters().get(Counter.DROP_ACK_INSIDE_READ));
        assertEquals(0, p.a.nic.counters().get(Counter.COMPLETER_RETRY_ERR));
    }

    // 10. B's max_dest_rd_atomic is 0: a READ is NAKed Invalid Request (rxe RESPST_ERR_TOO_MANY_RDMA_ATM_REQ),
    //     and so is an atomic; A's max_rd_atomic 0 lets no READ out at all (rxe's rd_atomic count).
    @Test
    void noResponderResourcesNakReadsAndAtomicsAndNoInitiatorDepthSendsNone() {
        for (SendOpcode op : new SendOpcode[] {SendOpcode.RDMA_READ, SendOpcode.ATOMIC_FETCH_AND_ADD}) {
            Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 1, a -> a.maxDestRdAtomic = 0);
            SendWr w = p.a.wr(1, op, 0, op == SendOpcode.RDMA_READ ? 64 : 8);
            w.remoteAddr = p.b.va(0);
            w.rkey = p.b.mr.rkey();
            p.a.post(w);
            p.run();
            assertStatuses(p.a.sendCompletions(), WcStatus.REM_INV_REQ_ERR);
            assertEquals(QpState.ERR, p.b.qp.state(), op.toString());
        }
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 1, a -> a.maxRdAtomic = 0);
        p.a.post(read(p, 1, 0, 0, 64));
        p.run();
        assertTrue(p.fabric.trace().isEmpty(), "no READ request on the wire");
        assertTrue(p.a.sendCompletions().isEmpty());
        assertEquals(QpState.RTS, p.a.qp.state());
    }

    // 11. A: WRITE 16 KiB (0x100-0x10f), then a WRITE with lkey 0xdeadbeef, then a SEND. The bad WRITE waits
    //     until B's ACK completes the first: A's CQ is [SUCCESS, LOC_PROT_ERR, WR_FLUSH_ERR], with no async
    //     event (a local error is reported by its completion).
    @Test
    void aLocalErrorCompletesAfterTheRequestsBeforeItAndRaisesNoEvent() {
        Pair p = Pair.rc();
        p.a.post(write(p, 1, 0, 0, 16384));
        SendWr bad = write(p, 2, 0, 0, 64);
        bad.sgList[0].lkey = 0xdeadbeef;
        p.a.post(bad);
        p.a.post(write(p, 3, 0, 0, 64));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS, WcStatus.LOC_PROT_ERR, WcStatus.WR_FLUSH_ERR);
        assertEquals(QpState.ERR, p.a.qp.state());
        assertTrue(p.a.nic.drainEvents().isEmpty());
    }

    static void toSqd(Pair.Side s) {
        QpAttr attr = new QpAttr();
        attr.qpState = QpState.SQD;
        attr.sqDrainNotify = true;
        s.nic.modifyQp(s.qp, attr, QpAttrMask.STATE | QpAttrMask.EN_SQD_ASYNC_NOTIFY);
    }

    // 12. A WRITE of 200 packets is under way when A goes to SQD (with IBV_QP_EN_SQD_ASYNC_NOTIFY); one of its
    //     packets is lost. The WRITE is finished and retransmitted in SQD, a later one is not started, and
    //     IBV_EVENT_SQ_DRAINED comes once; back in RTS the later one goes.
    @Test
    void sqdFinishesTheMessageInProgressThenRaisesSqDrained() {
        Pair p = Pair.rc();
        AtomicInteger fromA = new AtomicInteger();
        p.fabric.dropWhen(pk -> pk.from() == 0 && fromA.incrementAndGet() == 150);
        p.a.post(write(p, 1, 0, 0, 200 * 1024));
        toSqd(p.a);
        p.a.post(write(p, 2, 0, 0, 64));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
        assertEquals(List.of(new AsyncEvent(AsyncEvent.Type.SQ_DRAINED, p.a.qp)), p.a.nic.drainEvents());
        assertEquals(QpState.SQD, p.a.qp.state());
        assertTrue(p.a.nic.counters().get(Counter.COMPLETER_RETRY_ERR) >= 1, "the lost packet was sent again in SQD");
        QpAttr back = new QpAttr();
        back.qpState = QpState.RTS;
        p.a.nic.modifyQp(p.a.qp, back, QpAttrMask.STATE);
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
    }

    // 12b. With nothing outstanding, SQD is drained at once; without EN_SQD_ASYNC_NOTIFY no event comes.
    @Test
    void anIdleQpIsDrainedAtOnceAndNotifiesOnlyWhenAsked() {
        Pair p = Pair.rc();
        toSqd(p.a);
        assertEquals(List.of(new AsyncEvent(AsyncEvent.Type.SQ_DRAINED, p.a.qp)), p.a.nic.drainEvents());
        QpAttr attr = new QpAttr();
        attr.qpState = QpState.SQD;
        p.b.nic.modifyQp(p.b.qp, attr, QpAttrMask.STATE);
        assertTrue(p.b.nic.drainEvents().isEmpty());
    }

    // 13. B's QP takes receives from an SRQ. A SEND of 2 packets: its FIRST lands in SRQ WQE 5, its LAST is
    //     lost, and B is moved to ERR: WQE 5 completes IBV_WC_WR_FLUSH_ERR and IBV_EVENT_QP_LAST_WQE_REACHED
    //     is raised (the IBTA rule rxe's patch quotes: no more WQEs on the receive queue of a QP in ERR).
    @Test
    void anSrqQpInErrFlushesThePartlyFilledWqeAndRaisesLastWqeReached() {
        Pair p = Pair.rc();
        SharedReceiveQueue srq = p.b.nic.createSrq(p.b.pd, 16, 1, 0);
        QueuePair qb = p.b.nic.createQp(p.b.pd, QpType.RC, p.b.scq, p.b.rcq, srq, QpCaps.of(8, 8), false);
        QueuePair qa = p.a.nic.createQp(p.a.pd, QpType.RC, p.a.scq, p.a.rcq, null, QpCaps.of(8, 8), false);
        UcUdSrqTest.connectPair(p, qa, qb);
        p.b.postSrqRecv(srq, 5, 0, 4096);
        p.fabric.dropWhen(pk -> pk.from() == 0 && opcodeOf(pk) == Opcode.RC_SEND_LAST);
        p.a.qp = qa;
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 2048));
        p.fabric.run(p.fabric.clock().nanoTime() + 1_000_000);
        QpAttr err = new QpAttr();
        err.qpState = QpState.ERR;
        p.b.nic.modifyQp(qb, err, QpAttrMask.STATE);
        List<WorkCompletion> r = p.b.recvCompletions();
        assertStatuses(r, WcStatus.WR_FLUSH_ERR);
        assertEquals(5, r.getFirst().wrId);
        assertEquals(List.of(new AsyncEvent(AsyncEvent.Type.QP_LAST_WQE_REACHED, qb)), p.b.nic.drainEvents());
    }

    // 14. retry_cnt 7 is seven retries, as the IBTA says (rxe never counts 7 down): with every ACK lost the
    //     WRITE goes 8 times, then IBV_WC_RETRY_EXC_ERR. Kept, and said in docs/engine.md and the tools' help.
    @Test
    void retryCount7IsSevenRetriesAsTheIbtaSays() {
        Pair p = Pair.rc();
        p.fabric.dropWhen(pk -> pk.from() == 1);
        p.a.post(write(p, 1, 0, 0, 64));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.RETRY_EXC_ERR);
        assertEquals(8, sentBy(p, 0).size());
    }

    // 15. A NAK with the reserved code 5 for A's WRITE: the WRITE fails IBV_WC_REM_OP_ERR (rxe check_ack's
    //     default case) and A's QP goes to ERR.
    @Test
    void aNakWithAReservedCodeFailsTheRequestAsARemoteOperationalError() {
        Pair p = Pair.rc();
        p.a.post(write(p, 1, 0, 0, 64));
        p.fabric.inject(p.a.nic, ackToA(p, 0x60 | 5, 0x100));
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.REM_OP_ERR);
        assertEquals(QpState.ERR, p.a.qp.state());
    }

    // 15b. An AETH syndrome with the reserved bit 7 set (0x9f would read as an ACK from bits 6-5 alone) is no
    //      acknowledgement: dropped and counted (drop_bad_syndrome), and the WRITE completes with B's real ACK.
    @Test
    void aSyndromeWithTheReservedBitSetIsNoAcknowledgement() {
        Pair p = Pair.rc();
        p.a.post(write(p, 1, 0, 0, 64));
        p.fabric.inject(p.a.nic, ackToA(p, 0x9f, 0x100));
        assertTrue(p.a.sendCompletions().isEmpty(), "not completed by the reserved syndrome");
        assertEquals(1, p.a.nic.counters().get(Counter.DROP_BAD_SYNDROME));
        assertEquals(0, p.a.nic.counters().get(Counter.DROP_MALFORMED), "a packet counted in rcvd_pkts is not also malformed");
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.SUCCESS);
    }

    // 16. is UcUdSrqTest.udLargerThanTheMtuCompletesWithoutAPacket.

    // 17. P_Key: the port holds 0xFFFF; a request with the limited member 0x7FFF matches it (rxe pkey_match),
    //     one with 0x1234 does not.
    @Test
    void theLimitedMemberPkeyIsAcceptedAndAnotherPartitionIsNot() {
        Pair p = Pair.rc();
        byte[] payload = {1, 2, 3, 4};
        p.fabric.inject(p.b.nic, writeToB(p, "192.0.2.1", "192.0.2.2", 0x1234, 0x100, 0, payload));
        assertEquals(1, p.b.nic.counters().get(Counter.DROP_BAD_PKEY));
        p.fabric.inject(p.b.nic, writeToB(p, "192.0.2.1", "192.0.2.2", 0x7fff, 0x100, 0, payload));
        assertEquals(1, p.b.mem.get(ValueLayout.JAVA_BYTE, 0), "the 0x7FFF WRITE executed");
        assertEquals(1, p.b.nic.counters().get(Counter.DROP_BAD_PKEY));
    }

    // 18. A's READ target (and an atomic's) is deregistered while the request is on the wire: the response is
    //     not placed, and the request completes IBV_WC_LOC_PROT_ERR (rxe's copy_data looks the lkey up again).
    @Test
    void dataForARegionDeregisteredMeanwhileIsALocalProtectionError() {
        for (SendOpcode op : new SendOpcode[] {SendOpcode.RDMA_READ, SendOpcode.ATOMIC_CMP_AND_SWP}) {
            Pair p = Pair.rc();
            MemorySegment target = Arena.ofAuto().allocate(4096, 8);
            MemoryRegion local = p.a.nic.regMr(p.a.pd, target, Access.LOCAL_WRITE);
            p.b.fill(0, 4096, 5);
            SendWr w = p.a.wr(1, op, 0, op == SendOpcode.RDMA_READ ? 4096 : 8);
            w.sgList[0].set(local.iova(), op == SendOpcode.RDMA_READ ? 4096 : 8, local.lkey());
            w.remoteAddr = p.b.va(0);
            w.rkey = p.b.mr.rkey();
            p.a.post(w);
            p.a.nic.deregMr(local);
            p.run();
            assertStatuses(p.a.sendCompletions(), WcStatus.LOC_PROT_ERR);
            assertEquals(0, target.get(ValueLayout.JAVA_BYTE, 0), op + ": nothing placed");
        }
    }

    // 18b. A 4-packet WRITE into B's fast-register region: its 2nd packet is lost, so B takes the FIRST, NAKs
    //      the gap, and before A goes back N, B invalidates the region and maps it again under the same key
    //      onto other memory at another iova. The resent MIDDLE checks the key again: its address is outside
    //      the new mapping, so NAK remote access error (before, the engine wrote through the FIRST's mapping
    //      at a negative offset and threw), and nothing lands in either mapping past what the FIRST wrote.
    @Test
    void everyPacketOfAWriteChecksItsKeyAgain() {
        Pair p = Pair.rc();
        MemoryRegion fr = p.b.nic.allocMr(p.b.pd, 1 << 16);
        MemorySegment first = Arena.ofAuto().allocate(8192, 8);
        MemorySegment second = Arena.ofAuto().allocate(8192, 8);
        int key = (fr.lkey() & ~0xff) | ((fr.lkey() + 1) & 0xff);
        p.b.nic.postSend(p.b.qp, regMr(fr, first, 0x10_0000, key));
        AtomicInteger fromA = new AtomicInteger();
        p.fabric.dropWhen(pk -> pk.from() == 0 && fromA.incrementAndGet() == 2);
        p.a.fill(0, 4096, 9);
        SendWr w = p.a.wr(1, SendOpcode.RDMA_WRITE, 0, 4096);
        w.remoteAddr = 0x10_0000;
        w.rkey = key;
        p.a.post(w);
        p.fabric.run(p.fabric.clock().nanoTime() + 1_500); // the FIRST placed, the NAK on its way back
        SendWr inv = new SendWr(1);
        inv.opcode = SendOpcode.LOCAL_INV;
        inv.invalidateRkey = key;
        p.b.nic.postSend(p.b.qp, inv);
        p.b.nic.postSend(p.b.qp, regMr(fr, second, 0x20_0000, key)); // same key, other memory, other iova
        p.fabric.dropWhen(null);
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.REM_ACCESS_ERR);
        assertEquals(-1, MemorySegment.mismatch(second, 0, 8192, Arena.ofAuto().allocate(8192), 0, 8192), "nothing in the new mapping");
        assertEquals(0, first.get(ValueLayout.JAVA_BYTE, 1024), "nothing past the FIRST in the old one");
    }

    static SendWr regMr(MemoryRegion fr, MemorySegment mem, long iova, int key) {
        SendWr reg = new SendWr(1);
        reg.opcode = SendOpcode.REG_MR;
        reg.regMr = Handles.mr(fr);
        reg.regSegment = mem;
        reg.regIova = iova;
        reg.regAccess = Access.LOCAL_WRITE | Access.REMOTE_WRITE;
        reg.regKey = key;
        return reg;
    }

    // 19a. SE goes on the last packet of a SEND or a WRITE with immediate, never on a plain WRITE (rxe
    //      init_req_packet).
    @Test
    void solicitedEventIsSetOnlyWhereAReceiveCompletes() {
        Pair p = Pair.rc();
        SendWr plain = write(p, 1, 0, 0, 64);
        plain.sendFlags |= SendFlags.SOLICITED;
        SendWr imm = write(p, 2, 0, 0, 64);
        imm.opcode = SendOpcode.RDMA_WRITE_WITH_IMM;
        imm.sendFlags |= SendFlags.SOLICITED;
        p.b.postRecv(1, 0, 64);
        p.a.post(plain);
        p.a.post(imm);
        p.run();
        List<SimFabric.Packet> a = sentBy(p, 0);
        assertFalse(seOf(a.get(0)), "plain WRITE");
        assertTrue(seOf(a.get(1)), "WRITE with immediate");
    }

    static boolean seOf(SimFabric.Packet pk) {
        return (pk.bytes()[(pk.bytes()[0] & 0xf) * 4 + 8 + 1] & 0x80) != 0;
    }

    static boolean ackReqOf(SimFabric.Packet pk) {
        return (pk.bytes()[(pk.bytes()[0] & 0xf) * 4 + 8 + 8] & 0x80) != 0;
    }

    // 19b. AckReq: rxe's noack_pkts++ > 64 asks on every 66th middle packet and on the last: for a
    //      200-packet WRITE, packets 66, 132, 198 and 200.
    @Test
    void ackRequestComesEvery66thPacketAndOnTheLast() {
        Pair p = Pair.rc();
        p.a.post(write(p, 1, 0, 0, 200 * 1024));
        p.run();
        List<SimFabric.Packet> a = sentBy(p, 0);
        assertEquals(200, a.size());
        List<Integer> asking = java.util.stream.IntStream.range(0, a.size()).filter(i -> ackReqOf(a.get(i))).boxed().toList();
        assertEquals(List.of(65, 131, 197, 199), asking);
    }

    // 19c. The window: with B's ACKs lost, A sends PSNs 0x100..0x180 (129 packets, rxe's req.psn <= comp.psn
    //      + 128) and then waits for its timer.
    @Test
    void theRequesterSends129UnacknowledgedPsns() {
        Pair p = Pair.rc();
        p.fabric.dropWhen(pk -> pk.from() == 1);
        p.a.post(write(p, 1, 0, 0, 200 * 1024));
        p.fabric.run(p.fabric.clock().nanoTime() + 1_000_000);
        List<SimFabric.Packet> a = sentBy(p, 0);
        assertEquals(129, a.size());
        assertEquals(0x180, psnOf(a.getLast()));
    }

    // 19d. An atomic at a misaligned address with a bad rkey: the key is checked first (rxe check_rkey before
    //      rxe_mr_do_atomic_op), so NAK remote access error, not invalid request.
    @Test
    void aMisalignedAtomicWithABadRkeyIsARemoteAccessError() {
        Pair p = Pair.rc();
        SendWr w = p.a.wr(1, SendOpcode.ATOMIC_FETCH_AND_ADD, 0, 8);
        w.remoteAddr = p.b.va(4);
        w.rkey = 0xdeadbeef;
        p.a.post(w);
        p.run();
        assertStatuses(p.a.sendCompletions(), WcStatus.REM_ACCESS_ERR);
    }
}
