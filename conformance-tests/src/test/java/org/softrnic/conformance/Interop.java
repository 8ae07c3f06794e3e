package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.softrnic.conformance.rxe.RxeRun;

/** What the rxe interop suites need, checked once: in CI a missing piece fails, elsewhere it skips. */
public final class Interop {
    private Interop() {
    }

    /** The project's root: Maven runs each module's tests in that module's folder. */
    public static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /**
     * Skips a rung that only the full matrix runs ({@code -Pinterop-full}, system property
     * softrnic.interop=full); "ci" rungs always run.
     */
    public static void tier(String tier) {
        boolean full = "full".equals(System.getProperty("softrnic.interop"));
        Assumptions.assumeTrue(tier.equals("ci") || full, "in the full interop matrix only (-Pinterop-full)");
    }

    /** One perftest run in the guest: null when it passed, the guest's output when perftest could not sample its clock. */
    @FunctionalInterface
    public interface PerftestAttempt {
        String run(int attempt) throws Exception;
    }

    /**
     * Runs {@code attempt}, and once more when the guest failed on its own: perftest there could not sample its
     * CPU clock for its report (under TCG the sample is sometimes too noisy: "Correlation coefficient r^2 < 0.9 /
     * Can't produce a report"), or the guest ended without a word ({@link RxeRun.GuestSilent}). Such a run says
     * nothing about softrnic. A second such run fails.
     */
    public static void perftestWithClockRetry(PerftestAttempt attempt) throws Exception {
        String first;
        try {
            first = attempt.run(1);
        } catch (RxeRun.GuestSilent e) {
            System.err.println("the guest ended without a word; once more:\n" + e.getMessage());
            first = "";
        }
        if (first == null) return;
        String second = attempt.run(2);
        if (second != null) throw new AssertionError("perftest in the guest could not sample its clock" + (first.isEmpty() ? " (after a guest that ended without a word)" : " twice") + ":\n" + second);
    }

    /**
     * qemu, the guest's tools, root or password-less sudo (for network namespaces and taps), and the guest's
     * kernel: downloaded and unpacked once, before any rung's own timeouts start.
     */
    public static void requireRxeGuest() {
        for (String tool : List.of("qemu-system-x86_64", "ibv_rc_pingpong", "busybox", "ip")) Tools.require(tool);
        boolean privileged = asRoot().isEmpty() || succeeds("sudo", "-n", "true");
        if (!privileged && Tools.inCi()) fail("the rxe interop suites need root or password-less sudo for network namespaces");
        Assumptions.assumeTrue(privileged, "the rxe interop suites need root or password-less sudo for network namespaces");
        String kernel = guestKernel();
        if (!kernel.isEmpty() && Tools.inCi()) fail("the rxe guest's kernel could not be prepared:\n" + kernel);
        Assumptions.assumeTrue(kernel.isEmpty(), "the rxe guest's kernel could not be prepared:\n" + kernel);
    }

    /** What scripts/rxe-peer --prepare said when it failed, or "" once it succeeded; run once per JVM. */
    private static String guestKernelError;

    /**
     * A fresh machine's first guest downloads Debian's kernel package. Done inside a rung, a slow or retried
     * download ran into that rung's own timeouts; done here, each rung finds the kernel ready.
     */
    private static synchronized String guestKernel() {
        if (guestKernelError != null) return guestKernelError;
        Path script = ROOT.resolve("scripts/rxe-peer");
        try {
            Process p = new ProcessBuilder(script.toString(), "--prepare").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            guestKernelError = p.waitFor() == 0 ? "" : out;
        } catch (java.io.IOException e) {
            guestKernelError = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        return guestKernelError;
    }

    /** A tool the suite runs: in CI its absence fails, elsewhere it skips. */
    public static void requireTool(String tool) {
        Tools.require(tool);
    }

    /** What to put in front of a command that needs root: nothing for root, else sudo -n. */
    public static List<String> asRoot() {
        return succeeds("sh", "-c", "[ \"$(id -u)\" = 0 ]") ? List.of() : List.of("sudo", "-n");
    }

    private static boolean succeeds(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** `softrnic decode` of a capture, as text. */
    public static String decode(Path pcap) {
        DecodeCommandTest.Result r = DecodeCommandTest.run("decode", pcap.toString());
        assertEquals(0, r.code(), r.err());
        return r.out();
    }

    /** `softrnic decode --json` of a capture: one JSON object per frame. */
    public static String decodeJson(Path pcap) {
        DecodeCommandTest.Result r = DecodeCommandTest.run("decode", "--json", pcap.toString());
        assertEquals(0, r.code(), r.err());
        return r.out();
    }

    /** RoCEv2 packets in the capture that repeat an earlier one (same direction, opcode and PSN). */
    public static long packetsSeenTwice(Path pcap) {
        DecodeCommandTest.Result r = DecodeCommandTest.run("decode", "--json", pcap.toString());
        assertEquals(0, r.code(), r.err());
        java.util.Set<String> seen = new java.util.HashSet<>();
        long twice = 0;
        java.util.regex.Pattern key = java.util.regex.Pattern.compile(
                "\"src\":\"([0-9a-f.:]+)\".*\"opcode\":(\\d+).*\"psn\":(\\d+)");
        for (String line : r.out().split("\n")) {
            if (!line.contains("\"bth\"")) continue;
            java.util.regex.Matcher m = key.matcher(line);
            if (m.find() && !seen.add(m.group(1) + "/" + m.group(2) + "/" + m.group(3))) twice++;
        }
        return twice;
    }

    /** `softrnic decode --json` finds at least {@code atLeast} RoCEv2 packets in the capture, each with a valid ICRC. */
    public static void assertEveryIcrcValid(Path pcap, long atLeast) {
        DecodeCommandTest.Result r = DecodeCommandTest.run("decode", "--json", pcap.toString());
        assertEquals(0, r.code(), r.err());
        long roce = 0;
        for (String line : r.out().split("\n")) {
            if (!line.contains("\"bth\"")) continue;
            roce++;
            if (!line.contains("\"icrc_ok\" : true") && !line.contains("\"icrc_ok\":true")) fail("a packet with a bad ICRC: " + line);
        }
        assertTrue(roce >= atLeast, "only " + roce + " RoCEv2 packets in " + pcap);
    }
}
