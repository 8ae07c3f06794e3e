package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** What the rxe interop suites need, checked once: in CI a missing piece fails, elsewhere it skips. */
public final class Interop {
    private Interop() {
    }

    /** qemu, the guest's tools and root (for network namespaces and taps). */
    public static void requireRxeGuest() {
        for (String tool : List.of("qemu-system-x86_64", "ibv_rc_pingpong", "busybox", "ip")) Tools.require(tool);
        boolean root = "0".equals(System.getProperty("softrnic.uid", uid()));
        if (!root && Tools.inCi()) fail("the rxe interop suites need root for network namespaces and taps");
        Assumptions.assumeTrue(root, "the rxe interop suites need root for network namespaces and taps");
    }

    private static String uid() {
        try {
            Process p = new ProcessBuilder("id", "-u").start();
            return new String(p.getInputStream().readAllBytes()).trim();
        } catch (java.io.IOException e) {
            return "?";
        }
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
