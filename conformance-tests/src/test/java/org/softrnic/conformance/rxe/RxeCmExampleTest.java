package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.softrnic.conformance.CmTsharkCheck;
import org.softrnic.conformance.Interop;

/**
 * The rdma_cm guide's example (examples/CmRping.java, as the file is) against librdmacm's unmodified `rping -s`
 * on the rxe guest, over UDP: the guest's kernel CM accepts it, rping READs the example's buffer and WRITEs it back.
 */
class RxeCmExampleTest {
    private static final String PING = "rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr";

    @Test
    void theExampleGetsItsBufferBackFromRxesRping() throws Exception {
        Interop.requireRxeGuest();
        Interop.requireTool("rping");
        Interop.tier("ci");
        try (RxeRun ns = RxeRun.on("udp", "cm-example")) {
            Path pcap = ns.dir.resolve("link.pcap");
            Process guest = ns.guest("rping -s -a " + RxeRun.GUEST_IP + " -v; echo \"[tool rc=$?]\"", pcap, true);
            // while the guest boots the REQ goes unanswered or is refused (REJ 8): run the example again
            long end = System.nanoTime() + 200_000_000_000L;
            int rc = -1;
            while (rc != 0 && System.nanoTime() < end && guest.isAlive()) {
                Process example = ns.java("example", List.of("examples/CmRping.java", RxeRun.HOST_IP, RxeRun.GUEST_IP));
                if (!example.waitFor(90, TimeUnit.SECONDS)) example.destroyForcibly();
                rc = example.isAlive() ? -1 : example.exitValue();
                if (rc != 0) Thread.sleep(2000);
            }
            guest.waitFor(120, TimeUnit.SECONDS);
            String g = ns.output("guest");
            assertEquals(0, rc, ns.output("example") + ns.errors("example") + "\nguest:\n" + g + ns.errors("guest"));
            assertEquals("ping data: " + PING + "; as sent: true", ns.output("example").strip());
            assertTrue(g.contains("server ping data: " + PING) && g.contains("[tool rc=0]"), g + ns.errors("guest"));
            // REQ, REP, RTU; the SEND, READ and WRITE each way with their ACKs; DREQ, DREP
            Interop.assertEveryIcrcValid(pcap, 10);
            CmTsharkCheck.assertTsharkAgrees(pcap, ns.dir);
        }
    }
}
