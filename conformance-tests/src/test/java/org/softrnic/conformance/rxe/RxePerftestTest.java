package org.softrnic.conformance.rxe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.conformance.Interop;

/**
 * perftest 4.5's seven unmodified tools (ib_{write,read,send,atomic}_bw, ib_{write,read,send}_lat) on rxe against `softrnic perftest`, both roles, over
 * the UDP and frame paths: the tools' whole TCP exchange, the test, and the report the server prints from the
 * client's figures. Every RoCEv2 packet in the capture has a valid ICRC.
 */
class RxePerftestTest {
    private static final java.util.Map<String, String> TITLES = java.util.Map.of("write_bw", "RDMA_Write BW Test",
            "read_bw", "RDMA_Read BW Test", "send_bw", "Send BW Test", "atomic_bw", "Atomic FETCH_AND_ADD BW Test",
            "write_lat", "RDMA_Write Latency Test", "read_lat", "RDMA_Read Latency Test", "send_lat", "Send Latency Test");

    @BeforeAll
    static void needsTheGuest() {
        Interop.requireRxeGuest();
    }

    @ParameterizedTest(name = "{1} path, {2}: softrnic {3} ({0})")
    @CsvSource({"ci, udp, write_bw, client", "ci, udp, write_bw, server", "full, udp, read_bw, client",
                "full, udp, read_bw, server", "ci, frames, write_bw, client", "ci, frames, write_bw, server",
                "ci, frames, read_bw, client", "ci, frames, read_bw, server", "full, udp, send_bw, client",
                "full, udp, send_bw, server", "ci, frames, send_bw, client", "ci, frames, send_bw, server",
                "ci, frames, atomic_bw, client", "ci, frames, atomic_bw, server", "full, udp, atomic_bw, client",
                "full, udp, atomic_bw, server", "ci, frames, write_lat, client", "ci, frames, write_lat, server",
                "full, udp, write_lat, client", "full, udp, write_lat, server", "ci, frames, read_lat, client",
                "ci, frames, read_lat, server", "full, udp, read_lat, client", "full, udp, read_lat, server",
                "ci, udp, send_lat, client", "ci, udp, send_lat, server", "full, frames, send_lat, client",
                "full, frames, send_lat, server", "ci, tap, write_bw, client", "ci, tap, read_lat, server",
                "full, tap, atomic_bw, server", "full, tap, send_bw, client"})
    void perftestCompletesAgainstSoftrnic(String tier, String path, String test, String softrnicRole) throws Exception {
        Interop.tier(tier);
        Interop.perftestWithClockRetry(attempt -> run(path, test, softrnicRole, attempt));
    }

    /** One run; null when it passed, the guest's output when perftest there could not sample its clock. */
    private static String run(String path, String test, String softrnicRole, int attempt) throws Exception {
        int iters = 200;
        String label = "perftest-" + path + "-" + test + "-" + softrnicRole + (attempt > 1 ? "-" + attempt : "");
        try (RxeRun ns = RxeRun.on(path, label)) {
            Path pcap = ns.dir.resolve("link.pcap");
            String tool = "timeout 200 ib_" + test + " -d rxe0 -x $GID4 -n " + iters;
            String done = "; echo \"[tool rc=$?]\"";
            String oob = ns.isFrames() ? "" + ns.oobPort : "18515";
            // ib_send_bw's server must expect as many messages as the client sends, so both get -n
            Process soft = ns.runPair(softrnicRole.equals("server"), List.of("perftest", test, "--link", ns.softrnicLink(), "-x", "1",
                    "-n", "" + iters, "-p", oob), tool, done, pcap);
            String g = ns.output("guest");
            String mine = ns.output("softrnic");
            if (!g.contains("[tool rc=0]") && g.contains("Can't produce a report")) return g + ns.errors("guest");
            assertEquals(0, soft.exitValue(), mine + ns.errors("softrnic") + g);
            assertTrue(g.contains("[tool rc=0]"), "ib_" + test + " failed:\n" + g + ns.errors("guest"));
            boolean lat = test.endsWith("_lat");
            int size = lat ? 2 : test.equals("atomic_bw") ? 8 : 65536;
            String row = lat ? String.format(" %-7d %d ", size, iters) : String.format(" %-7d    %-10d ", size, iters);
            // ib_read_lat's server prints no row: whichever side serves
            boolean rxeRow = !(test.equals("read_lat") && softrnicRole.equals("client"));
            boolean softrnicRow = !(test.equals("read_lat") && softrnicRole.equals("server"));
            if (rxeRow) assertTrue(g.contains(row), "rxe's report has no row for " + size + " x " + iters + ":\n" + g);
            if (softrnicRow) assertTrue(mine.contains(row), "softrnic's report has no row:\n" + mine);
            String title = TITLES.get(test);
            assertTrue(g.contains(title) && mine.contains(title), title + "\n" + g + mine);
            Interop.assertEveryIcrcValid(pcap, iters);
            return null;
        }
    }

    /**
     * perftest's main options against the real tools, both sides given the same: -a (every size, 2 B to 8 MiB),
     * -q (several QPs, keys handed over per QP), -D (a timed run) and -A (compare and swap).
     */
    @ParameterizedTest(name = "frames path, {1} {2}: softrnic {3} ({0})")
    @CsvSource({"ci, write_bw, -q 2 -n 100, server", "full, write_bw, -q 3 -n 50, client", "full, write_bw, -a -n 5, client",
                "full, send_lat, -a -n 10, server", "full, read_bw, -D 6, client", "full, write_lat, -D 4, server",
                "ci, atomic_bw, -A CMP_AND_SWAP -n 200, client"})
    void perftestOptionsAgreeWithTheTools(String tier, String test, String options, String softrnicRole) throws Exception {
        Interop.tier(tier);
        String label = "perftest-options-" + test + options.replace(" ", "") + "-" + softrnicRole;
        try (RxeRun ns = RxeRun.on("frames", label)) {
            Path pcap = ns.dir.resolve("link.pcap");
            String tool = "timeout 200 ib_" + test + " -d rxe0 -x $GID4 " + options;
            String done = "; echo \"[tool rc=$?]\"";
            List<String> args = new ArrayList<>(List.of("perftest", test, "--link", ns.softrnicLink(), "-x", "1", "-p", "" + ns.oobPort));
            args.addAll(List.of(options.split(" ")));
            Process soft = ns.runPair(softrnicRole.equals("server"), args, tool, done, pcap);
            String g = ns.output("guest");
            String mine = ns.output("softrnic");
            assertEquals(0, soft.exitValue(), mine + ns.errors("softrnic") + g);
            assertTrue(g.contains("[tool rc=0]"), "ib_" + test + " failed:\n" + g + ns.errors("guest"));
            if (options.contains("-q")) {
                String qps = options.replaceAll(".*-q (\\d+).*", "$1");
                int n = Integer.parseInt(options.replaceAll(".*-n (\\d+).*", "$1")) * Integer.parseInt(qps);
                for (String out : new String[] {g, mine}) {
                    assertTrue(out.contains(" Number of qps   : " + qps), out);
                    assertTrue(out.contains(String.format(" %-7d    %-10d ", 65536, n)), "a row for " + n + " messages:\n" + out);
                }
            }
            if (options.contains("-a")) {
                // the tools print a row per size on the side that measures (send_lat: both)
                String client = softrnicRole.equals("client") ? mine : g;
                assertTrue(client.contains(" 8388608 "), "no row for 8 MiB:\n" + client);
                assertTrue(client.contains(" 2 "), "no row for 2 bytes:\n" + client);
            }
            if (options.contains("-D")) {
                String header = test.endsWith("_lat") ? " #bytes        #iterations       t_avg[usec]    tps average"
                        : " #bytes     #iterations    BW peak[MB/sec]";
                assertTrue(g.contains(header) && mine.contains(header), g + mine);
            }
            if (options.contains("CMP_AND_SWAP")) assertTrue(g.contains("Atomic CMP_AND_SWAP BW Test") && mine.contains("Atomic CMP_AND_SWAP BW Test"));
            Interop.assertEveryIcrcValid(pcap, 10);
        }
    }

    /**
     * CNPs toward rxe, which has no reaction point and must not be disturbed by them: ib_write_bw on rxe sends its
     * data ECT(0) (--tclass 2), softrnic's frame port marks every ECN-capable packet CE as it arrives (ecn=1: a
     * congested switch in between), and softrnic, a notification point (--cnp firmware), answers with CNPs. rxe has
     * no CNP in its opcode table and drops them; the test completes as without them.
     */
    @ParameterizedTest(name = "frames path, CE-marked write_bw: softrnic {1} sends CNPs ({0})")
    @CsvSource({"ci, server"})
    void rxeIgnoresTheCnpsSoftrnicSends(String tier, String softrnicRole) throws Exception {
        Interop.tier(tier);
        int iters = 200;
        try (RxeRun ns = RxeRun.on("frames", "perftest-cnp-" + softrnicRole)) {
            Path pcap = ns.dir.resolve("link.pcap");
            String tool = "timeout 200 ib_write_bw -d rxe0 -x $GID4 --tclass=2 -n " + iters;
            String done = "; echo \"[tool rc=$?]\"";
            Process soft = ns.runPair(softrnicRole.equals("server"), List.of("perftest", "write_bw", "--link", ns.softrnicLink(",ecn=1"),
                    "--cnp", "firmware", "-x", "1", "-n", "" + iters, "-p", "" + ns.oobPort), tool, done, pcap);
            String g = ns.output("guest");
            String mine = ns.output("softrnic");
            assertEquals(0, soft.exitValue(), mine + ns.errors("softrnic") + g);
            assertTrue(g.contains("[tool rc=0]"), "ib_write_bw failed:\n" + g + ns.errors("guest"));
            assertTrue(g.contains(String.format(" %-7d    %-10d ", 65536, iters)), "rxe's report has no row:\n" + g);
            assertCnpsSentAndVerified(pcap, "for the CE-marked WRITEs");
            Interop.assertEveryIcrcValid(pcap, iters);
        }
    }

    /**
     * A qdisc that marks CE drives the notification point end to end over kernel UDP: in the guest, a 100 Mb/s token
     * bucket queues rxe's ECT(0) WRITEs (ib_write_bw --tclass=2) in an fq_codel whose ce_threshold marks every packet
     * that waited over 1 ms; the CE bits cross the host's kernel to softrnic's UDP socket, which reports them, and
     * softrnic (--cnp firmware) answers with CNPs that rxe ignores.
     */
    @ParameterizedTest(name = "udp path, a CE-marking qdisc in the guest: softrnic {1} sends CNPs ({0})")
    @CsvSource({"ci, server"})
    void aCeMarkingQdiscMakesSoftrnicSendCnpsOverUdp(String tier, String softrnicRole) throws Exception {
        Interop.tier(tier);
        int iters = 100;
        try (RxeRun ns = RxeRun.on("udp", "perftest-qdisc-ce-" + softrnicRole)) {
            ns.tc("qdisc add dev eth0 root handle 1: tbf rate 100mbit burst 32kb latency 400ms;"
                    + "qdisc add dev eth0 parent 1:1 handle 10: fq_codel ce_threshold 1ms");
            Path pcap = ns.dir.resolve("link.pcap");
            String tool = "tc -s qdisc show dev eth0; timeout 200 ib_write_bw -d rxe0 -x $GID4 --tclass=2 -n " + iters;
            String done = "; echo \"[tool rc=$?]\"; tc -s qdisc show dev eth0";
            Process soft = ns.runPair(softrnicRole.equals("server"), List.of("perftest", "write_bw", "--link", ns.softrnicLink(),
                    "--cnp", "firmware", "-x", "1", "-n", "" + iters, "-p", "18515"), tool, done, pcap);
            String g = ns.output("guest");
            String mine = ns.output("softrnic");
            assertEquals(0, soft.exitValue(), mine + ns.errors("softrnic") + g);
            assertTrue(g.contains("[tool rc=0]"), "ib_write_bw failed:\n" + g + ns.errors("guest"));
            assertTrue(g.contains("fq_codel"), "the qdisc is in place:\n" + g + ns.errors("guest"));
            assertCnpsSentAndVerified(pcap, "for the qdisc's CE marks (did they reach softrnic's notification point?)\n" + g);
        }
    }

    /** softrnic's CNPs are in the capture, and every one verifies. */
    private static void assertCnpsSentAndVerified(Path pcap, String forWhat) {
        String decoded = Interop.decode(pcap);
        long cnps = decoded.lines().filter(l -> l.contains("RoCEv2  CNP")).count();
        assertTrue(cnps > 0, "softrnic sent no CNP " + forWhat + "\n" + decoded);
        assertEquals(cnps, decoded.lines().filter(l -> l.contains("RoCEv2  CNP  ICRC ok")).count(), "every CNP verifies");
    }
}
