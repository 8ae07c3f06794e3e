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
 * librdmacm's unmodified udaddy on rxe against `softrnic udaddy`, both roles: SIDR_REQ and SIDR_REP on QP1 find
 * the server's UD QP, then datagrams with immediate data go each way, the server answering through an address
 * handle made from the GRH; every MAD's header compared with tshark's dissector (tshark 4.0 names no SIDR field).
 */
class RxeUdaddyTest {
    private static final String SHAPE = "-c 2 -C 10 -S 512";

    @BeforeAll
    static void needsTheGuest() {
        Interop.requireRxeGuest();
        Interop.requireTool("udaddy");
    }

    @ParameterizedTest(name = "{1} path: softrnic udaddy {2} ({0})")
    @CsvSource({"full, udp, client", "ci, udp, server", "full, frames, client", "full, frames, server"})
    void sidrFindsTheQpAndDatagramsGoBothWays(String tier, String path, String softrnicRole) throws Exception {
        Interop.tier(tier);
        boolean softrnicServes = softrnicRole.equals("server");
        try (RxeRun ns = RxeRun.on(path, "udaddy-" + path + "-" + softrnicRole)) {
            Path pcap = ns.dir.resolve("link.pcap");
            List<String> args = new ArrayList<>(List.of("udaddy", "--link", ns.softrnicLink()));
            args.addAll(List.of(SHAPE.split(" ")));
            if (softrnicServes) args.addAll(List.of("--timeout", "200"));
            else args.addAll(List.of("-s", RxeRun.GUEST_IP, "--wait", "150"));
            Process soft = ns.softrnic("softrnic", args.toArray(String[]::new));
            Thread.sleep(1500);
            String tool = softrnicServes ? "udaddy -s " + RxeRun.HOST_IP + " " + SHAPE : "udaddy " + SHAPE;
            Process guest = ns.guest(tool + "; echo \"[tool rc=$?]\"", pcap, false);
            guest.waitFor(240, TimeUnit.SECONDS);
            soft.waitFor(60, TimeUnit.SECONDS);
            String g = ns.output("guest");
            String mine = ns.output("softrnic");
            assertTrue(g.contains("[tool rc=0]"), "udaddy in the guest failed:\n" + g + ns.errors("guest") + "\nsoftrnic:\n" + mine + ns.errors("softrnic"));
            assertEquals(0, soft.exitValue(), mine + ns.errors("softrnic") + g);
            for (String out : List.of(g, mine)) {
                assertTrue(out.contains("data transfers complete") && out.contains("return status 0"), out);
            }
            Interop.assertEveryIcrcValid(pcap, 2L * 2 * 10);
            CmTsharkCheck.assertTsharkAgrees(pcap, ns.dir);
        }
    }
}
