package org.softrnic.emulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.verbs.cm.CmConnection;
import org.softrnic.verbs.cm.CmListener;
import org.softrnic.verbs.cm.ConnParam;

/**
 * What a user's test sees when its own code is wrong, on every fabric, through the public API and the
 * extension alone: an error completion where hardware would give one, never a request that vanishes, and the
 * failure explained in the refusing device's words.
 */
class FidelityTest {

    /** The memory under a registered region is freed, then a WRITE is posted from it. */
    static WorkCompletion writeFromFreedMemory(RdmaContext a, RdmaContext b) {
        Arena freed = Arena.ofShared();
        try (RcPair rc = new RcPair(a, b, 4096, freed)) {
            freed.close();
            WorkCompletion wc = rc.write(64, rc.endB.rkey());
            assertEquals(QpState.ERR, rc.qpA.query().qpState, "a local protection error moves the QP to ERR");
            return wc;
        }
    }

    @SoftRnicTest
    static class FreedMemoryVirtual {
        @Test
        void writeFromFreedMemory(RdmaContext a, RdmaContext b) {
            assertEquals(WcStatus.SUCCESS, FidelityTest.writeFromFreedMemory(a, b).status);
        }
    }

    @SoftRnicTest(fabric = SoftRnicTest.Fabric.THREADED)
    static class FreedMemoryThreaded {
        @Test
        void writeFromFreedMemory(RdmaContext a, RdmaContext b) {
            assertEquals(WcStatus.SUCCESS, FidelityTest.writeFromFreedMemory(a, b).status);
        }
    }

    /** A WRITE whose SGE runs one byte past its region. */
    @SoftRnicTest
    static class OutsideItsRegion {
        @Test
        void writeOnePastTheEnd(RdmaContext a, RdmaContext b) {
            try (RcPair rc = new RcPair(a, b, 4096)) {
                assertEquals(WcStatus.SUCCESS, rc.write(rc.src.addr() + 1, 4096, rc.endB.rkey()).status);
            }
        }
    }

    /** A region over a segment of a confined arena: the device's own thread could never reach it. */
    static void registerConfined(RdmaContext a) {
        try (Arena confined = Arena.ofConfined(); ProtectionDomain pd = a.allocPd()) {
            VerbsException e = org.junit.jupiter.api.Assertions.assertThrows(VerbsException.class,
                    () -> pd.regMr(confined.allocate(4096), Access.LOCAL_WRITE));
            assertEquals(Errno.EINVAL, e.errno());
            assertTrue(e.getMessage().contains("confined to another thread"), e.getMessage());
        }
    }

    @SoftRnicTest
    static class ConfinedVirtual {
        @Test
        void register(RdmaContext a) {
            registerConfined(a);
        }
    }

    @SoftRnicTest(fabric = SoftRnicTest.Fabric.THREADED)
    static class ConfinedThreaded {
        @Test
        void register(RdmaContext a) {
            registerConfined(a);
        }
    }

    @Test
    void aConfinedSegmentIsRefusedOnEveryFabric() {
        assertEquals(0, SoftRnicExtensionTest.run(ConfinedVirtual.class).size());
        assertEquals(0, SoftRnicExtensionTest.run(ConfinedThreaded.class).size());
    }

    /** An rdma_cm server on a thread of its own, its client on the test's thread, as a user writes the pair. */
    static void serverThreadAndClient(SoftRnicRun run) throws Exception {
        var at = new java.net.InetSocketAddress("10.0.0.2", 7174);
        var listening = new java.util.concurrent.CountDownLatch(1);
        var serverFailure = new java.util.concurrent.atomic.AtomicReference<Exception>();
        var checked = new java.util.concurrent.CountDownLatch(1);
        Thread server = Thread.ofPlatform().name("cm-server").start(() -> {
            try (CmListener l = CmListener.listen(at)) {
                listening.countDown();
                try (CmConnection c = l.accept(QpCaps.of(4, 4), ConnParam.DEFAULT, java.time.Duration.ofSeconds(10))) {
                    checked.await(10, java.util.concurrent.TimeUnit.SECONDS); // a DREQ before the client's check puts its QP in ERR
                    c.id().disconnect();
                }
            } catch (Exception e) {
                serverFailure.set(e); // said with the client's failure, if any: the server's is often the cause
                listening.countDown();
            }
        });
        listening.await();
        Thread.sleep(100);
        try (CmConnection c = CmConnection.connect(at, QpCaps.of(4, 4), ConnParam.DEFAULT, java.time.Duration.ofSeconds(10))) {
            assertEquals(QpState.RTS, c.qp().query().qpState);
        } catch (RuntimeException | AssertionError e) {
            if (serverFailure.get() != null) e.addSuppressed(serverFailure.get());
            throw e;
        } finally {
            checked.countDown();
            server.join(20_000);
        }
        if (serverFailure.get() != null) throw serverFailure.get();
    }

    @SoftRnicTest
    static class CmServerThreadVirtual {
        @Test
        void connect(SoftRnicRun run) throws Exception {
            serverThreadAndClient(run);
        }
    }

    @SoftRnicTest(fabric = SoftRnicTest.Fabric.THREADED)
    static class CmServerThreadThreaded {
        @Test
        void connect(SoftRnicRun run) throws Exception {
            serverThreadAndClient(run);
        }
    }

    @Test
    void aServerThreadWorksOnThreadedAndIsRefusedOnVirtualWithTheFabricToUseNamed() {
        assertEquals(List.of(), SoftRnicExtensionTest.run(CmServerThreadThreaded.class).stream().map(f -> f.getException().toString()).toList());
        String m = failureOf(CmServerThreadVirtual.class);
        assertTrue(m.matches("(?s).*softrnic: rnic\\d: thread '[^']+' called a device of the virtual-time fabric after"
                + " thread '[^']+' used it; that fabric runs all its devices on one thread.*"), m);
        assertTrue(m.contains("needs @SoftRnicTest(fabric = THREADED)"), m);
    }

    /** Forty WRITEs under the fault model: each completes, and the run shows what the faults did. */
    static void writesUnderFaults(RdmaContext a, RdmaContext b, SoftRnicRun run) {
        try (RcPair rc = new RcPair(a, b, 1024)) {
            for (int i = 0; i < 40; i++) assertEquals(WcStatus.SUCCESS, rc.write(1024, rc.endB.rkey()).status);
        }
        var f = run.faults();
        assertTrue(run.dropped() > 0 && f.get("link_duplicated") > 0 && f.get("link_ecn_marked") > 0, f.toString());
        assertEquals(run.dropped(), run.device(0).counters().get("link_dropped") + run.device(1).counters().get("link_dropped"));
    }

    @SoftRnicTest
    @Faults(loss = 0.2, duplicate = 0.2, ecnMark = 0.2)
    static class FaultsVirtual {
        @Test
        void writes(RdmaContext a, RdmaContext b, SoftRnicRun run) {
            writesUnderFaults(a, b, run);
        }
    }

    @SoftRnicTest(fabric = SoftRnicTest.Fabric.THREADED)
    @Faults(loss = 0.2, duplicate = 0.2, ecnMark = 0.2)
    static class FaultsThreaded {
        @Test
        void writes(RdmaContext a, RdmaContext b, SoftRnicRun run) {
            writesUnderFaults(a, b, run);
        }
    }

    @Test
    void whatTheFaultModelDidIsCountedOnEveryFabric() {
        assertEquals(List.of(), SoftRnicExtensionTest.run(FaultsVirtual.class).stream().map(x -> x.getException().getMessage()).toList());
        assertEquals(List.of(), SoftRnicExtensionTest.run(FaultsThreaded.class).stream().map(x -> x.getException().getMessage()).toList());
    }

    /** A WRITE posted on a QP nobody connected. */
    @SoftRnicTest
    static class NeverConnected {
        @Test
        void write(RdmaContext a) {
            try (Arena arena = Arena.ofShared(); ProtectionDomain pd = a.allocPd(); CompletionQueue cq = a.createCq(4);
                 MemoryRegion mr = pd.regMr(arena.allocate(64), Access.LOCAL_WRITE);
                 QueuePair qp = pd.createQp(QpInitAttr.rc(cq, QpCaps.of(4, 4)))) {
                SendWr wr = new SendWr(1).sge(mr.addr(), 64, mr.lkey());
                wr.opcode = SendOpcode.RDMA_WRITE;
                qp.postSend(wr);
            }
        }
    }

    @Test
    void aPostOnAQpNeverConnectedIsAnErrorWithTheLikelyCauseNamed() {
        Throwable e = SoftRnicExtensionTest.run(NeverConnected.class).getFirst().getException();
        assertFalse(e instanceof AssertionError, "an exception stays an error in the report, not a failed assertion: " + e);
        assertTrue(e.getCause() instanceof VerbsException, String.valueOf(e.getCause()));
        assertTrue(e.getMessage().startsWith("ibv_post_send: RC QP 0x11 RESET: sends need RTS; was it connected? (qp.connect, or"
                + " ibv_modify_qp to INIT, RTR and RTS)"), e.getMessage());
        assertTrue(e.getMessage().contains("softrnic: no packet was sent in this run"), e.getMessage());
    }

    /** A WRITE to a peer whose QP went back to RESET: refused on every try. */
    @SoftRnicTest
    static class PeerInReset {
        @Test
        void write(RdmaContext a, RdmaContext b) {
            try (RcPair rc = new RcPair(a, b, 64)) {
                rc.qpB.modify(new org.softrnic.verbs.QpAttr().state(QpState.RESET), org.softrnic.verbs.QpAttrMask.STATE);
                assertEquals(WcStatus.SUCCESS, rc.write(64, rc.endB.rkey()).status);
            }
        }
    }

    @Test
    void aRefusalRepeatedOnEveryRetryIsSaidOnceWithItsCountAndTheLikelyCause() {
        String m = failureOf(PeerInReset.class);
        assertTrue(m.startsWith("expected: <SUCCESS> but was: <RETRY_EXC_ERR>"), m);
        assertEquals(1, m.split("refused PSN", -1).length - 1, "one line for the eight refusals: " + m);
        assertTrue(m.contains("the QP is in IBV_QPS_RESET; it takes requests in RTR, RTS, SQD and SQE (dropped): was it ever"
                + " connected? (qp.connect, or ibv_modify_qp to INIT, RTR and RTS) (8 times: the first try and 7 retries, 67 ms apart)"), m);
        assertTrue(m.contains("softrnic: rnic0: QP 0x11: wr_id 4 (RDMA_WRITE) completes with IBV_WC_RETRY_EXC_ERR: the first try"
                + " and 7 retries"), m);
    }

    static String failureOf(Class<?> fixture) {
        List<TestExecutionSummary.Failure> f = SoftRnicExtensionTest.run(fixture);
        assertEquals(1, f.size(), fixture.getSimpleName());
        return f.getFirst().getException().getMessage();
    }

    @Test
    void aWriteFromFreedMemoryCompletesWithALocalProtectionErrorOnEveryFabricAndSaysWhy() {
        for (Class<?> fixture : List.of(FreedMemoryVirtual.class, FreedMemoryThreaded.class)) {
            String m = failureOf(fixture);
            assertTrue(m.startsWith("expected: <SUCCESS> but was: <LOC_PROT_ERR>"), m);
            assertTrue(m.matches("(?s).*softrnic: rnic0: QP 0x[0-9a-f]+: wr_id 4 \\(RDMA_WRITE\\) completes with IBV_WC_LOC_PROT_ERR:"
                    + " SGE 0 \\[0x[0-9a-f]+, \\+64\\) with lkey 0x[0-9a-f]+: the memory under its region was freed \\(the arena was"
                    + " closed\\) while the region was still registered.*"), m);
            assertFalse(m.contains(".pcap"), "no capture is pointed at: no packet was sent");
        }
        assertTrue(failureOf(FreedMemoryVirtual.class).contains("softrnic: no packet was sent in this run"));
    }

    @Test
    void aLocalProtectionErrorNamesTheSgeTheLkeyAndWhatTheRegionCovers() {
        String m = failureOf(OutsideItsRegion.class);
        assertTrue(m.startsWith("expected: <SUCCESS> but was: <LOC_PROT_ERR>"), m);
        assertTrue(m.matches("(?s).*softrnic: rnic0: QP 0x[0-9a-f]+: wr_id 4 \\(RDMA_WRITE\\) completes with IBV_WC_LOC_PROT_ERR:"
                + " SGE 0 \\[0x([0-9a-f]+), \\+4096\\) with lkey 0x[0-9a-f]+ lies outside its region: it ends 1 byte past the"
                + " region's end; the region is \\[0x[0-9a-f]+, 0x[0-9a-f]+\\); no packet of it was sent.*"), m);
        assertTrue(m.contains("softrnic: no packet was sent in this run"), m);
    }
}
