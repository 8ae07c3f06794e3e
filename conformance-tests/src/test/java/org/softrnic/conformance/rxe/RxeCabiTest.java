package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.softrnic.conformance.Interop;

/**
 * The distribution's ibv_rc_pingpong, unmodified, on softrnic's libibverbs.so.1 on the host, against rxe's own
 * ibv_rc_pingpong in the guest: real RoCEv2 between softrnic's engine in a C program's process and the Linux kernel's
 * Soft-RoCE, over the UDP path (softrnic's kernel UDP socket in the run's namespace, the guest on its tap).
 */
class RxeCabiTest {
    @Test
    void ibvRcPingpongOnSoftrnicAgainstRxe() throws Exception {
        Interop.tier("ci");
        try (RxeRun ns = RxeRun.on("udp", "cabi-rc-pingpong")) {
            Path libs = ns.dir.resolve("lib");
            Process path = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                    Interop.ROOT.resolve("cli/target/softrnic.jar").toString(), "cabi-path", "--dir", libs.toString()).redirectErrorStream(true).start();
            assertTrue(path.waitFor(60, TimeUnit.SECONDS) && path.exitValue() == 0, new String(path.getInputStream().readAllBytes()));
            Path pcap = ns.dir.resolve("link.pcap");
            Path local = ns.dir.resolve("softrnic.pcap");
            Process soft = ns.command("softrnic", List.of("ibv_rc_pingpong", "-g", "0", "-n", "50", "-s", "4096"),
                    Map.of("LD_LIBRARY_PATH", libs.toString(), "SOFTRNIC_IP", RxeRun.HOST_IP, "SOFTRNIC_PCAP", local.toString()));
            ns.withGuest(true, soft, "ibv_rc_pingpong -d rxe0 -g " + ns.guestGidIndex() + " -n 50 -s 4096", "; echo \"[tool rc=$?]\"", pcap);
            String g = ns.output("guest");
            assertTrue(g.contains("[tool rc=0]") && g.contains("50 iters in"), "rxe's ibv_rc_pingpong:\n" + g + ns.errors("guest"));
            assertEquals(0, soft.exitValue(), "softrnic's:\n" + ns.output("softrnic") + ns.errors("softrnic"));
            assertTrue(ns.output("softrnic").contains("50 iters in"), ns.output("softrnic"));
            // both captures, the guest's link and softrnic's own, have every ICRC right
            for (Path p : List.of(pcap, local)) {
                String json = Interop.decodeJson(p);
                assertTrue(json.contains("\"icrc_ok\":true") && !json.contains("\"icrc_ok\":false"), p + ": " + json.lines().limit(3).toList());
            }
        }
    }
}
