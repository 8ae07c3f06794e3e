package org.softrnic.cli.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.cli.Main;

/**
 * `softrnic perftest` against itself on loopback (server on 127.0.0.1, client on 127.0.0.2, each an inline soft
 * RNIC on its own thread): every tool's exchange goes through, both print what the C tools print, and the
 * figures are consistent with the run. The runs against rxe's own tools are in conformance-tests.
 */
class PerftestSelfTest {
    private record Side(int rc, String out, String err) {}

    private static List<Side> run(String test, String... options) throws Exception {
        int tcp;
        try (ServerSocket s = new ServerSocket(0)) {
            tcp = s.getLocalPort();
        }
        int udp = 20000 + (tcp % 20000);
        CompletableFuture<Side> server = CompletableFuture.supplyAsync(() -> side(test, "udp:127.0.0.1:" + udp, tcp, null, options));
        Side client = side(test, "udp:127.0.0.2:" + udp, tcp, "127.0.0.1", options);
        return List.of(server.get(120, TimeUnit.SECONDS), client);
    }

    private static Side side(String test, String link, int tcp, String server, String... options) {
        List<String> args = new ArrayList<>(List.of("perftest", test, "--link", link, "-p", "" + tcp, "--wait", "30"));
        args.addAll(List.of(options));
        if (server != null) args.add(server);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Main.execute(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        return new Side(rc, out.toString(), err.toString());
    }

    private static final Pattern BW_ROW = Pattern.compile("(?m)^ (\\d+)\\s+(\\d+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+) *$");
    private static final Pattern LAT_ROW = Pattern.compile("(?m)^ (\\d+)\\s+(\\d+)" + "\\s+([\\d.]+)".repeat(7) + " *$");

    private static List<String[]> rows(Pattern p, String out) {
        List<String[]> rows = new ArrayList<>();
        Matcher m = p.matcher(out);
        while (m.find()) {
            String[] g = new String[m.groupCount()];
            for (int i = 0; i < g.length; i++) g[i] = m.group(i + 1);
            rows.add(g);
        }
        return rows;
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {"write_bw|-n 300", "read_bw|-n 200", "send_bw|-n 200", "atomic_bw|-n 300",
            "atomic_bw|-n 300 -A CMP_AND_SWAP", "write_bw|-n 100 -q 3 -s 4096", "send_bw|-n 100 -q 2 -s 64",
            "read_bw|-n 50 -s 1000000"})
    void bandwidthToolsAgreeOnTheClientsFigures(String test, String options) throws Exception {
        List<Side> sides = run(test, options.split(" "));
        Side server = sides.get(0);
        Side client = sides.get(1);
        assertEquals(0, client.rc(), client.out() + client.err());
        assertEquals(0, server.rc(), server.out() + server.err());
        String[] c = rows(BW_ROW, client.out()).getFirst();
        String[] s = rows(BW_ROW, server.out()).getFirst();
        int qps = options.contains("-q") ? Integer.parseInt(options.replaceAll(".*-q (\\d+).*", "$1")) : 1;
        int iters = Integer.parseInt(options.replaceAll(".*-n (\\d+).*", "$1"));
        assertEquals("" + iters * qps, c[1], "#iterations is per QP times the QPs");
        assertTrue(Double.parseDouble(c[3]) > 0, "an average bandwidth");
        if (test.equals("send_bw")) {
            assertEquals(c[0] + " " + c[1], s[0] + " " + s[1], "the receiver counted every message");
            assertEquals("0.00", s[2], "ib_send_bw's server has no peak");
        } else {
            assertEquals(String.join(" ", c), String.join(" ", s), "the server prints the client's row");
        }
        assertTrue(client.out().contains(" Number of qps   : " + qps), client.out());
        if (test.equals("atomic_bw")) {
            assertTrue(client.out().contains("Atomic " + (options.contains("CMP") ? "CMP_AND_SWAP" : "FETCH_AND_ADD") + " BW Test"));
            assertEquals("8", c[0]);
            assertTrue(client.out().contains(" CQ Moderation   : 100"), client.out());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"write_lat", "read_lat", "send_lat"})
    void latencyToolsPrintPerftestsRows(String test) throws Exception {
        List<Side> sides = run(test, "-n", "200");
        for (Side s : sides) assertEquals(0, s.rc(), s.out() + s.err());
        List<String[]> client = rows(LAT_ROW, sides.get(1).out());
        List<String[]> server = rows(LAT_ROW, sides.get(0).out());
        assertEquals(1, client.size(), sides.get(1).out());
        assertEquals(test.equals("read_lat") ? 0 : 1, server.size(), "ib_read_lat's server prints no row:\n" + sides.get(0).out());
        String[] r = client.getFirst();
        assertEquals("2", r[0]);
        assertEquals("200", r[1]);
        double min = Double.parseDouble(r[2]);
        double max = Double.parseDouble(r[3]);
        double typical = Double.parseDouble(r[4]);
        assertTrue(0 < min && min <= typical && typical <= max, String.join(" ", r));
    }

    @ParameterizedTest(name = "-R {0} {1}")
    @CsvSource(delimiter = '|', value = {"write_bw|-n 300", "read_bw|-n 200", "send_bw|-n 200", "atomic_bw|-n 300",
            "write_bw|-n 100 -q 3 -s 4096", "send_bw|-n 100 -q 2 -s 64", "write_lat|-n 200", "read_lat|-n 200", "send_lat|-n 200"})
    void everyToolRunsOverTheRdmaCm(String test, String options) throws Exception {
        List<Side> sides = run(test, (options + " -R").split(" "));
        for (Side s : sides) {
            assertEquals(0, s.rc(), s.out() + s.err());
            assertTrue(s.out().contains(" rdma_cm QPs\t : ON") && s.out().contains(" Data ex. method : rdma_cm"), s.out());
        }
        String client = sides.get(1).out();
        assertEquals(1, rows(test.endsWith("_bw") ? BW_ROW : LAT_ROW, client).size(), client);
        String[] row = rows(test.endsWith("_bw") ? BW_ROW : LAT_ROW, client).getFirst();
        int qps = options.contains("-q") ? Integer.parseInt(options.replaceAll(".*-q (\\d+).*", "$1")) : 1;
        assertEquals("" + Integer.parseInt(options.replaceAll(".*-n (\\d+).*", "$1")) * qps, row[1], client);
        assertTrue(sides.get(0).out().contains(" Waiting for client rdma_cm QP to connect"), sides.get(0).out());
    }

    @Test
    void everySizeRunsUnderA() throws Exception {
        List<Side> sides = run("send_lat", "-a", "-n", "20");
        for (Side s : sides) assertEquals(0, s.rc(), s.out() + s.err());
        List<String[]> rows = rows(LAT_ROW, sides.get(1).out());
        assertEquals(23, rows.size(), sides.get(1).out());
        assertEquals("2", rows.getFirst()[0]);
        assertEquals("" + (1 << 23), rows.getLast()[0]);
    }

    @Test
    void writeBwUnderAPrintsEverySizeAndTheServerTheLast() throws Exception {
        List<Side> sides = run("write_bw", "-a", "-n", "8");
        for (Side s : sides) assertEquals(0, s.rc(), s.out() + s.err());
        List<String[]> client = rows(BW_ROW, sides.get(1).out());
        List<String[]> server = rows(BW_ROW, sides.get(0).out());
        assertEquals(23, client.size(), sides.get(1).out());
        assertEquals(1, server.size());
        assertEquals(String.join(" ", client.getLast()), String.join(" ", server.getFirst()));
        assertTrue(sides.get(1).out().contains(" CQ Moderation   : 8"), "moderation stays on (capped by -n) under -a");
    }

    @Test
    void durationModeCountsTheMeasuredWindow() throws Exception {
        List<Side> sides = run("write_bw", "-D", "2", "-s", "4096");
        for (Side s : sides) assertEquals(0, s.rc(), s.out() + s.err());
        String[] row = rows(BW_ROW, sides.get(1).out()).getFirst();
        assertTrue(Long.parseLong(row[1]) > 0, "messages were counted");
        assertEquals("0.00", row[2], "no peak under -D");
        List<Side> lat = run("write_lat", "-D", "2");
        for (Side s : lat) assertEquals(0, s.rc(), s.out() + s.err());
        assertTrue(lat.get(1).out().contains(" #bytes        #iterations       t_avg[usec]    tps average"), lat.get(1).out());
    }

    @Test
    void badOptionsAreRefusedInPerftestsWords() {
        StringWriter err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err),
                "perftest", "write_lat", "-q", "2"));
        assertTrue(err.toString().contains("Multiple QPs only available on bw tests"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(Main.EXIT_USAGE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err),
                "perftest", "atomic_bw", "-s", "16"));
        assertTrue(err.toString().contains("Message size cannot be changed for Atomic tests"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(Main.EXIT_USAGE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err),
                "perftest", "rdma_bw"));
        assertTrue(err.toString().contains("TEST must be one of write_bw, read_bw, send_bw, atomic_bw"), err.toString());
    }
}
