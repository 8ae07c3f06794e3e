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
        boolean softrnicServes = softrnicRole.equals("server");
        try (RxeRun ns = RxeRun.on(path, "rping-" + path + "-" + softrnicRole)) {
            Path pcap = ns.dir.resolve("link.pcap");
            String link = ns.softrnicLink();
            List<String> args = new ArrayList<>(List.of("rping", "--link", link, "-v"));
            // softrnic as client retries a REQ refused before the guest's rping listens (the guest boots meanwhile)
            if (softrnicServes) args.addAll(List.of("-s", "-a", RxeRun.HOST_IP, "--timeout", "200"));
            else args.addAll(List.of("-c", "-a", RxeRun.GUEST_IP, "-C", "" + COUNT, "-V", "--wait", "150"));
            Process soft = ns.softrnic("softrnic", args.toArray(String[]::new));
            Thread.sleep(1500); // softrnic listens (on the frame path, for qemu too) before the guest boots
            String tool = softrnicServes ? "rping -c -a " + RxeRun.HOST_IP + " -C " + COUNT + " -V -v"
                    : "rping -s -a " + RxeRun.GUEST_IP + " -v";
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
            assertEquals(COUNT, client.lines().filter(l -> l.startsWith("ping data: rdma-ping-")).count(), client);
            assertEquals(COUNT, server.lines().filter(l -> l.startsWith("server ping data: rdma-ping-")).count(), server);
            Interop.assertEveryIcrcValid(pcap, 4L * COUNT);
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
