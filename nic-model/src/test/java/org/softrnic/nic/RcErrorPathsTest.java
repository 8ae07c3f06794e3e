package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.frame.Udp;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.packet.RocePacket;
import org.softrnic.wire.testing.RandomFrames;

/** The RC error paths the IBTA defines, each named after the behaviour it checks. */
class RcErrorPathsTest {
    static final ValueLayout.OfLong HOST = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    static Opcode opcodeOf(SimFabric.Packet p) {
        int ihl = (p.bytes()[0] & 0xf) * 4;
        return Opcode.of(p.bytes()[ihl + 8] & 0xff);
    }

    static int psnOf(SimFabric.Packet p) {
        int at = (p.bytes()[0] & 0xf) * 4 + 8 + 9;
        byte[] b = p.bytes();
        return (b[at] & 0xff) << 16 | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff);
    }

    static WcStatus only(List<WorkCompletion> wcs) {
        assertEquals(1, wcs.size(), wcs.toString());
        return wcs.getFirst().status;
    }

    @Test
    void ghostAckForAPsnNeverSentIsDropped() {
        Pair p = Pair.rc();
        byte[] ack = Pkt.of(Opcode.RC_ACKNOWLEDGE).qpn(p.a.qp.qpn()).psn(0x500000).aeth(Aeth.ack(0x1f, 1).syndrome(), 1)
                .from("192.0.2.2").to("192.0.2.1").frame();
        p.fabric.inject(p.a.nic, ack);
        assertEquals(1, p.a.nic.counters().get(Counter.DROP_GHOST_ACK));
        assertEquals(QpState.RTS, p.a.qp.state());
        assertTrue(p.a.sendCompletions().isEmpty());
    }

    @Test
    void aLostRequestPacketIsNakedOnceAndRetransmittedGoBackN() {
        Pair p = Pair.rc();
        AtomicInteger seen = new AtomicInteger();
        p.fabric.dropWhen(pk -> pk.from() == 0 && seen.incrementAndGet() == 2); // the 2nd of 4 SEND packets
        p.a.fill(0, 4096, 1);
        p.b.postRecv(1, 0, 8192);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 4096));
        p.run();
        assertEquals(WcStatus.SUCCESS, only(p.a.sendCompletions()));
        assertEquals(WcStatus.SUCCESS, only(p.b.recvCompletions()));
        RcBasicsTest.assertSameBytes(p.a.mem, 0, p.b.mem, 0, 4096);
        assertEquals(2, p.b.nic.counters().get(Counter.OUT_OF_SEQ_REQUEST), "packets 3 and 4 arrived out of sequence");
        assertEquals(1, p.a.nic.counters().get(Counter.RCVD_SEQ_ERR), "but only one NAK was sent for the gap");
        assertEquals(1, p.a.nic.counters().get(Counter.COMPLETER_RETRY_ERR));
        // go-back-N: packets 2, 3 and 4 went again
        List<Integer> psns = p.fabric.trace().stream().filter(pk -> pk.from() == 0).map(RcErrorPathsTest::psnOf).toList();
        assertEquals(List.of(0x100, 0x101, 0x102, 0x103, 0x101, 0x102, 0x103), psns);
    }

    @Test
    void aLostReadResponseIsAnImpliedNakAndTheReadIsRetried() {
        Pair p = Pair.rc();
        AtomicInteger responses = new AtomicInteger();
        p.fabric.dropWhen(pk -> pk.from() == 1 && responses.incrementAndGet() == 1); // first READ response packet
        p.b.fill(0, 3000, 5);
        SendWr r = p.a.wr(1, SendOpcode.RDMA_READ, 0, 3000);
        r.remoteAddr = p.b.va(0);
        r.rkey = p.b.mr.rkey();
        p.a.post(r);
        p.run();
        assertEquals(WcStatus.SUCCESS, only(p.a.sendCompletions()));
        RcBasicsTest.assertSameBytes(p.b.mem, 0, p.a.mem, 0, 3000);
        assertEquals(1, p.a.nic.counters().get(Counter.COMPLETER_RETRY_ERR));
        assertEquals(1, p.b.nic.counters().get(Counter.DUPLICATE_REQUEST), "the retried READ is a duplicate there");
    }

    @Test
    void impliedNakRetryLimitExceeded() {
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 1, a -> a.retryCnt = 1);
        p.fabric.dropWhen(pk -> pk.from() == 1 && opcodeOf(pk) == Opcode.RC_RDMA_READ_RESPONSE_FIRST);
        SendWr r = p.a.wr(1, SendOpcode.RDMA_READ, 0, 3000);
        r.remoteAddr = p.b.va(0);
        r.rkey = p.b.mr.rkey();
        p.a.post(r);
        p.run();
        assertEquals(WcStatus.RETRY_EXC_ERR, only(p.a.sendCompletions()));
        assertEquals(1, p.a.nic.counters().get(Counter.RETRY_EXCEEDED_ERR));
        assertEquals(QpState.ERR, p.a.qp.state());
    }

    @Test
    void localAckTimeoutRetransmitsAndTheDuplicateIsAckedAgain() {
        Pair p = Pair.rc();
        AtomicInteger acks = new AtomicInteger();
        p.fabric.dropWhen(pk -> pk.from() == 1 && acks.incrementAndGet() == 1); // the ACK
        p.b.postRecv(1, 0, 64);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.run();
        assertEquals(WcStatus.SUCCESS, only(p.a.sendCompletions()));
        assertEquals(1, p.b.recvCompletions().size(), "the duplicate SEND is not delivered twice");
        assertEquals(1, p.b.nic.counters().get(Counter.DUPLICATE_REQUEST));
        assertEquals(1, p.a.nic.counters().get(Counter.COMPLETER_RETRY_ERR));
        long timeout = 4096L << 14;
        assertTrue(p.fabric.clock().nanoTime() >= timeout, "the retry waited for the local ACK timeout");
    }

    @Test
    void localAckTimeoutRetryLimitExceededFlushesTheRest() {
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 1, a -> a.retryCnt = 3);
        p.fabric.dropWhen(pk -> pk.from() == 0);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.a.post(p.a.wr(2, SendOpcode.SEND, 0, 64));
        p.run();
        List<WorkCompletion> s = p.a.sendCompletions();
        assertEquals(WcStatus.RETRY_EXC_ERR, s.get(0).status);
        assertEquals(WcStatus.WR_FLUSH_ERR, s.get(1).status);
        assertEquals(3, p.a.nic.counters().get(Counter.COMPLETER_RETRY_ERR));
        assertEquals(1, p.a.nic.counters().get(Counter.RETRY_EXCEEDED_ERR));
        long firsts = p.fabric.trace().stream().filter(pk -> psnOf(pk) == 0x100).count();
        assertEquals(4, firsts, "the first attempt and three retries");
        assertEquals(QpState.ERR, p.a.qp.state());
    }

    @Test
    void psnSequenceRetryLimitExceeded() {
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 1, a -> a.retryCnt = 2);
        // every second packet of the message is lost, every time: each try ends in a sequence NAK
        p.fabric.dropWhen(pk -> pk.from() == 0 && psnOf(pk) == 0x101);
        p.b.postRecv(1, 0, 4096);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 3000));
        p.run();
        assertEquals(WcStatus.RETRY_EXC_ERR, only(p.a.sendCompletions()));
        // one NAK per gap (rxe: sent_psn_nak); the retransmissions lost again are recovered by the timer
        assertEquals(1, p.a.nic.counters().get(Counter.RCVD_SEQ_ERR));
        assertTrue(p.b.nic.counters().get(Counter.OUT_OF_SEQ_REQUEST) >= 3, "each try ran into the same gap");
        assertEquals(2, p.a.nic.counters().get(Counter.COMPLETER_RETRY_ERR));
        assertEquals(1, p.a.nic.counters().get(Counter.RETRY_EXCEEDED_ERR));
    }

    @Test
    void rkeyViolationIsARemoteAccessErrorOnBothSides() {
        Pair p = Pair.rc();
        SendWr w = p.a.wr(1, SendOpcode.RDMA_WRITE, 0, 64);
        w.remoteAddr = p.b.va(0);
        w.rkey = p.b.mr.rkey() ^ 0x5a5a;
        p.a.post(w);
        p.run();
        assertEquals(WcStatus.REM_ACCESS_ERR, only(p.a.sendCompletions()));
        assertEquals(QpState.ERR, p.a.qp.state());
        assertEquals(QpState.ERR, p.b.qp.state(), "IBTA class C error: the responder QP goes to ERR too");
        assertTrue(p.b.nic.drainEvents().stream().anyMatch(e -> e.type() == AsyncEvent.Type.QP_ACCESS_ERR));
    }

    @Test
    void outOfBoundsAndWrongAccessAreRemoteAccessErrors() {
        for (int variant = 0; variant < 3; variant++) {
            Pair p = Pair.rc();
            var readOnly = p.b.nic.regMr(p.b.pd, java.lang.foreign.Arena.ofAuto().allocate(4096), Access.REMOTE_READ);
            SendWr w = p.a.wr(1, SendOpcode.RDMA_WRITE, 0, 64);
            switch (variant) {
                case 0 -> { w.remoteAddr = p.b.va((1 << 20) - 32); w.rkey = p.b.mr.rkey(); } // runs past the end
                case 1 -> { w.remoteAddr = p.b.va(0) - 8; w.rkey = p.b.mr.rkey(); }           // starts before it
                default -> { w.remoteAddr = readOnly.iova(); w.rkey = readOnly.rkey(); }       // no REMOTE_WRITE
            }
            p.a.post(w);
            p.run();
            assertEquals(WcStatus.REM_ACCESS_ERR, only(p.a.sendCompletions()), "variant " + variant);
        }
    }

    @Test
    void misalignedAtomicIsAnInvalidRequest() {
        Pair p = Pair.rc();
        SendWr w = p.a.wr(1, SendOpcode.ATOMIC_FETCH_AND_ADD, 0, 8);
        w.remoteAddr = p.b.va(4);
        w.rkey = p.b.mr.rkey();
        p.a.post(w);
        p.run();
        assertEquals(WcStatus.REM_INV_REQ_ERR, only(p.a.sendCompletions()));
    }

    @Test
    void rnrNakRetriesUntilAReceiveIsPosted() {
        Pair p = Pair.rc(); // rnr_retry 7: forever
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.fabric.run(5_000_000);
        assertTrue(p.a.sendCompletions().isEmpty());
        long rnrs = p.a.nic.counters().get(Counter.RCVD_RNR_ERR);
        assertTrue(rnrs >= 2, "several RNR NAKs while no receive is posted: " + rnrs);
        assertEquals(rnrs, p.b.nic.counters().get(Counter.SEND_RNR_ERR));
        p.b.postRecv(1, 0, 64);
        p.run();
        assertEquals(WcStatus.SUCCESS, only(p.a.sendCompletions()));
        assertEquals(WcStatus.SUCCESS, only(p.b.recvCompletions()));
    }

    /**
     * The packet after an RNR-NAKed SEND arrives out of sequence and draws a PSN sequence NAK for the same PSN:
     * an echo of the RNR, not a loss. It must not spend retry_cnt (here 0), or a slow receiver would fail a
     * connection that lost nothing.
     */
    @Test
    void theSequenceNakThatFollowsAnRnrNakCostsNoRetry() {
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 1, a -> a.retryCnt = 0);
        for (int round = 0; round < 3; round++) {
            p.a.post(p.a.wr(10 + round, SendOpcode.SEND, 0, 64));
            p.a.post(p.write(20 + round, 0, 4096, 64));
            p.fabric.run(p.fabric.clock().nanoTime() + 3_000_000);
            assertTrue(p.a.sendCompletions().isEmpty(), "waiting for a receive");
            p.b.postRecv(round, 0, 64);
            p.run();
            var done = p.a.sendCompletions();
            assertEquals(2, done.size(), done.toString());
            assertTrue(done.stream().allMatch(c -> c.status == WcStatus.SUCCESS), done.toString());
        }
        assertTrue(p.b.nic.counters().get(Counter.OUT_OF_SEQ_REQUEST) >= 3, "each RNR NAK was echoed by a sequence NAK");
        // the echo finds its WQEs waiting out the RNR timer, sent again by nobody yet: nothing to go back for
        assertEquals(p.b.nic.counters().get(Counter.OUT_OF_SEQ_REQUEST), p.a.nic.counters().get(Counter.DROP_GHOST_ACK));
        assertEquals(0, p.a.nic.counters().get(Counter.COMPLETER_RETRY_ERR), "no retry spent");
    }

    @Test
    void rnrRetryLimitExceeded() {
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 1, a -> a.rnrRetry = 2);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.run();
        assertEquals(WcStatus.RNR_RETRY_EXC_ERR, only(p.a.sendCompletions()));
        assertEquals(3, p.a.nic.counters().get(Counter.RCVD_RNR_ERR), "first try and two retries");
        assertEquals(1, p.a.nic.counters().get(Counter.RETRY_RNR_EXCEEDED_ERR));
        // min_rnr_timer 1 = 0.01 ms between tries
        assertTrue(p.fabric.clock().nanoTime() >= 2 * 10_000);
    }

    @Test
    void unexpectedOpcodeForTheQpTypeIsDropped() {
        Pair p = Pair.rc();
        byte[] uc = Pkt.of(Opcode.UC_SEND_ONLY).qpn(p.a.qp.qpn()).psn(0x200).payload(new byte[8]).from("192.0.2.2").to("192.0.2.1").frame();
        p.fabric.inject(p.a.nic, uc);
        assertEquals(1, p.a.nic.counters().get(Counter.DROP_OPCODE_FOR_QP_TYPE));
        assertEquals(QpState.RTS, p.a.qp.state());
    }

    @Test
    void badReceiveBufferIsARemoteOperationalError() {
        Pair p = Pair.rc();
        var wr = new org.softrnic.verbs.RecvWr();
        wr.wrId = 5;
        wr.numSge = 1;
        wr.sgList[0].set(p.b.va(0), 64, p.b.mr.lkey() + 1);
        p.b.nic.postRecv(p.b.qp, wr);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.run();
        assertEquals(WcStatus.REM_OP_ERR, only(p.a.sendCompletions()));
        assertEquals(WcStatus.LOC_PROT_ERR, only(p.b.recvCompletions()));
    }

    @Test
    void tooSmallReceiveBufferIsALengthError() {
        Pair p = Pair.rc();
        p.b.postRecv(5, 0, 16);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 64));
        p.run();
        assertEquals(WcStatus.REM_INV_REQ_ERR, only(p.a.sendCompletions()));
        assertEquals(WcStatus.LOC_LEN_ERR, only(p.b.recvCompletions()));
    }

    @Test
    void badLocalKeyIsALocalProtectionError() {
        Pair p = Pair.rc();
        SendWr w = p.a.wr(1, SendOpcode.SEND, 0, 64);
        w.sgList[0].lkey ^= 0x10;
        p.a.post(w);
        p.a.post(p.a.wr(2, SendOpcode.SEND, 0, 64));
        p.run();
        List<WorkCompletion> s = p.a.sendCompletions();
        assertEquals(WcStatus.LOC_PROT_ERR, s.get(0).status);
        assertEquals(WcStatus.WR_FLUSH_ERR, s.get(1).status);
        assertEquals(0, p.a.nic.counters().get(Counter.SENT_PKTS), "nothing went on the wire");
    }

    @Test
    void duplicateReadIsReExecutedAndDuplicateAtomicIsReplayedNotReExecuted() {
        Pair p = Pair.rc();
        p.b.mem.set(HOST, 0, 100);
        SendWr fa = p.a.wr(1, SendOpcode.ATOMIC_FETCH_AND_ADD, 0, 8);
        fa.remoteAddr = p.b.va(0);
        fa.rkey = p.b.mr.rkey();
        fa.compareAdd = 1;
        p.a.post(fa);
        p.b.fill(1000, 2000, 3);
        SendWr rd = p.a.wr(2, SendOpcode.RDMA_READ, 1000, 2000);
        rd.remoteAddr = p.b.va(1000);
        rd.rkey = p.b.mr.rkey();
        p.a.post(rd);
        p.run();
        assertEquals(101, p.b.mem.get(HOST, 0));
        long sentByB = p.b.nic.counters().get(Counter.SENT_PKTS);
        // replay both requests exactly as they were on the wire
        for (SimFabric.Packet pk : List.copyOf(p.fabric.trace())) {
            if (pk.from() == 0) p.fabric.inject(p.b.nic, pk.bytes());
        }
        p.run();
        assertEquals(101, p.b.mem.get(HOST, 0), "the atomic did not run twice");
        assertEquals(2, p.b.nic.counters().get(Counter.DUPLICATE_REQUEST));
        assertEquals(sentByB + 1 + 2, p.b.nic.counters().get(Counter.SENT_PKTS),
                "one atomic ACK replayed and two READ response packets sent again");
        List<SimFabric.Packet> replies = p.fabric.trace().stream().filter(pk -> pk.from() == 1).toList();
        assertEquals(replies.get(0).bytes().length, replies.get(3).bytes().length);
        assertEquals(Opcode.RC_ATOMIC_ACKNOWLEDGE, opcodeOf(replies.get(3)));
        assertEquals(2, p.a.sendCompletions().size());
    }

    @Test
    void psnWrapsAt2To24() {
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 1, a -> {
            a.sqPsn = 0xfffffe;
            a.rqPsn = 0xfffffe;
        });
        p.a.fill(0, 5000, 11);
        p.b.postRecv(1, 0, 8192);
        p.a.post(p.a.wr(1, SendOpcode.SEND, 0, 5000));
        SendWr w = p.a.wr(2, SendOpcode.RDMA_WRITE, 0, 2048);
        w.remoteAddr = p.b.va(100_000);
        w.rkey = p.b.mr.rkey();
        p.a.post(w);
        p.run();
        assertEquals(2, p.a.sendCompletions().stream().filter(c -> c.status == WcStatus.SUCCESS).count());
        RcBasicsTest.assertSameBytes(p.a.mem, 0, p.b.mem, 0, 5000);
        List<Integer> psns = p.fabric.trace().stream().filter(pk -> pk.from() == 0).map(RcErrorPathsTest::psnOf).toList();
        assertEquals(List.of(0xfffffe, 0xffffff, 0, 1, 2, 3, 4), psns);
    }

    @Test
    void cqOverflowRaisesCqErrAndTakesTheQpToErr() {
        Pair p = Pair.rc();
        var smallCq = p.a.nic.createCq(2);
        var qp = p.a.nic.createQp(p.a.pd, QpType.RC, smallCq, p.a.rcq, null, org.softrnic.verbs.QpCaps.of(16, 16), true);
        var peer = p.b.nic.createQp(p.b.pd, QpType.RC, p.b.scq, p.b.rcq, null, org.softrnic.verbs.QpCaps.of(16, 16), true);
        Pair.Side sa = p.a;
        var old = sa.qp;
        sa.qp = qp;
        p.b.qp = peer;
        Pair.connect(sa, p.b, Pair.GID_B, QpType.RC, Mtu.MTU_1024, 1, 1, x -> { });
        Pair.connect(p.b, sa, Pair.GID_A, QpType.RC, Mtu.MTU_1024, 1, 1, x -> { });
        for (int i = 0; i < 4; i++) {
            SendWr w = sa.wr(i, SendOpcode.RDMA_WRITE, 0, 8);
            w.remoteAddr = p.b.va(0);
            w.rkey = p.b.mr.rkey();
            sa.post(w);
        }
        p.run();
        assertTrue(smallCq.overflowed());
        assertEquals(QpState.ERR, qp.state());
        assertTrue(p.a.nic.drainEvents().stream().anyMatch(e -> e.type() == AsyncEvent.Type.CQ_ERR));
        assertEquals(QpState.RTS, old.state(), "QPs on other CQs are untouched");
    }
}
