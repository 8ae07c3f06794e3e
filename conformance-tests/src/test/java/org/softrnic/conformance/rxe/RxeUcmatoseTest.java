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
 * librdmacm's unmodified ucmatose (cmatose) on rxe against `softrnic ucmatose`, both roles: several
 * connections through the RDMA CM at once, messages both ways on each, the server's disconnect of all; every
 * CM MAD compared with tshark's dissector.
 */
class RxeUcmatoseTest {
    private static final String SHAPE = "-c 3 -C 20 -S 1024";

    @BeforeAll
    static void needsTheGuest() {
        Interop.requireRxeGuest();
        Interop.requireTool("ucmatose");
    }

    @ParameterizedTest(name = "{1} path: softrnic ucmatose {2} ({0})")
    @CsvSource({"full, udp, client", "full, udp, server", "ci, frames, client", "full, frames, server"})
    void threeConnectionsCarryMessagesBothWays(String tier, String path, String softrnicRole) throws Exception {
        Interop.tier(tier);
        boolean softrnicServes = softrnicRole.equals("server");
        try (RxeRun ns = RxeRun.on(path, "ucmatose-" + path + "-" + softrnicRole)) {
            Path pcap = ns.dir.resolve("link.pcap");
            List<String> args = new ArrayList<>(List.of("ucmatose", "--link", ns.softrnicLink()));
            args.addAll(List.of(SHAPE.split(" ")));
            if (softrnicServes) args.addAll(List.of("--timeout", "200"));
            else args.addAll(List.of("-s", RxeRun.GUEST_IP, "--wait", "150"));
            Process soft = ns.softrnic("softrnic", args.toArray(String[]::new));
            Thread.sleep(1500);
            String tool = softrnicServes ? "ucmatose -s " + RxeRun.HOST_IP + " " + SHAPE : "ucmatose " + SHAPE;
            Process guest = ns.guest(tool + "; echo \"[tool rc=$?]\"", pcap, false);
            guest.waitFor(240, TimeUnit.SECONDS);
            soft.waitFor(60, TimeUnit.SECONDS);
            String g = ns.output("guest");
            String mine = ns.output("softrnic");
            assertTrue(g.contains("[tool rc=0]"), "ucmatose in the guest failed:\n" + g + ns.errors("guest") + "\nsoftrnic:\n" + mine + ns.errors("softrnic"));
            assertEquals(0, soft.exitValue(), mine + ns.errors("softrnic") + g);
            for (String out : List.of(g, mine)) {
                assertTrue(out.contains("data transfers complete") && out.contains("return status 0"), out);
            }
            Interop.assertEveryIcrcValid(pcap, 2L * 3 * 20);
            CmTsharkCheck.assertTsharkAgrees(pcap, ns.dir);
        }
    }
}
