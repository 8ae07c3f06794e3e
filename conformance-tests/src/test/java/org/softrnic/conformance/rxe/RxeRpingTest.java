package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.conformance.Interop;

/**
 * librdmacm's unmodified rping on a real rxe kernel (the kernel's CM on its QP1) against `softrnic rping`, in
 * both roles, over the UDP path and the frame path: the connection is made through the RDMA CM (REQ, REP,
 * RTU), rping's SEND/READ/WRITE cycle runs -C times with -V, and the client's disconnect (DREQ, DREP) ends
 * both. The capture must hold every CM message both ways, each parsed as a MAD, and every ICRC valid.
 */
class RxeRpingTest {
    private static final int COUNT = 10;

    @BeforeAll
    static void needsTheGuest() {
        Interop.requireRxeGuest();
        Interop.requireTool("rping");
    }

    @ParameterizedTest(name = "{1} path: softrnic rping {2} ({0})")
    @CsvSource({"ci, udp, client", "full, udp, server", "full, frames, client", "ci, frames, server"})
    void rpingConnectsThroughTheCmAndPingsBothWays(String tier, String path, String softrnicRole) throws Exception {
        Interop.tier(tier);
        run(path, softrnicRole, COUNT, false);
    }

    /**
     * With 3 % of rxe's packets dropped (netem in the guest), the CM sends a lost REQ, REP or DREQ again on its
     * timer, and RC recovers the data; rping completes all the same.
     */
    @ParameterizedTest(name = "{1} path, 3 % loss: softrnic rping {2} ({0})")
    @CsvSource({"full, udp, client", "full, udp, server", "full, frames, client", "full, frames, server"})
    void rpingCompletesUnderLoss(String tier, String path, String softrnicRole) throws Exception {
        Interop.tier(tier);
        run(path, softrnicRole, 20, true);
    }

    /** No rping listens in the guest: rxe's kernel CM refuses softrnic's REQ with REJ 8, and softrnic says so. */
    @ParameterizedTest(name = "{1} path: no listener in the guest ({0})")
    @CsvSource({"full, udp", "full, frames"})
    void aReqToAPortNoOneListensOnIsRefusedWithReason8(String tier, String path) throws Exception {
        Interop.tier(tier);
        try (RxeRun ns = RxeRun.on(path, "rping-" + path + "-rej")) {
            Path pcap = ns.dir.resolve("link.pcap");
            Process soft = ns.softrnic("softrnic", "rping", "--link", ns.softrnicLink(), "-c", "-a", RxeRun.GUEST_IP, "-C", "1");
            Thread.sleep(1500);
            // the guest stays up while softrnic's REQ, sent again every 6144 ms, finds its kernel's CM
            Process guest = ns.guest("sleep 45; echo \"[tool rc=$?]\"", pcap, false);
            assertTrue(soft.waitFor(200, java.util.concurrent.TimeUnit.SECONDS), "softrnic rping did not end");
            guest.waitFor(120, java.util.concurrent.TimeUnit.SECONDS);
            String err = ns.errors("softrnic");
            assertEquals(1, soft.exitValue(), err);
            assertTrue(err.contains("cma event RDMA_CM_EVENT_REJECTED, error 8"), err);
            assertTrue(err.contains("REJ reason 8 (invalid service ID): no one listens on port 7174"), err);
            org.softrnic.conformance.CmTsharkCheck.assertTsharkAgrees(pcap, ns.dir);
        }
    }

    private static void run(String path, String softrnicRole, int count, boolean loss) throws Exception {
        boolean softrnicServes = softrnicRole.equals("server");
        try (RxeRun ns = RxeRun.on(path, "rping-" + path + "-" + softrnicRole + (loss ? "-loss" : ""))) {
            if (loss) ns.netem("loss 3%");
            Path pcap = ns.dir.resolve("link.pcap");
            String link = ns.softrnicLink();
            List<String> args = new ArrayList<>(List.of("rping", "--link", link, "-v"));
            // softrnic as client retries a REQ refused before the guest's rping listens (the guest boots meanwhile)
            if (softrnicServes) args.addAll(List.of("-s", "-a", RxeRun.HOST_IP, "--timeout", "200"));
            else args.addAll(List.of("-c", "-a", RxeRun.GUEST_IP, "-C", "" + count, "-V", "--wait", "150"));
            Process soft = ns.softrnic("softrnic", args.toArray(String[]::new));
            Thread.sleep(1500); // softrnic listens (on the frame path, for qemu too) before the guest boots
            String tool = softrnicServes ? "rping -c -a " + RxeRun.HOST_IP + " -C " + count + " -V -v"
                    : "rping -s -a " + RxeRun.GUEST_IP + " -v";
            if (loss) {
                // netem drops ARP too, and an unresolved neighbour stalls rxe's sends
                tool = "ip neigh replace " + RxeRun.HOST_IP + " lladdr " + RxeRun.HOST_MAC + " dev eth0 nud permanent; " + tool;
            }
            // no out-of-band TCP: the CM is the exchange (qemu's guestfwd would connect to a port nobody listens on)
            Process guest = ns.guest(tool + "; echo \"[tool rc=$?]\"", pcap, false);
            guest.waitFor(240, java.util.concurrent.TimeUnit.SECONDS);
            soft.waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
            String g = ns.output("guest");
            String mine = ns.output("softrnic");
            assertTrue(g.contains("[tool rc=0]"), "rping in the guest failed:\n" + g + ns.errors("guest") + "\nsoftrnic:\n" + ns.errors("softrnic"));
            assertEquals(0, soft.exitValue(), mine + ns.errors("softrnic") + g);
            String client = softrnicServes ? g : mine;
            String server = softrnicServes ? mine : g;
            assertEquals(count, client.lines().filter(l -> l.startsWith("ping data: rdma-ping-")).count(), client);
            assertEquals(count, server.lines().filter(l -> l.startsWith("server ping data: rdma-ping-")).count(), server);
            Interop.assertEveryIcrcValid(pcap, 4L * count);
            String json = Interop.decodeJson(pcap);
            for (String msg : List.of("REQ", "REP", "RTU", "DREQ", "DREP")) {
                assertTrue(count(json, "\"msg\" ?: ?\"" + msg + "\"") >= 1, "no " + msg + " parsed in the capture");
            }
            // both kernels' MADs (rxe's and softrnic's), field by field against tshark's CM dissector
            int fields = org.softrnic.conformance.CmTsharkCheck.assertTsharkAgrees(pcap, ns.dir);
            assertTrue(fields >= 5 * 6, "only " + fields + " MAD fields compared");
        }
    }

    private static long count(String json, String regex) {
        Matcher m = Pattern.compile(regex).matcher(json);
        long n = 0;
        while (m.find()) n++;
        return n;
    }
}
