package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.conformance.Interop;

/**
 * perftest 4.5's unmodified ib_write_bw, ib_read_bw and ib_send_bw on rxe against `softrnic perftest`, both roles, over
 * the UDP and frame paths: the tools' whole TCP exchange, the test, and the report the server prints from the
 * client's figures. Every RoCEv2 packet in the capture has a valid ICRC.
 */
class RxePerftestTest {
    @BeforeAll
    static void needsTheGuest() {
        Interop.requireRxeGuest();
    }

    @ParameterizedTest(name = "{1} path, {2}: softrnic {3} ({0})")
    @CsvSource({"ci, udp, write_bw, client", "ci, udp, write_bw, server", "full, udp, read_bw, client",
                "full, udp, read_bw, server", "ci, frames, write_bw, client", "ci, frames, write_bw, server",
                "ci, frames, read_bw, client", "ci, frames, read_bw, server", "full, udp, send_bw, client",
                "full, udp, send_bw, server", "ci, frames, send_bw, client", "ci, frames, send_bw, server"})
    void perftestBwCompletesAgainstSoftrnic(String tier, String path, String test, String softrnicRole) throws Exception {
        Interop.tier(tier);
        int iters = 200;
        String label = "perftest-" + path + "-" + test + "-" + softrnicRole;
        try (RxeRun ns = path.equals("udp") ? RxeRun.udp(label) : RxeRun.frames(label)) {
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
            String row = " 65536      " + iters + " ";
            assertTrue(g.contains(row), "rxe's report has no row for 65536 x " + iters + ":\n" + g);
            assertTrue(mine.contains(row), "softrnic's report has no row:\n" + mine);
            assertTrue(g.contains(switch (test) {
                case "write_bw" -> "RDMA_Write BW Test";
                case "read_bw" -> "RDMA_Read BW Test";
                default -> "Send BW Test";
            }), g);
            Interop.assertEveryIcrcValid(pcap, iters);
        }
    }
}
