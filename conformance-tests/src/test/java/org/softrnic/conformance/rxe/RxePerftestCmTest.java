package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.conformance.CmTsharkCheck;
import org.softrnic.conformance.Interop;

/**
 * perftest's -R against `softrnic perftest -R`, both roles: no TCP at all. The exchange runs over an RC connection
 * the RDMA CM makes to port 18515, the test QPs are connected through the CM to the same port, and both ends
 * disconnect through it; every CM MAD compared with tshark's dissector, every ICRC valid.
 */
class RxePerftestCmTest {
    @BeforeAll
    static void needsTheGuest() {
        Interop.requireRxeGuest();
    }

    @ParameterizedTest(name = "{1} path, {2} -R: softrnic {3} ({0})")
    @CsvSource({"ci, udp, send_bw, client", "ci, frames, write_bw, server", "full, udp, send_bw, server",
                "full, frames, send_bw, client", "full, udp, write_bw, client", "full, udp, write_bw, server",
                "full, udp, read_bw, client", "full, udp, read_bw, server", "full, frames, atomic_bw, client",
                "full, udp, send_lat, server", "full, frames, send_lat, client", "full, udp, write_lat, client",
                "full, frames, write_lat, server", "full, udp, read_lat, client", "full, frames, read_lat, server"})
    void perftestConnectsThroughTheRdmaCm(String tier, String path, String test, String softrnicRole) throws Exception {
        Interop.tier(tier);
        Interop.perftestWithClockRetry(attempt -> run(path, test, softrnicRole, attempt));
    }

    /** One run; null when it passed, the guest's output when perftest there could not sample its clock. */
    private static String run(String path, String test, String softrnicRole, int attempt) throws Exception {
        int iters = 200;
        boolean softrnicServes = softrnicRole.equals("server");
        try (RxeRun ns = RxeRun.on(path, "perftest-cm-" + path + "-" + test + "-" + softrnicRole + (attempt > 1 ? "-" + attempt : ""))) {
            Path pcap = ns.dir.resolve("link.pcap");
            List<String> args = new ArrayList<>(List.of("perftest", test, "-R", "--link", ns.softrnicLink(), "-n", "" + iters));
            if (softrnicServes) args.addAll(List.of("--timeout", "200"));
            else args.addAll(List.of("--wait", "150", RxeRun.GUEST_IP));
            Process soft = ns.softrnic("softrnic", args.toArray(String[]::new));
            Thread.sleep(1500);
            String tool = "timeout 200 ib_" + test + " -d rxe0 -R -n " + iters + (softrnicServes ? " " + RxeRun.HOST_IP : "");
            Process guest = ns.guest(tool + "; echo \"[tool rc=$?]\"", pcap, false); // no TCP to forward: -R has none
            guest.waitFor(240, TimeUnit.SECONDS);
            soft.waitFor(60, TimeUnit.SECONDS);
            String g = ns.output("guest");
            String mine = ns.output("softrnic");
            if (!g.contains("[tool rc=0]") && g.contains("Can't produce a report")) return g + ns.errors("guest");
            assertTrue(g.contains("[tool rc=0]"), "ib_" + test + " -R failed:\n" + g + ns.errors("guest") + "\nsoftrnic:\n" + mine
                    + ns.errors("softrnic"));
            assertEquals(0, soft.exitValue(), mine + ns.errors("softrnic") + g);
            for (String out : List.of(g, mine)) assertTrue(out.contains(" Data ex. method : rdma_cm"), out);
            boolean lat = test.endsWith("_lat");
            int size = lat ? 2 : test.equals("atomic_bw") ? 8 : 65536;
            String row = lat ? String.format(" %-7d %d ", size, iters) : String.format(" %-7d    %-10d ", size, iters);
            String client = softrnicServes ? g : mine;
            assertTrue(client.contains(row), "the client's report has no row for " + size + " x " + iters + ":\n" + client);
            Interop.assertEveryIcrcValid(pcap, iters);
            CmTsharkCheck.assertTsharkAgrees(pcap, ns.dir);
            return null;
        }
    }
}
