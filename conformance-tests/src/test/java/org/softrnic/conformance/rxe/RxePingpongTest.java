package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.conformance.Interop;

/**
 * rdma-core's unmodified ibv_rc_pingpong, ibv_uc_pingpong, ibv_ud_pingpong and ibv_srq_pingpong (16 RC QPs
 * sharing an SRQ) on a real rxe kernel driver against
 * `softrnic pingpong`, in both
 * roles, over the UDP path (softrnic's kernel UDP socket in a network namespace, the guest on a tap) and the
 * frame path (softrnic's frame port on qemu's socket netdev, which checks every received ICRC exactly). The
 * link is recorded, and `softrnic decode` must find every RoCEv2 packet in both directions with a valid
 * ICRC; rxe's own counters must show no sequence errors.
 */
class RxePingpongTest {
    @BeforeAll
    static void needsTheGuest() {
        Interop.requireRxeGuest();
    }

    @ParameterizedTest(name = "{1} path, {2}: softrnic {3}, {4} B x {5} ({0})")
    @CsvSource({"ci, udp, rc, client, 64, 50", "ci, udp, rc, server, 64, 50", "ci, udp, rc, client, 65536, 20",
                "ci, udp, rc, server, 65536, 20", "full, udp, uc, client, 4096, 50", "full, udp, uc, server, 4096, 50",
                "ci, frames, rc, client, 64, 50", "ci, frames, rc, server, 64, 50", "ci, frames, rc, client, 65536, 20",
                "ci, frames, rc, server, 65536, 20", "full, frames, uc, client, 4096, 50", "ci, frames, uc, server, 4096, 50",
                "ci, udp, ud, client, 1024, 50", "ci, udp, ud, server, 1024, 50", "full, frames, ud, client, 1024, 50",
                "full, frames, ud, server, 1024, 50", "full, udp, srq, client, 4096, 50", "full, udp, srq, server, 4096, 50",
                "ci, frames, srq, client, 4096, 50", "ci, frames, srq, server, 4096, 50", "ci, tap, rc, client, 65536, 20",
                "full, tap, rc, server, 64, 50", "full, tap, ud, client, 1024, 50", "full, tap, ud, server, 1024, 50"})
    void ibvPingpongCompletesAgainstSoftrnic(String tier, String path, String type, String softrnicRole, int size, int iters)
            throws Exception {
        Interop.tier(tier);
        run(path, type, softrnicRole, size, iters);
    }

    /**
     * With 5 % of the packets dropped, RC still completes both ways: softrnic NAKs the gaps (or a timer fires),
     * the sender goes back N, and the capture shows packets sent again. The loss is rxe's (netem in the guest)
     * or softrnic's own (its frame port's loss=, both ways).
     */
    @ParameterizedTest(name = "{1} path, 5 % loss by {3}: softrnic {2} ({0})")
    @CsvSource({"ci, udp, client, netem", "full, udp, server, netem", "full, frames, client, netem", "ci, frames, server, netem",
                "ci, frames, client, softrnic", "full, frames, server, softrnic", "full, tap, client, softrnic"})
    void rcRecoversFromLoss(String tier, String path, String softrnicRole, String where) throws Exception {
        Interop.tier(tier);
        Path pcap = run(path, "rc", softrnicRole, 65536, 20, where, 1024);
        long resent = Interop.packetsSeenTwice(pcap);
        assertTrue(resent > 0, "go-back-N should have sent some packets twice; the capture has none");
    }

    /** On a link with a 9000-byte MTU rxe's path MTU is 4096: both sides use it, in 4154-byte frames. */
    @ParameterizedTest(name = "{1} path, MTU 4096: softrnic {2} ({0})")
    @CsvSource({"full, udp, client", "ci, udp, server", "ci, frames, client", "full, frames, server"})
    void rcAtMtu4096(String tier, String path, String softrnicRole) throws Exception {
        Interop.tier(tier);
        Path pcap = run(path, "rc", softrnicRole, 65536, 20, null, 4096);
        String decoded = Interop.decode(pcap);
        assertTrue(decoded.contains("4154 bytes  RoCEv2  RC_SEND_MIDDLE  ICRC ok"), "no full 4096-byte segments:\n" + decoded);
    }

    /**
     * RoCE over IPv6 (rxe's GID 2, softrnic's GID 1): softrnic's frame port finds rxe and is found by neighbour
     * discovery, which rxe's kernel checks. On the UDP path rxe sends IPv6 UDP with a zero checksum (the ICRC
     * covers the packet), which the kernel hands only to a socket with UDP_NO_CHECK6_RX: softrnic's libc link
     * sets it (the JDK's DatagramChannel cannot).
     */
    @ParameterizedTest(name = "{1} path, IPv6: softrnic {2} ({0})")
    @CsvSource({"ci, udp, client", "ci, udp, server", "ci, frames, client", "ci, frames, server", "full, tap, client",
                "full, tap, server"})
    void rcOverIpv6(String tier, String path, String softrnicRole) throws Exception {
        Interop.tier(tier);
        Path pcap = run(path, "rc", softrnicRole, 4096, 50, null, 1024, true);
        // Java writes IPv6 addresses uncompressed
        String json = Interop.decodeJson(pcap);
        assertTrue(json.contains("\"src\":\"2001:db8:5:0:0:0:0:100\"") && json.contains("\"src\":\"2001:db8:5:0:0:0:0:1\""),
                "the capture has no RoCE over IPv6 both ways");
    }

    private static Path run(String path, String type, String softrnicRole, int size, int iters) throws Exception {
        return run(path, type, softrnicRole, size, iters, null, 1024);
    }

    private static Path run(String path, String type, String softrnicRole, int size, int iters, String loss, int mtu)
            throws Exception {
        return run(path, type, softrnicRole, size, iters, loss, mtu, false);
    }

    /**
     * One run; {@code loss} is null, "netem" (5 % in the guest) or "softrnic" (5 % at its frame port), and
     * {@code ipv6} carries RoCE over IPv6. Returns the capture.
     */
    private static Path run(String path, String type, String softrnicRole, int size, int iters, String loss, int mtu,
                            boolean ipv6) throws Exception {
        String label = path + "-" + type + "-" + softrnicRole + "-" + size + (loss == null ? "" : "-loss-" + loss)
                + (mtu == 1024 ? "" : "-mtu" + mtu) + (ipv6 ? "-ipv6" : "");
        String netem = "netem".equals(loss) ? "loss 5%" : null;
        try (RxeRun ns = RxeRun.on(path, label)) {
            ns.netem(netem);
            if (ipv6) ns.ipv6();
            String link = ns.softrnicLink("softrnic".equals(loss) ? ",loss=0.05,seed=7" : "");
            if (mtu > 1024) ns.linkMtu(9000);
            Path pcap = ns.dir.resolve("link.pcap");
            // ibv_ud_pingpong has no -m: a datagram is one packet at the port's MTU
            String tool = "ibv_" + type + "_pingpong -d rxe0 -g " + ns.guestGidIndex() + " -n " + iters + " -s " + size + (type.equals("ud") ? "" : " -m " + mtu);
            if (netem != null) {
                // netem drops ARP too, and rxe gives up its modify to RTR when the neighbour does not resolve
                tool = "ip neigh replace " + RxeRun.HOST_IP + " lladdr " + RxeRun.HOST_MAC + " dev eth0 nud permanent; " + tool;
            }
            String counters = "; echo \"[tool rc=$?]\"; cd /sys/class/infiniband/rxe0/ports/1/hw_counters && grep . *";
            String oob = ns.isFrames() ? "" + ns.oobPort : "18515";
            Process soft;
            try {
                soft = ns.runPair(softrnicRole.equals("server"), List.of("pingpong", type, "--link", link, "-g", "1", "-n", "" + iters,
                        "-s", "" + size, "-m", "" + mtu, "-p", oob), tool, counters, pcap);
            } catch (AssertionError e) {
                // The other side of the end-of-run race below: the link dropped softrnic's ACK of rxe's last send,
                // softrnic finished and left (its port with it), and rxe, retrying towards an address that no
                // longer answers ARP, never got back from its tool's teardown. softrnic's run itself completed.
                String m = String.valueOf(e.getMessage());
                if (loss != null && m.startsWith("the guest did not finish") && m.contains(iters + " iters in ")) return pcap;
                throw e;
            }
            String g = ns.output("guest");
            assertTrue(g.contains("[tool rc=0]"), "ibv_" + type + "_pingpong failed:\n" + g + ns.errors("guest"));
            if (loss != null && soft.exitValue() != 0) {
                // The tools' own end-of-run race, in either role: rxe exits once its last send is acknowledged
                // and its last receive is in, and if the link dropped its ACK of softrnic's last send, nobody is
                // left to answer the retries. Only that last send may fail.
                assertTrue(ns.errors("softrnic").contains("Failed status transport retry counter exceeded (12) for wr_id 2"),
                        ns.errors("softrnic"));
                return pcap;
            }
            assertEquals(0, soft.exitValue(), ns.output("softrnic") + ns.errors("softrnic") + g);
            for (String out : new String[] {g, ns.output("softrnic")}) {
                assertTrue(out.contains(iters + " iters in "), out);
                assertTrue(out.contains((long) size * iters * 2 + " bytes in "), out);
            }
            Map<String, Long> rxe = counters(g);
            if (loss == null) assertEquals(0L, rxe.get("rcvd_seq_err"), "rxe saw packets out of sequence: " + rxe);
            assertTrue(rxe.get("rdma_recvs") >= iters && rxe.get("rdma_sends") >= iters, rxe.toString());
            Interop.assertEveryIcrcValid(pcap, 2L * iters);
            // every ICRC checked exactly: the frame port sees the IP header rxe sent; over kernel UDP, where the
            // socket hides it, rxe's identification is recovered from the ICRC
            Map<String, Long> mine = softrnicCounters(ns.errors("softrnic"));
            assertEquals(0L, mine.get("drop_bad_icrc"), mine.toString());
            assertEquals(mine.get("rcvd_pkts"), mine.get("rcvd_icrc_verified"), mine.toString());
            if (ns.ownsFrames() && "softrnic".equals(loss)) assertTrue(mine.get("link_dropped") > 0, "the frame port dropped nothing: " + mine);
            return pcap;
        }
    }

    /** softrnic's counters, printed as JSON on its stderr at the end. */
    static Map<String, Long> softrnicCounters(String err) {
        Map<String, Long> m = new HashMap<>();
        Matcher x = Pattern.compile("\"([a-z_]+)\" : (\\d+)").matcher(err);
        while (x.find()) m.put(x.group(1), Long.parseLong(x.group(2)));
        return m;
    }

    /** The guest's `grep . *` of rxe's hw_counters: name:value lines. */
    static Map<String, Long> counters(String out) {
        Map<String, Long> m = new HashMap<>();
        Matcher x = Pattern.compile("(?m)^([a-z_]+):(\\d+)$").matcher(out);
        while (x.find()) m.put(x.group(1), Long.parseLong(x.group(2)));
        return m;
    }
}
