package org.softrnic.emulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.softrnic.emulator.soft.SoftFabric;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.WcStatus;

/**
 * The extension as a user meets it: test classes run through the JUnit Platform (the nested classes below,
 * which surefire does not pick up itself), and what their runs report.
 */
class SoftRnicExtensionTest {
    static List<TestExecutionSummary.Failure> run(Class<?> fixture) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(fixture)).build(), listener);
        return listener.getSummary().getFailures();
    }

    /** A WRITE with a wrong rkey that the test expects to succeed. */
    @SoftRnicTest
    static class FailsOnPurpose {
        @Test
        void aWriteWithAWrongKey(RdmaContext a, RdmaContext b) {
            try (RcPair rc = new RcPair(a, b, 64)) {
                assertEquals(WcStatus.SUCCESS, rc.write(64, rc.endB.rkey() ^ 0x100).status);
            }
        }
    }

    @Test
    void aFailureNamesTheSeedTheReplayAndThePacketsKept() throws Exception {
        List<TestExecutionSummary.Failure> f = run(FailsOnPurpose.class);
        assertEquals(1, f.size());
        String message = f.getFirst().getException().getMessage();
        long seed = SoftRnicRun.seedFor(FailsOnPurpose.class.getName(), "aWriteWithAWrongKey");
        assertTrue(message.startsWith("expected: <SUCCESS> but was: <REM_ACCESS_ERR>"), message);
        assertTrue(message.contains("softrnic: seed " + seed + "; replay with -Dsoftrnic.seed=" + seed
                + " -Dtest=SoftRnicExtensionTest$FailsOnPurpose#aWriteWithAWrongKey"), message);
        var pcap = SoftRnicRun.ARTEFACTS.resolve("SoftRnicExtensionTest$FailsOnPurpose.aWriteWithAWrongKey.pcap");
        var txt = SoftRnicRun.ARTEFACTS.resolve("SoftRnicExtensionTest$FailsOnPurpose.aWriteWithAWrongKey.txt");
        assertTrue(message.contains(pcap.toString()) && message.contains(txt.toString()), message);
        assertTrue(Files.size(pcap) > 24, "the capture holds packets");
        String listing = Files.readString(txt);
        assertTrue(listing.contains("rnic0 -> rnic1") && listing.contains("RC_RDMA_WRITE_ONLY"), listing);
        assertTrue(listing.contains("NAK remote access error"), listing);
    }

    /** Leaves a PD and a CQ open. */
    @SoftRnicTest
    static class Leaks {
        @Test
        void leavesAPdOpen(RdmaContext a) {
            a.allocPd();
            a.createCq(4);
        }
    }

    @Test
    void anObjectLeftOpenFailsTheTestAndIsNamed() {
        List<TestExecutionSummary.Failure> f = run(Leaks.class);
        assertEquals(1, f.size());
        String message = f.getFirst().getException().getMessage();
        assertTrue(message.startsWith("softrnic: the test left open: "), message);
        assertTrue(message.contains("PD 1") && message.contains("CQ "), message);
    }

    /** Makes a fabric of its own, with a device on it, and never closes it. */
    @SoftRnicTest
    static class LeaksNativeMemory {
        static SoftFabric left;

        @Test
        void leavesAFabricOpen() {
            left = SoftFabric.threaded();
            left.add(org.softrnic.emulator.config.SoftRnicConfig.builder().name("forgotten").gid("10.9.9.9").build());
        }
    }

    @Test
    void nativeMemoryNotGivenBackFailsTheTest() {
        try {
            List<TestExecutionSummary.Failure> f = run(LeaksNativeMemory.class);
            assertEquals(1, f.size());
            String message = f.getFirst().getException().getMessage();
            assertTrue(message.startsWith("softrnic: the test left open: ") && message.contains("bytes of softrnic's native"
                    + " memory (a device or fabric the test made and did not close)"), message);
        } finally {
            LeaksNativeMemory.left.close();
        }
    }

    /** Records what each run was given. */
    @SoftRnicTest(devices = 3, names = {"left", "middle", "right"})
    @Faults(loss = 0.2)
    static class Shapes {
        static final List<Long> seeds = new ArrayList<>();
        static final List<String> names = new ArrayList<>();
        static long dropped;

        @Test
        void records(SoftRnicRun run, SoftFabric fabric, SoftRnic first, SoftRnic second, RdmaContext a, RdmaContext b) {
            seeds.add(run.seed());
            fabric.devices().forEach(d -> names.add(d.name()));
            names.add(first.name() + "/" + second.name());
            try (RcPair rc = new RcPair(a, b, 65536)) {
                assertEquals(WcStatus.SUCCESS, rc.write(65536, rc.endB.rkey()).status);
            }
            dropped = first.counters().get("link_dropped") + second.counters().get("link_dropped")
                    + fabric.simulation().trace().stream().filter(p -> p.dropped()).count();
        }
    }

    @Test
    void devicesNamesFaultsAndSeedsComeFromTheAnnotationsAndTheProperty() {
        Shapes.seeds.clear();
        Shapes.names.clear();
        assertEquals(List.of(), run(Shapes.class));
        assertEquals(List.of(), run(Shapes.class));
        assertEquals(List.of("left", "middle", "right", "left/middle", "left", "middle", "right", "left/middle"), Shapes.names);
        assertEquals(Shapes.seeds.get(0), Shapes.seeds.get(1), "the seed is the test's own, run after run");
        assertTrue(Shapes.dropped > 0, "20 % loss lost packets, and the WRITE still completed");
        System.setProperty("softrnic.seed", "4242");
        try {
            assertEquals(List.of(), run(Shapes.class));
        } finally {
            System.clearProperty("softrnic.seed");
        }
        assertEquals(4242L, Shapes.seeds.get(2));
    }

    /** An assumption that does not hold; a context closed by the test itself. */
    @SoftRnicTest(fabric = SoftRnicTest.Fabric.THREADED)
    static class Manners {
        @Test
        void assumesWhatIsNotSo(RdmaContext a) {
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "not here");
        }

        @Test
        void closesTheContextItWasGiven(RdmaContext a) {
            try (a) {
                a.queryPort(1);
            }
        }
    }

    @Test
    void aSkippedTestStaysSkippedAndAClosedContextIsNoFailure() {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        long before = org.softrnic.emulator.fabric.CountedArena.live();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(Manners.class)).build(), listener);
        assertEquals(List.of(), listener.getSummary().getFailures());
        assertEquals(1, listener.getSummary().getTestsAbortedCount());
        assertEquals(before, org.softrnic.emulator.fabric.CountedArena.live(), "both threaded fabrics were closed");
    }

    /** A loss test, run where no link can lose: on a real device. */
    @SoftRnicTest
    @Faults(loss = 0.05)
    static class LossOnARealDevice {
        @Test
        void lossy(SoftRnicRun run) {
            assertTrue(run.dropped() > 0);
        }
    }

    @Test
    void aFaultsTestOnARealDeviceIsSkippedWithTheReasonNotPassedWithoutItsFaults() {
        System.setProperty("softrnic.provider", "ibverbs");
        System.setProperty("softrnic.device", "rxe0");
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        java.util.List<String> reasons = new java.util.ArrayList<>();
        try {
            LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(LossOnARealDevice.class)).build(),
                    listener, new org.junit.platform.launcher.TestExecutionListener() {
                        @Override
                        public void executionFinished(org.junit.platform.launcher.TestIdentifier id,
                                                      org.junit.platform.engine.TestExecutionResult result) {
                            result.getThrowable().ifPresent(t -> reasons.add(t.getMessage()));
                        }
                    });
        } finally {
            System.clearProperty("softrnic.provider");
            System.clearProperty("softrnic.device");
        }
        assertEquals(List.of(), listener.getSummary().getFailures());
        assertEquals(1, listener.getSummary().getTestsAbortedCount());
        assertEquals(List.of("@Faults needs the soft provider; rxe0 is a real device, whose link softrnic cannot shape, so this"
                + " test is skipped, not passed without its faults"), reasons);
    }

    /** Faults no link can have. */
    @SoftRnicTest(fabric = SoftRnicTest.Fabric.THREADED)
    @Faults(loss = 2)
    static class BadFaults {
        @Test
        void neverRuns(RdmaContext a) {
        }
    }

    @Test
    void aBadAnnotationFailsAndLeavesNoFabricBehind() {
        long before = org.softrnic.emulator.fabric.CountedArena.live();
        assertEquals(1, run(BadFaults.class).size());
        assertEquals(before, org.softrnic.emulator.fabric.CountedArena.live(), "the fabric made before the bad value was closed");
    }
}
