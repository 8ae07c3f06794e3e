package org.softrnic.cli.check;

import static org.softrnic.cli.check.ContractSteps.Pair;
import static org.softrnic.cli.check.ContractSteps.WAIT;
import static org.softrnic.cli.check.ContractSteps.await;
import static org.softrnic.cli.check.ContractSteps.check;
import static org.softrnic.cli.check.ContractSteps.drain;
import static org.softrnic.cli.check.ContractSteps.either;
import static org.softrnic.cli.check.ContractSteps.expect;
import static org.softrnic.cli.check.ContractSteps.fill;
import static org.softrnic.cli.check.ContractSteps.one;
import static org.softrnic.cli.check.ContractSteps.recv;
import static org.softrnic.cli.check.ContractSteps.recvWr;
import static org.softrnic.cli.check.ContractSteps.refused;
import static org.softrnic.cli.check.ContractSteps.remote;
import static org.softrnic.cli.check.ContractSteps.same;
import static org.softrnic.cli.check.ContractSteps.send;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.CompletionChannel;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.SharedReceiveQueue;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * The verbs contract: what every provider must do the same, as scenarios between two endpoints (two soft
 * RNICs, or one real device in loopback). Each scenario makes its own QPs, checks data and completions
 * byte for byte and field for field, and returns one line of what it saw; a broken promise throws.
 */
final class Contract {
    @FunctionalInterface
    interface Scenario {
        String run(Endpoint a, Endpoint b) throws Exception;
    }

    record Result(String name, boolean ok, String detail) {
    }

    private static final int QKEY = 0x11111111;

    /** The scenarios in the order they run. */
    static final Map<String, Scenario> SCENARIOS = new LinkedHashMap<>();

    static {
        SCENARIOS.put("rc-send-imm", Contract::sendWithImmediate);
        SCENARIOS.put("rc-write-imm", Contract::writeThenWriteWithImmediate);
        SCENARIOS.put("rc-read", Contract::read);
        SCENARIOS.put("rc-atomics", Contract::atomics);
        SCENARIOS.put("ud-send", Contract::udSend);
        SCENARIOS.put("srq-two-qps", Contract::srqFeedsTwoQps);
        SCENARIOS.put("srq-limit-event", Contract::srqLimitEvent);
        SCENARIOS.put("comp-channel", Contract::completionChannel);
        SCENARIOS.put("rem-access-err", Contract::wrongRkey);
        SCENARIOS.put("loc-len-err", Contract::receiveTooSmall);
        SCENARIOS.put("loc-prot-err", Contract::wrongLkey);
        SCENARIOS.put("rnr-retry-exc-err", Contract::noReceiveNoRetry);
        SCENARIOS.put("lifetimes", Contract::lifetimes);
    }

    private Contract() {
    }

    static List<Result> run(Endpoint a, Endpoint b, List<String> only) {
        List<Result> results = new ArrayList<>();
        for (var e : SCENARIOS.entrySet()) {
            if (!only.isEmpty() && !only.contains(e.getKey())) continue;
            try {
                drain(a.cq);
                drain(b.cq);
                results.add(new Result(e.getKey(), true, e.getValue().run(a, b)));
            } catch (Exception | AssertionError x) {
                results.add(new Result(e.getKey(), false, String.valueOf(x.getMessage() != null ? x.getMessage() : x)));
            }
        }
        return results;
    }

    // ---- scenarios

    private static String sendWithImmediate(Endpoint a, Endpoint b) throws Exception {
        try (Pair p = Pair.rc(a, b, 7)) {
            fill(a.mem, 0, 4000, 1);
            recv(p.qpB(), 1, b, 8192, 4096);
            SendWr w = send(SendOpcode.SEND_WITH_IMM, 2, a, 0, 4000);
            w.immData = 0x12345678;
            p.qpA().postSend(w);
            expect(one(a.cq), WcStatus.SUCCESS, WcOpcode.SEND, "sender");
            WorkCompletion wc = expect(one(b.cq), WcStatus.SUCCESS, WcOpcode.RECV, "receiver");
            check(wc.byteLen == 4000, "byte_len " + wc.byteLen + ", expected 4000");
            check((wc.wcFlags & WorkCompletion.WC_WITH_IMM) != 0 && wc.immData == 0x12345678, "immediate data " + wc);
            check(wc.qpNum == p.qpB().qpn(), "qp_num 0x" + Integer.toHexString(wc.qpNum));
            same(a.mem, 0, b.mem, 8192, 4000);
            return "4000 bytes and imm 0x12345678 arrived intact";
        }
    }

    private static String writeThenWriteWithImmediate(Endpoint a, Endpoint b) throws Exception {
        try (Pair p = Pair.rc(a, b, 7)) {
            int n = 64 * 1024;
            fill(a.mem, 0, n, 2);
            recv(p.qpB(), 1, b, 0, 0);
            p.qpA().postSend(remote(SendOpcode.RDMA_WRITE, 2, a, 0, n, b, 65536));
            expect(one(a.cq), WcStatus.SUCCESS, WcOpcode.RDMA_WRITE, "write");
            SendWr imm = remote(SendOpcode.RDMA_WRITE_WITH_IMM, 3, a, 0, 0, b, 65536);
            imm.numSge = 0;
            imm.immData = 0xcafe;
            p.qpA().postSend(imm);
            expect(one(a.cq), WcStatus.SUCCESS, WcOpcode.RDMA_WRITE, "write with imm");
            WorkCompletion wc = expect(one(b.cq), WcStatus.SUCCESS, WcOpcode.RECV_RDMA_WITH_IMM, "receiver");
            check(wc.immData == 0xcafe && wc.byteLen == 0, "imm " + wc);
            same(a.mem, 0, b.mem, 65536, n);
            return n + " bytes over " + n / 1024 + " packets of 1024, then imm 0xcafe to a receive";
        }
    }

    private static String read(Endpoint a, Endpoint b) throws Exception {
        try (Pair p = Pair.rc(a, b, 7)) {
            int n = 64 * 1024;
            fill(b.mem, 131072, n, 3);
            p.qpA().postSend(remote(SendOpcode.RDMA_READ, 4, a, 196608, n, b, 131072));
            WorkCompletion wc = expect(one(a.cq), WcStatus.SUCCESS, WcOpcode.RDMA_READ, "read");
            check(wc.byteLen == n, "byte_len " + wc.byteLen);
            same(b.mem, 131072, a.mem, 196608, n);
            return n + " bytes read back intact";
        }
    }

    private static String atomics(Endpoint a, Endpoint b) throws Exception {
        try (Pair p = Pair.rc(a, b, 7)) {
            long at = 262144;
            b.mem.set(ValueLayout.JAVA_LONG, at, 100);
            long r1 = atomic(p, a, b, SendOpcode.ATOMIC_FETCH_AND_ADD, at, 5, 0);
            long r2 = atomic(p, a, b, SendOpcode.ATOMIC_CMP_AND_SWP, at, 105, 7);
            long r3 = atomic(p, a, b, SendOpcode.ATOMIC_CMP_AND_SWP, at, 1, 9);
            long last = b.mem.get(ValueLayout.JAVA_LONG, at);
            check(r1 == 100 && r2 == 105 && r3 == 7 && last == 7, "returned " + r1 + ", " + r2 + ", " + r3 + "; memory " + last);
            return "fetch-add 100+5, swap 105->7, failed compare left 7";
        }
    }

    private static long atomic(Pair p, Endpoint a, Endpoint b, SendOpcode op, long at, long compareAdd, long swap) {
        SendWr w = remote(op, 5, a, 300000, 8, b, at);
        w.compareAdd = compareAdd;
        w.swap = swap;
        p.qpA().postSend(w);
        expect(one(a.cq), WcStatus.SUCCESS, op.wcOpcode, op.name());
        return a.mem.get(ValueLayout.JAVA_LONG, 300000);
    }

    private static String udSend(Endpoint a, Endpoint b) throws Exception {
        try (QueuePair qa = a.qp(QpType.UD, a.cq, null); QueuePair qb = b.qp(QpType.UD, b.cq, null)) {
            for (QueuePair q : new QueuePair[] {qa, qb}) {
                QpAttr attr = new QpAttr();
                attr.qkey = QKEY;
                q.modifyToRts(attr);
            }
            int n = 1000;
            fill(a.mem, 0, n, 4);
            recv(qb, 1, b, 4096, n + 40);
            try (AddressHandle ah = a.pd.createAh(a.towards(b))) {
                SendWr w = send(SendOpcode.SEND, 2, a, 0, n);
                w.ah = ah;
                w.remoteQpn = qb.qpn();
                w.remoteQkey = QKEY;
                qa.postSend(w);
                expect(one(a.cq), WcStatus.SUCCESS, WcOpcode.SEND, "sender");
                WorkCompletion wc = expect(one(b.cq), WcStatus.SUCCESS, WcOpcode.RECV, "receiver");
                check(wc.byteLen == n + 40 && (wc.wcFlags & WorkCompletion.WC_GRH) != 0, "byte_len " + wc.byteLen + " flags " + wc.wcFlags);
                check(wc.srcQp == qa.qpn(), "src_qp 0x" + Integer.toHexString(wc.srcQp) + ", expected 0x" + Integer.toHexString(qa.qpn()));
                same(a.mem, 0, b.mem, 4096 + 40, n);
            }
            return n + " bytes after a 40-byte GRH, src_qp right";
        }
    }

    private static String srqFeedsTwoQps(Endpoint a, Endpoint b) throws Exception {
        try (SharedReceiveQueue srq = b.pd.createSrq(16, 1, 0)) {
            for (int i = 0; i < 4; i++) srq.postRecv(recvWr(100 + i, b, 8192L * (i + 1), 4096));
            try (Pair p1 = Pair.rc(a, b, 7, srq); Pair p2 = Pair.rc(a, b, 7, srq)) {
                fill(a.mem, 0, 512, 5);
                fill(a.mem, 1024, 512, 6);
                p1.qpA().postSend(send(SendOpcode.SEND, 1, a, 0, 512));
                p2.qpA().postSend(send(SendOpcode.SEND, 2, a, 1024, 512));
                await(a.cq, 2);
                List<WorkCompletion> got = await(b.cq, 2);
                List<Integer> qpns = new ArrayList<>();
                for (WorkCompletion wc : got) {
                    expect(wc, WcStatus.SUCCESS, WcOpcode.RECV, "receiver");
                    long slot = 8192L * (wc.wrId - 99);
                    boolean first = wc.qpNum == p1.qpB().qpn();
                    same(a.mem, first ? 0 : 1024, b.mem, slot, 512);
                    qpns.add(wc.qpNum);
                }
                check(qpns.contains(p1.qpB().qpn()) && qpns.contains(p2.qpB().qpn()), "completions on QPs " + qpns);
                return "two QPs took receives from one SRQ, each message intact";
            }
        }
    }

    private static String srqLimitEvent(Endpoint a, Endpoint b) throws Exception {
        try (SharedReceiveQueue srq = b.pd.createSrq(16, 1, 0)) {
            for (int i = 0; i < 4; i++) srq.postRecv(recvWr(200 + i, b, 8192L * (i + 1), 4096));
            srq.arm(3);
            try (Pair p = Pair.rc(a, b, 7, srq)) {
                p.qpA().postSend(send(SendOpcode.SEND, 1, a, 0, 64));
                p.qpA().postSend(send(SendOpcode.SEND, 2, a, 0, 64));
                await(a.cq, 2);
                await(b.cq, 2);
                AsyncEvent e = b.ctx.getAsyncEvent(WAIT);
                check(e != null, "no async event within " + WAIT.toSeconds() + " s");
                check(e.type() == AsyncEvent.Type.SRQ_LIMIT_REACHED && e.subject() == srq, "event " + e);
                return "IBV_EVENT_SRQ_LIMIT_REACHED named the SRQ when 2 of 4 receives were left (limit 3)";
            }
        }
    }

    private static String completionChannel(Endpoint a, Endpoint b) throws Exception {
        try (CompletionChannel ch = b.ctx.createCompChannel()) {
            CompletionQueue cq = b.ctx.createCq(16, ch);
            try {
                try (Pair p = Pair.rc(a, b, 7, null, cq)) {
                    cq.reqNotify(false);
                    check(ch.getCqEvent(Duration.ofMillis(200)) == null, "an event before any completion");
                    recv(p.qpB(), 1, b, 0, 64);
                    p.qpA().postSend(send(SendOpcode.SEND, 2, a, 0, 64));
                    CompletionQueue woke = ch.getCqEvent(WAIT);
                    check(woke == cq, "the channel woke for " + woke);
                    cq.ackEvents(1);
                    expect(one(cq), WcStatus.SUCCESS, WcOpcode.RECV, "receiver");
                    await(a.cq, 1);
                }
            } finally {
                cq.close();
            }
            return "an armed CQ's first completion raised one event, acknowledged";
        }
    }

    private static String wrongRkey(Endpoint a, Endpoint b) throws Exception {
        try (Pair p = Pair.rc(a, b, 7)) {
            SendWr w = remote(SendOpcode.RDMA_WRITE, 1, a, 0, 64, b, 0);
            w.rkey = b.mr.rkey() ^ 0x5a5a00;
            p.qpA().postSend(w);
            expect(one(a.cq), WcStatus.REM_ACCESS_ERR, null, "write with a wrong rkey");
            check(p.qpA().state() == QpState.ERR, "the requester is in " + p.qpA().state() + ", not ERR");
            p.qpA().postSend(send(SendOpcode.SEND, 2, a, 0, 64));
            expect(one(a.cq), WcStatus.WR_FLUSH_ERR, null, "a send after the error");
            return "IBV_WC_REM_ACCESS_ERR, QP to ERR, the next request IBV_WC_WR_FLUSH_ERR";
        }
    }

    private static String receiveTooSmall(Endpoint a, Endpoint b) throws Exception {
        try (Pair p = Pair.rc(a, b, 7)) {
            recv(p.qpB(), 1, b, 0, 16);
            p.qpA().postSend(send(SendOpcode.SEND, 2, a, 0, 64));
            String receiver = either(one(b.cq), "a 16-byte receive for 64 bytes", WcStatus.LOC_LEN_ERR, WcStatus.LOC_QP_OP_ERR);
            String sender = either(one(a.cq), "the sender", WcStatus.REM_INV_REQ_ERR, WcStatus.REM_OP_ERR);
            return "receiver " + receiver + ", sender " + sender;
        }
    }

    private static String wrongLkey(Endpoint a, Endpoint b) throws Exception {
        try (Pair p = Pair.rc(a, b, 7)) {
            SendWr w = send(SendOpcode.SEND, 1, a, 0, 64);
            w.sgList[0].lkey = a.mr.lkey() ^ 0x5a5a00;
            p.qpA().postSend(w);
            return either(one(a.cq), "a send with a wrong lkey", WcStatus.LOC_PROT_ERR, WcStatus.LOC_QP_OP_ERR);
        }
    }

    private static String noReceiveNoRetry(Endpoint a, Endpoint b) throws Exception {
        try (Pair p = Pair.rc(a, b, 0)) {
            p.qpA().postSend(send(SendOpcode.SEND, 1, a, 0, 64));
            expect(one(a.cq), WcStatus.RNR_RETRY_EXC_ERR, null, "a send to a QP without receives, rnr_retry 0");
            return "IBV_WC_RNR_RETRY_EXC_ERR after the first RNR NAK";
        }
    }

    private static String lifetimes(Endpoint a, Endpoint b) {
        List<String> saw = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            MemoryRegion mr = a.pd.regMr(arena.allocate(4096, 4096), Endpoint.ALL_ACCESS);
            saw.add(refused(Errno.EBUSY, a.pd::close, "closing a PD with an MR"));
            mr.close();
            saw.add(refused(Errno.EINVAL, mr::close, "closing an MR twice"));
            QueuePair qp = a.qp(QpType.RC, a.cq, null);
            saw.add(refused(Errno.EBUSY, a.cq::close, "closing a CQ a QP uses"));
            qp.close();
            saw.add(refused(Errno.EINVAL, () -> qp.postSend(send(SendOpcode.SEND, 1, a, 0, 8)), "posting to a closed QP"));
        }
        if (a.ctx.device().provider().equals("ibverbs")) {
            saw.add(refused(Errno.EINVAL, () -> a.pd.regMr(MemorySegment.ofArray(new byte[4096]), Endpoint.ALL_ACCESS),
                    "registering a heap segment"));
        }
        return String.join("; ", saw);
    }
}
