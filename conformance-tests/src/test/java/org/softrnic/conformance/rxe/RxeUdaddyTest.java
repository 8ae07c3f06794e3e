package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
        try (RxeRun ns = RxeRun.on(path, "udaddy-" + path + "-" + softrnicRole)) {
            Path pcap = ns.dir.resolve("link.pcap");
            String[] outs = ns.cmToolPair("udaddy", SHAPE, softrnicRole.equals("server"), pcap);
            for (String out : outs) {
                assertTrue(out.contains("data transfers complete") && out.contains("return status 0"), out);
            }
            Interop.assertEveryIcrcValid(pcap, 2L * 2 * 10);
            CmTsharkCheck.assertTsharkAgrees(pcap, ns.dir);
        }
    }
}
