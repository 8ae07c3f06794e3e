package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
        try (RxeRun ns = RxeRun.on(path, "ucmatose-" + path + "-" + softrnicRole)) {
            Path pcap = ns.dir.resolve("link.pcap");
            String[] outs = ns.cmToolPair("ucmatose", SHAPE, softrnicRole.equals("server"), pcap);
            for (String out : outs) {
                assertTrue(out.contains("data transfers complete") && out.contains("return status 0"), out);
            }
            Interop.assertEveryIcrcValid(pcap, 2L * 3 * 20);
            CmTsharkCheck.assertTsharkAgrees(pcap, ns.dir);
        }
    }
}
