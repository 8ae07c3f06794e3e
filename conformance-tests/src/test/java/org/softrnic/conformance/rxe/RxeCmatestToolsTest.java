package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.conformance.CmTsharkCheck;
import org.softrnic.conformance.Interop;

/**
 * librdmacm's unmodified example tools on rxe against softrnic's clones, both roles. ucmatose (cmatose): several
 * RC connections through the RDMA CM at once, messages both ways on each, the server's disconnect of all. udaddy:
 * SIDR_REQ and SIDR_REP on QP1 find the server's UD QP, then datagrams with immediate data go each way, the server
 * answering through an address handle made from the GRH. Every MAD compared with tshark's dissector (which names
 * no SIDR field: a SIDR MAD's header alone).
 */
class RxeCmatestToolsTest {
    /** Each tool's shape (-c, -C, -S), the same on both sides. */
    private static final Map<String, String> SHAPE = Map.of("ucmatose", "-c 3 -C 20 -S 1024", "udaddy", "-c 2 -C 10 -S 512");

    @BeforeAll
    static void needsTheGuest() {
        Interop.requireRxeGuest();
    }

    @ParameterizedTest(name = "{2} path: softrnic {0} {3} ({1})")
    @CsvSource({"ucmatose, full, udp, client", "ucmatose, full, udp, server", "ucmatose, ci, frames, client",
                "ucmatose, full, frames, server", "udaddy, full, udp, client", "udaddy, ci, udp, server",
                "udaddy, full, frames, client", "udaddy, full, frames, server"})
    void theToolsConnectAndCarryMessagesBothWays(String tool, String tier, String path, String softrnicRole) throws Exception {
        Interop.tier(tier);
        Interop.requireTool(tool);
        String shape = SHAPE.get(tool);
        try (RxeRun ns = RxeRun.on(path, tool + "-" + path + "-" + softrnicRole)) {
            Path pcap = ns.dir.resolve("link.pcap");
            String[] outs = ns.cmToolPair(tool, shape, softrnicRole.equals("server"), pcap);
            for (String out : outs) {
                assertTrue(out.contains("data transfers complete") && out.contains("return status 0"), out);
            }
            String[] n = shape.split(" ");
            Interop.assertEveryIcrcValid(pcap, 2L * Integer.parseInt(n[1]) * Integer.parseInt(n[3]));
            CmTsharkCheck.assertTsharkAgrees(pcap, ns.dir);
        }
    }
}
