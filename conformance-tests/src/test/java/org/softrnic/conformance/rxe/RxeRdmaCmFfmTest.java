package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.softrnic.conformance.CmTsharkCheck;
import org.softrnic.conformance.Interop;

/**
 * The Java rdma_cm API on a real device: `softrnic rping --provider ibverbs` in the rxe guest runs on rxe0 through
 * librdmacm (FFM, no native code of softrnic's), against `softrnic rping` on a soft RNIC on the host, both roles.
 */
class RxeRdmaCmFfmTest {
    @BeforeAll
    static void needsTheGuestAndTheJar() {
        Interop.requireRxeGuest();
        assertTrue(Files.exists(RxeIbverbsTest.JAR), RxeIbverbsTest.JAR + " is built by the cli module's package phase");
    }

    @ParameterizedTest(name = "rping through librdmacm in the guest as {0}")
    @ValueSource(strings = {"client", "server"})
    void rpingOnRxeThroughLibrdmacmAndRpingOnASoftRnic(String guestRole) throws Exception {
        Interop.tier(guestRole.equals("client") ? "ci" : "full");
        boolean guestServes = guestRole.equals("server");
        try (RxeRun ns = RxeRun.on("udp", "rdmacm-ffm-" + guestRole)) {
            String shape = "-C 5 -S 64 -v";
            List<String> host = guestServes
                    ? List.of("rping", "-c", "-a", RxeRun.GUEST_IP, "-C", "5", "-S", "64", "-v", "-V", "--link", ns.softrnicLink(), "--wait", "200")
                    : List.of("rping", "-s", "-a", RxeRun.HOST_IP, "-C", "5", "-S", "64", "-v", "--link", ns.softrnicLink(), "--timeout", "200");
            String[] outs = pair(ns, host, "rping --provider ibverbs " + (guestServes ? "-s -a " + RxeRun.GUEST_IP + " " + shape
                    : "-c -a " + RxeRun.HOST_IP + " -V --wait 150 " + shape), 30);
            String client = guestServes ? outs[1] : outs[0];
            assertTrue(client.contains("ping data: rdma-ping-4: "), client);
        }
    }

    /** perftest -R through librdmacm on rxe0 in the guest, against `softrnic perftest -R` on a soft RNIC on the host. */
    @ParameterizedTest(name = "perftest send_bw -R through librdmacm in the guest as {0}")
    @ValueSource(strings = {"client", "server"})
    void perftestRdmaCmOnRxeThroughLibrdmacm(String guestRole) throws Exception {
        Interop.tier("full");
        boolean guestServes = guestRole.equals("server");
        try (RxeRun ns = RxeRun.on("udp", "rdmacm-ffm-perftest-" + guestRole)) {
            List<String> host = guestServes
                    ? List.of("perftest", "send_bw", "-R", "-n", "200", "--link", ns.softrnicLink(), "--wait", "200", RxeRun.GUEST_IP)
                    : List.of("perftest", "send_bw", "-R", "-n", "200", "--link", ns.softrnicLink(), "--timeout", "200");
            String[] outs = pair(ns, host, "perftest send_bw -R -n 200 --provider ibverbs -d rxe0 -x $GID4"
                    + (guestServes ? " --timeout 200" : " --wait 150 " + RxeRun.HOST_IP), 200);
            for (String out : outs) assertTrue(out.contains(" Data ex. method : rdma_cm"), out);
            assertTrue((guestServes ? outs[1] : outs[0]).contains(String.format(" %-7d    %-10d ", 65536, 200)), outs[0] + outs[1]);
        }
    }

    /**
     * softrnic on a soft RNIC on the host with {@code host}, and the CLI in the guest with {@code guestTool} on rxe0;
     * both must end 0, every ICRC of at least {@code packets} be valid and every CM MAD read as tshark reads it.
     * Returns the guest's output and the host's.
     */
    private static String[] pair(RxeRun ns, List<String> host, String guestTool, int packets) throws Exception {
        Path pcap = RxeIbverbsTest.withTheJar(ns);
        Process soft = ns.softrnic("softrnic", host.toArray(String[]::new));
        Thread.sleep(1500);
        Process guest = ns.guest(RxeIbverbsTest.JAVA + " " + guestTool + "; echo \"[tool rc=$?]\"", pcap, false);
        guest.waitFor(280, TimeUnit.SECONDS);
        soft.waitFor(60, TimeUnit.SECONDS);
        String g = ns.output("guest");
        String mine = ns.output("softrnic");
        assertTrue(g.contains("[tool rc=0]"), "softrnic through librdmacm failed in the guest:\n" + g + ns.errors("guest")
                + "\nhost:\n" + mine + ns.errors("softrnic"));
        assertEquals(0, soft.exitValue(), mine + ns.errors("softrnic") + g);
        Interop.assertEveryIcrcValid(pcap, packets);
        CmTsharkCheck.assertTsharkAgrees(pcap, ns.dir);
        return new String[] {g, mine};
    }
}
