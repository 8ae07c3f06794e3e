package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.conformance.Interop;

/**
 * perftest 4.5's seven unmodified tools (ib_{write,read,send,atomic}_bw, ib_{write,read,send}_lat) on rxe against `softrnic perftest`, both roles, over
 * the UDP and frame paths: the tools' whole TCP exchange, the test, and the report the server prints from the
 * client's figures. Every RoCEv2 packet in the capture has a valid ICRC.
 */
class RxePerftestTest {
    private static final java.util.Map<String, String> TITLES = java.util.Map.of("write_bw", "RDMA_Write BW Test",
            "read_bw", "RDMA_Read BW Test", "send_bw", "Send BW Test", "atomic_bw", "Atomic FETCH_AND_ADD BW Test",
            "write_lat", "RDMA_Write Latency Test", "read_lat", "RDMA_Read Latency Test", "send_lat", "Send Latency Test");

    @BeforeAll
    static void needsTheGuest() {
        Interop.requireRxeGuest();
    }

    @ParameterizedTest(name = "{1} path, {2}: softrnic {3} ({0})")
    @CsvSource({"ci, udp, write_bw, client", "ci, udp, write_bw, server", "full, udp, read_bw, client",
                "full, udp, read_bw, server", "ci, frames, write_bw, client", "ci, frames, write_bw, server",
                "ci, frames, read_bw, client", "ci, frames, read_bw, server", "full, udp, send_bw, client",
                "full, udp, send_bw, server", "ci, frames, send_bw, client", "ci, frames, send_bw, server",
                "ci, frames, atomic_bw, client", "ci, frames, atomic_bw, server", "full, udp, atomic_bw, client",
                "full, udp, atomic_bw, server", "ci, frames, write_lat, client", "ci, frames, write_lat, server",
                "full, udp, write_lat, client", "full, udp, write_lat, server", "ci, frames, read_lat, client",
                "ci, frames, read_lat, server", "full, udp, read_lat, client", "full, udp, read_lat, server",
                "ci, udp, send_lat, client", "ci, udp, send_lat, server", "full, frames, send_lat, client",
                "full, frames, send_lat, server", "ci, tap, write_bw, client", "ci, tap, read_lat, server",
                "full, tap, atomic_bw, server", "full, tap, send_bw, client"})
    void perftestCompletesAgainstSoftrnic(String tier, String path, String test, String softrnicRole) throws Exception {
        Interop.tier(tier);
        int iters = 200;
        String label = "perftest-" + path + "-" + test + "-" + softrnicRole;
        try (RxeRun ns = RxeRun.on(path, label)) {
            Path pcap = ns.dir.resolve("link.pcap");
            String tool = "timeout 200 ib_" + test + " -d rxe0 -x 1 -n " + iters;
            String done = "; echo \"[tool rc=$?]\"";
            String oob = ns.isFrames() ? "" + ns.oobPort : "18515";
            Process guest;
            Process soft;
            if (softrnicRole.equals("client")) {
                soft = ns.softrnic("softrnic", "perftest", test, "--link", ns.softrnicLink(), "-x", "1", "-n", "" + iters,
                        "-p", oob, "--wait", "150", ns.guestAddressForSoftrnic());
                if (ns.isFrames()) Thread.sleep(1500);
                guest = ns.guest(tool + done, pcap, false);
            } else {
                // ib_send_bw's server must expect as many messages as the client sends, so it gets -n too
                soft = ns.softrnic("softrnic", "perftest", test, "--link", ns.softrnicLink(), "-x", "1", "-n", "" + iters, "-p", oob);
                Thread.sleep(1500);
                guest = ns.guest(tool + " " + ns.softrnicAddressForGuest() + done, pcap, true);
            }
            RxeRun.awaitBoth(guest, soft, 240);
            String g = ns.output("guest");
            String mine = ns.output("softrnic");
            assertEquals(0, soft.exitValue(), mine + ns.errors("softrnic") + g);
            assertTrue(g.contains("[tool rc=0]"), "ib_" + test + " failed:\n" + g + ns.errors("guest"));
            boolean lat = test.endsWith("_lat");
            int size = lat ? 2 : test.equals("atomic_bw") ? 8 : 65536;
            String row = lat ? String.format(" %-7d %d ", size, iters) : String.format(" %-7d    %-10d ", size, iters);
            // ib_read_lat's server prints no row: whichever side serves
            boolean rxeRow = !(test.equals("read_lat") && softrnicRole.equals("client"));
            boolean softrnicRow = !(test.equals("read_lat") && softrnicRole.equals("server"));
            if (rxeRow) assertTrue(g.contains(row), "rxe's report has no row for " + size + " x " + iters + ":\n" + g);
            if (softrnicRow) assertTrue(mine.contains(row), "softrnic's report has no row:\n" + mine);
            String title = TITLES.get(test);
            assertTrue(g.contains(title) && mine.contains(title), title + "\n" + g + mine);
            Interop.assertEveryIcrcValid(pcap, iters);
        }
    }
}
