package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.conformance.Interop;

/**
 * rdma-core's unmodified ibv_rc_pingpong and ibv_uc_pingpong on a real rxe kernel driver against `softrnic pingpong`, in both
 * roles, over the UDP path (softrnic's kernel UDP socket in a network namespace, the guest on a tap). The
 * link is recorded, and `softrnic decode` must find every RoCEv2 packet in both directions with a valid
 * ICRC; rxe's own counters must show no sequence errors.
 */
class RxePingpongTest {
    @BeforeAll
    static void needsTheGuest() {
        Interop.requireRxeGuest();
    }

    @ParameterizedTest(name = "{0}: softrnic {1}, {2} B x {3}")
    @CsvSource({"rc, client, 64, 50", "rc, server, 64, 50", "rc, client, 65536, 20", "rc, server, 65536, 20",
                "uc, client, 4096, 50", "uc, server, 4096, 50"})
    void ibvPingpongCompletesAgainstSoftrnic(String type, String softrnicRole, int size, int iters) throws Exception {
        String label = type + "-" + softrnicRole + "-" + size;
        try (RxeNetns ns = new RxeNetns(label)) {
            Path pcap = ns.dir.resolve("link.pcap");
            String tool = "ibv_" + type + "_pingpong -d rxe0 -g 1 -n " + iters + " -s " + size;
            String counters = "; echo \"[tool rc=$?]\"; cd /sys/class/infiniband/rxe0/ports/1/hw_counters && grep . *";
            Process guest;
            Process soft;
            if (softrnicRole.equals("client")) {
                guest = ns.guest(tool + counters, pcap);
                soft = ns.softrnic("softrnic", "pingpong", type, "--link", "udp:" + RxeNetns.HOST_IP, "-g", "1", "-n", "" + iters,
                        "-s", "" + size, "--wait", "120", RxeNetns.GUEST_IP);
            } else {
                soft = ns.softrnic("softrnic", "pingpong", type, "--link", "udp:" + RxeNetns.HOST_IP, "-g", "1", "-n", "" + iters,
                        "-s", "" + size);
                guest = ns.guest(tool + " " + RxeNetns.HOST_IP + counters, pcap);
            }
            RxeNetns.awaitBoth(guest, soft, 240);
            String g = ns.output("guest");
            assertEquals(0, soft.exitValue(), ns.output("softrnic") + ns.errors("softrnic") + g);
            assertTrue(g.contains("[tool rc=0]"), "ibv_" + type + "_pingpong failed:\n" + g + ns.errors("guest"));
            for (String out : new String[] {g, ns.output("softrnic")}) {
                assertTrue(out.contains(iters + " iters in "), out);
                assertTrue(out.contains((long) size * iters * 2 + " bytes in "), out);
            }
            Map<String, Long> rxe = counters(g);
            assertEquals(0L, rxe.get("rcvd_seq_err"), "rxe saw packets out of sequence: " + rxe);
            assertTrue(rxe.get("rdma_recvs") >= iters && rxe.get("rdma_sends") >= iters, rxe.toString());
            Interop.assertEveryIcrcValid(pcap, 2L * iters);
        }
    }

    /** The guest's `grep . *` of rxe's hw_counters: name:value lines. */
    static Map<String, Long> counters(String out) {
        Map<String, Long> m = new HashMap<>();
        Matcher x = Pattern.compile("(?m)^([a-z_]+):(\\d+)$").matcher(out);
        while (x.find()) m.put(x.group(1), Long.parseLong(x.group(2)));
        return m;
    }
}
