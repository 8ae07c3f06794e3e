package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.CompletionChannel;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * nic-model's behaviour again, through the public verbs API, over every fabric: the threaded in-process
 * one, the virtual-time one and UDP on loopback.
 */
class VerbsScenariosTest {
    private static void pattern(MemorySegment s, long n, int seed) {
        for (long i = 0; i < n; i++) s.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + seed));
    }

    private static SendWr write(ApiPair p, SendOpcode op, int length) {
        SendWr wr = new SendWr(1).sge(p.mrA.addr(), length, p.mrA.lkey());
        wr.opcode = op;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.remoteAddr = p.mrB.addr();
        wr.rkey = p.mrB.rkey();
        return wr;
    }

    @ParameterizedTest
    @EnumSource(value = ApiPair.Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "FRAMES_LOSSY")
    void writeReadAndAtomicsMoveExactlyTheBytes(ApiPair.Kind kind) throws Exception {
        try (ApiPair p = new ApiPair(kind, FaultConfig.NONE, Mtu.MTU_1024)) {
            pattern(p.memA(), ApiPair.SIZE, 3);
            SendWr wr = write(p, SendOpcode.RDMA_WRITE, ApiPair.SIZE);
            wr.wrId = 11;
            p.qpA.postSend(wr);
            WorkCompletion wc = ApiPair.awaitOk(p.cqA);
            assertEquals(11, wc.wrId);
            assertEquals(WcOpcode.RDMA_WRITE, wc.opcode);
            assertEquals(-1, MemorySegment.mismatch(p.memA(), 0, ApiPair.SIZE, p.memB(), 0, ApiPair.SIZE));

            p.memA().fill((byte) 0);
            wr.opcode = SendOpcode.RDMA_READ;
            wr.sgList[0].length = 100_000;
            p.qpA.postSend(wr);
            assertEquals(WcOpcode.RDMA_READ, ApiPair.awaitOk(p.cqA).opcode);
            assertEquals(-1, MemorySegment.mismatch(p.memA(), 0, 100_000, p.memB(), 0, 100_000));
            assertEquals(0, p.memA().get(ValueLayout.JAVA_BYTE, 100_000), "nothing past the READ's length");

            p.memB().set(ValueLayout.JAVA_LONG_UNALIGNED, 64, 40);
            wr.opcode = SendOpcode.ATOMIC_CMP_AND_SWP;
            wr.sgList[0].length = 8;
            wr.remoteAddr = p.mrB.addr() + 64;
            wr.compareAdd = 40;
            wr.swap = 99;
            p.qpA.postSend(wr);
            assertEquals(WcOpcode.COMP_SWAP, ApiPair.awaitOk(p.cqA).opcode);
            assertEquals(40, p.memA().get(ValueLayout.JAVA_LONG_UNALIGNED, 0), "the original value comes back");
            assertEquals(99, p.memB().get(ValueLayout.JAVA_LONG_UNALIGNED, 64));
            if (kind == ApiPair.Kind.UDP || kind == ApiPair.Kind.UDP_INLINE) {
                // each device's RoCE port is its own socket's, named in the peer's address vector: the packets
                // carry the port they are sent to, so every ICRC verifies against the rebuilt header
                for (SoftRnic d : new SoftRnic[] {p.devA, p.devB}) {
                    assertEquals(d.counters().get("rcvd_pkts"), d.counters().get("rcvd_icrc_verified"), d.name());
                }
                assertTrue(p.devA.rocePort() != p.devB.rocePort());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = ApiPair.Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "FRAMES_LOSSY")
    void sendWaitsForAReceiveThroughRnrAndCarriesImmediateData(ApiPair.Kind kind) throws Exception {
        try (ApiPair p = new ApiPair(kind, FaultConfig.NONE, Mtu.MTU_1024)) {
            pattern(p.memA(), 3000, 5);
            SendWr wr = new SendWr(1).sge(p.mrA.addr(), 3000, p.mrA.lkey());
            wr.opcode = SendOpcode.SEND_WITH_IMM;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.immData = 0xabcd;
            p.qpA.postSend(wr); // no receive yet: RNR NAK, retried (rnr_retry 7 is unlimited)
            if (kind != ApiPair.Kind.VIRTUAL) Thread.sleep(5);
            RecvWr recv = new RecvWr(1);
            recv.wrId = 77;
            recv.sgList[0].set(p.mrB.addr() + 4096, 4096, p.mrB.lkey());
            recv.numSge = 1;
            p.qpB.postRecv(recv);
            WorkCompletion got = ApiPair.awaitOk(p.cqB);
            assertEquals(77, got.wrId);
            assertEquals(3000, got.byteLen);
            assertEquals(0xabcd, got.immData);
            assertEquals(WorkCompletion.WC_WITH_IMM, got.wcFlags & WorkCompletion.WC_WITH_IMM);
            ApiPair.awaitOk(p.cqA);
            assertEquals(-1, MemorySegment.mismatch(p.memA(), 0, 3000, p.memB(), 4096, 4096 + 3000));
        }
    }

    @ParameterizedTest
    @EnumSource(value = ApiPair.Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "FRAMES_LOSSY")
    void aWrongRkeyIsARemoteAccessErrorAndTheQpGoesToErr(ApiPair.Kind kind) throws Exception {
        try (ApiPair p = new ApiPair(kind, FaultConfig.NONE, Mtu.MTU_1024)) {
            SendWr wr = write(p, SendOpcode.RDMA_WRITE, 512);
            wr.rkey = p.mrB.rkey() ^ 0x100;
            p.qpA.postSend(wr);
            WorkCompletion wc = ApiPair.await(p.cqA, 1).getFirst();
            assertEquals(WcStatus.REM_ACCESS_ERR, wc.status);
            assertEquals(QpState.ERR, p.qpA.state());
            // later requests are flushed
            wr.wrId = 5;
            p.qpA.postSend(wr);
            assertEquals(WcStatus.WR_FLUSH_ERR, ApiPair.await(p.cqA, 1).getFirst().status);
            // the responder saw an access error too: its QP reports it as an async event
            AsyncEvent e = p.b.getAsyncEvent(Duration.ofSeconds(5));
            assertNotNull(e, "the responder's async event");
            assertEquals(AsyncEvent.Type.QP_ACCESS_ERR, e.type());
            assertSame(p.qpB, e.subject());
        }
    }

    @ParameterizedTest
    @EnumSource(value = ApiPair.Kind.class, mode = EnumSource.Mode.EXCLUDE, names = "FRAMES_LOSSY")
    void aCompletionChannelWakesForSolicitedCompletionsOnly(ApiPair.Kind kind) throws Exception {
        try (ApiPair p = new ApiPair(kind, FaultConfig.NONE, Mtu.MTU_1024)) {
            CompletionChannel ch = p.keep(p.b.createCompChannel());
            CompletionQueue cq = p.keep(p.b.createCq(16, ch));
            var qpB = p.keep(p.pdB.createQp(org.softrnic.verbs.QpInitAttr.rc(cq, new org.softrnic.verbs.QpCaps(8, 8, 1, 1, 0))));
            var qpA = p.keep(p.pdA.createQp(org.softrnic.verbs.QpInitAttr.rc(p.cqA, new org.softrnic.verbs.QpCaps(8, 8, 1, 1, 0))));
            qpA.modifyToRts(p.connect(p.b, qpB, Mtu.MTU_1024));
            qpB.modifyToRts(p.connect(p.a, qpA, Mtu.MTU_1024));
            RecvWr recv = new RecvWr(1);
            for (int i = 0; i < 2; i++) {
                recv.wrId = i;
                qpB.postRecv(recv);
            }
            cq.reqNotify(true);
            SendWr wr = new SendWr(1);
            wr.opcode = SendOpcode.SEND;
            wr.sendFlags = SendFlags.SIGNALED;
            qpA.postSend(wr);
            ApiPair.awaitOk(p.cqA);
            assertEquals(null, ch.getCqEvent(Duration.ofMillis(50)), "an unsolicited completion raises no event");
            wr.sendFlags = SendFlags.SIGNALED | SendFlags.SOLICITED;
            qpA.postSend(wr);
            assertSame(cq, ch.getCqEvent(Duration.ofSeconds(5)));
            List<WorkCompletion> both = ApiPair.await(cq, 2);
            assertEquals(List.of(0L, 1L), both.stream().map(w -> w.wrId).toList());
            cq.ackEvents(1);
            ApiPair.awaitOk(p.cqA);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ApiPair.Kind.class, names = {"THREADED", "VIRTUAL"})
    void lossAndReorderOnTheFabricAreRepairedByGoBackN(ApiPair.Kind kind) throws Exception {
        FaultConfig lossy = new FaultConfig(0.05, 0.02, 0.05, 2_000L, 1_000L, 0.0, 42L);
        try (ApiPair p = new ApiPair(kind, lossy, Mtu.MTU_1024)) {
            pattern(p.memA(), ApiPair.SIZE, 9);
            int chunk = 16 * 1024;
            int n = ApiPair.SIZE / chunk;
            SendWr wr = write(p, SendOpcode.RDMA_WRITE, chunk);
            for (int i = 0; i < n; i++) {
                wr.wrId = i;
                wr.sgList[0].addr = p.mrA.addr() + (long) i * chunk;
                wr.remoteAddr = p.mrB.addr() + (long) i * chunk;
                p.qpA.postSend(wr);
                if (i % 32 == 31) ApiPair.await(p.cqA, 32).forEach(w -> assertEquals(WcStatus.SUCCESS, w.status, w.toString()));
            }
            assertEquals(-1, MemorySegment.mismatch(p.memA(), 0, ApiPair.SIZE, p.memB(), 0, ApiPair.SIZE));
            long lost = p.devA.counters().get("link_dropped") + p.devB.counters().get("link_dropped"); // on either fabric
            assertTrue(lost > 0, "the link lost packets");
            assertTrue(p.devA.counters().get("retry_exceeded_err") == 0);
        }
    }
}
