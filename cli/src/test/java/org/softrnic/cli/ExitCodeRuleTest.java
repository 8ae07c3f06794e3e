package org.softrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one exit-code rule, as `softrnic --help` writes it: 2 for what the command line itself makes invalid, 1
 * for every failure at run time (a peer, a file, the environment), 0 for success. Every command's failure
 * classes, run as a user runs them: the exit code, and one line on stderr whose start is checked.
 */
class ExitCodeRuleTest {
    static final Path SAMPLE = Path.of("..", "samples", "rc_pingpong.pcap");

    record Case(String name, int exit, String firstLine, String... args) {
        @Override
        public String toString() {
            return name;
        }
    }

    static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort(); // free once closed: nothing listens there
        }
    }

    static List<Case> cases() throws Exception {
        int nobody = freePort();
        List<Case> c = new ArrayList<>();
        // decode
        c.add(new Case("decode: a bad option value", 2, "softrnic decode: --udp-port must be", "decode", "--udp-port", "0", SAMPLE.toString()));
        c.add(new Case("decode: no such file", 1, "softrnic decode: /no/such.pcap: no such file", "decode", "/no/such.pcap"));
        c.add(new Case("decode: a directory", 1, "softrnic decode: .: is a directory", "decode", "."));
        c.add(new Case("decode: success", 0, null, "decode", SAMPLE.toString()));
        c.add(new Case("decode: one of two files missing", 1, "softrnic decode: /no/such.pcap: no such file", "decode", "/no/such.pcap",
                SAMPLE.toString()));
        c.add(new Case("decode: --json with --explain", 2, "softrnic decode: --explain annotates the text output", "decode", "--json",
                "--explain", SAMPLE.toString()));
        // ladder
        c.add(new Case("ladder: no file named", 2, "softrnic ladder: Missing required parameter", "ladder"));
        c.add(new Case("ladder: no such file", 1, "softrnic ladder: /no/such.pcap: no such file", "ladder", "/no/such.pcap"));
        c.add(new Case("ladder: success", 0, null, "ladder", "--no-color", SAMPLE.toString()));
        // demo
        c.add(new Case("demo: --size 0", 2, "softrnic demo: --size must be 1..16777216, not 0", "demo", "write", "--size", "0"));
        c.add(new Case("demo: --drop 0", 2, "softrnic demo: --drop must be positive, not 0", "demo", "loss", "--drop", "0"));
        c.add(new Case("demo: a UD message over the MTU", 2, "softrnic demo: --size 2000: a UD message must fit one MTU",
                "demo", "ud", "--mtu", "256", "--size", "2000"));
        c.add(new Case("demo: an unwritable capture", 1, "softrnic demo: --pcap /no/such/dir/x.pcap: no such directory", "demo", "write", "--no-color", "--pcap",
                "/no/such/dir/x.pcap"));
        c.add(new Case("demo: success", 0, null, "demo", "write", "--no-color"));
        // explain
        c.add(new Case("explain: nothing known", 2, "softrnic explain: nothing known as", "explain", "no-such-topic"));
        c.add(new Case("explain: success", 0, null, "explain", "rnr"));
        // perf
        c.add(new Case("perf: qps x depth over one CQ", 2, "softrnic perf: --qps x --tx-depth must be at most 32768", "perf", "write",
                "--qps", "257"));
        c.add(new Case("perf: no OP", 2, "softrnic perf: OP is required", "perf"));
        c.add(new Case("perf: -d on the soft provider", 2, "softrnic perf: -d names a real device", "perf", "write", "-d", "mlx5_0"));
        c.add(new Case("perf: an atomic of 16 bytes", 2, "softrnic perf: --size: atomics move 8 bytes, not 16", "perf", "atomic",
                "--size", "16"));
        c.add(new Case("perf: a frame port", 2, "softrnic perf: --link tap:x,ip=192.0.2.1/24: perf takes --link inproc or udp", "perf",
                "write", "--link", "tap:x,ip=192.0.2.1/24"));
        c.add(new Case("perf: an unwritable trace", 1, "softrnic perf: --trace /no/such/dir/t.pcap: no such directory", "perf", "write",
                "--trace", "/no/such/dir/t.pcap"));
        c.add(new Case("perf: no server there", 1, "softrnic perf: --connect 127.0.0.1 port " + nobody + ": Connection refused", "perf", "write", "--link", "udp:127.0.0.1:" + nobody,
                "--connect", "127.0.0.1", "--oob-port", "" + nobody));
        c.add(new Case("perf: a server no client reaches", 1, "softrnic perf: --server: no client came within 1 s", "perf",
                "--server", "--link", "udp:127.0.0.1:" + freePort(), "--oob-port", "" + freePort(), "--timeout", "1"));
        c.add(new Case("perf: success", 0, null, "perf", "write", "--iters", "20", "--size", "4096"));
        // pingpong
        c.add(new Case("pingpong: -s -1", 2, "softrnic pingpong: -s must be positive, not -1", "pingpong", "rc", "-s", "-1"));
        c.add(new Case("pingpong: -p 70000", 2, "softrnic pingpong: -p must be 1..65535, not 70000", "pingpong", "rc", "-p", "70000"));
        c.add(new Case("pingpong: srq with fewer receives than QPs", 2,
                "softrnic pingpong: -r 10 is too small for 16 QPs (-q): srq needs at least one receive per QP", "pingpong", "srq", "-r", "10", "-q", "16"));
        c.add(new Case("pingpong: srq -q 300", 2, "softrnic pingpong: -q must be 1..256, not 300", "pingpong", "srq", "-q", "300"));
        c.add(new Case("pingpong: a UD message no MTU holds", 2, "softrnic pingpong: -s 5000: a UD message must fit one MTU", "pingpong", "ud", "-s", "5000"));
        c.add(new Case("pingpong: udp:0.0.0.0", 2, "softrnic pingpong: --link udp:0.0.0.0: 0.0.0.0 is not a device address", "pingpong",
                "rc", "--link", "udp:0.0.0.0"));
        c.add(new Case("pingpong: no server there", 1, "softrnic pingpong: Couldn't connect to 127.0.0.1:" + nobody, "pingpong", "rc",
                "--link", "udp:127.0.0.1:" + nobody, "-p", "" + nobody, "127.0.0.1"));
        c.add(new Case("pingpong: a server no client reaches", 1, "softrnic pingpong: no client came within 1 s", "pingpong", "rc",
                "--link", "udp:127.0.0.1:" + freePort(), "-p", "" + freePort(), "--timeout", "1"));
        // perftest
        c.add(new Case("perftest: -n -1", 2, "softrnic perftest: -n must be positive, not -1", "perftest", "write_bw", "-n", "-1"));
        c.add(new Case("perftest: -p 70000", 2, "softrnic perftest: -p must be 1..65535, not 70000", "perftest", "write_bw", "-p", "70000"));
        c.add(new Case("perftest: no server there", 1, "softrnic perftest: Couldn't connect to 127.0.0.1:" + nobody, "perftest",
                "write_bw", "--link", "udp:127.0.0.1:" + nobody, "-p", "" + nobody, "127.0.0.1"));
        // check
        c.add(new Case("check: no such scenario", 2, "softrnic check: no scenario 'nosuch'; there are rc-", "check", "nosuch"));
        return c;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachFailureClassHasItsExitCode(Case c) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Main.execute(new PrintWriter(out), new PrintWriter(err), c.args());
        // the line that says why: the last (a server says first where it serves)
        String why = err.toString().lines().reduce((a, b) -> b).orElse("");
        assertEquals(c.exit(), rc, c + ":\n" + err);
        if (c.firstLine() != null) assertTrue(why.startsWith(c.firstLine()), c + ": the line is\n" + why);
        if (rc != 0) {
            assertFalse(err.toString().contains("\tat "), c + ": a stack trace:\n" + err);
            long said = err.toString().lines().filter(l -> l.startsWith("softrnic ") && !l.contains(": serving on ")).count();
            assertTrue(said <= 1, c + ": more than one error line:\n" + err);
        }
    }

    @Test
    void theRuleIsInTheHelp() {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "--help"));
        String help = out.toString();
        assertTrue(help.contains("Exit status"), help);
        assertTrue(help.matches("(?s).*\\n +1 +a failure at run time.*"), help);
        assertTrue(help.matches("(?s).*\\n +2 +an invalid command line.*"), help);
    }

    /** A TCP port that is taken is a run-time failure naming the option and the port. */
    @Test
    void aTakenTcpPortIsNamed() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.setReuseAddress(false);
            taken.bind(new java.net.InetSocketAddress(0));
            int p = taken.getLocalPort();
            StringWriter err = new StringWriter();
            assertEquals(1, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "pingpong", "rc", "-p", "" + p,
                    "--link", "udp:127.0.0.1:" + freePort(), "--timeout", "2"));
            assertTrue(err.toString().startsWith("softrnic pingpong: -p " + p + ": cannot listen on TCP port " + p + " ("), err.toString());
        }
    }

    /** Output that cannot be written (a full disk) is a run-time failure, not a silent success. */
    @Test
    void outputThatCannotBeWrittenExitsOne() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(full), "no /dev/full here");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "org.softrnic.cli.Main", "decode", SAMPLE.toString())
                .redirectOutput(full.toFile()).start();
        String err = new String(p.getErrorStream().readAllBytes());
        assertEquals(1, p.waitFor(), err);
        assertTrue(err.startsWith("softrnic decode: cannot write output: No space left on device"), err);
    }

    /**
     * A trace or capture file that cannot be written fails the run (exit 1) naming the file, after the results:
     * perf's table and demo's ladder are still printed.
     */
    @Test
    void aTraceThatCannotBeWrittenIsNamedAfterTheResults() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "no /dev/full here");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(1, Main.execute(new PrintWriter(out), new PrintWriter(err), "perf", "write", "--iters", "20", "--size", "4096",
                "--trace", "/dev/full"));
        assertTrue(out.toString().contains("RDMA_Write BW Test") && out.toString().contains(" 4096       20 "), out.toString());
        assertEquals("softrnic perf: trace /dev/full: cannot write: No space left on device", err.toString().strip());
        StringWriter out2 = new StringWriter();
        StringWriter err2 = new StringWriter();
        assertEquals(1, Main.execute(new PrintWriter(out2), new PrintWriter(err2), "demo", "write", "--no-color", "--pcap", "/dev/full"));
        assertTrue(out2.toString().startsWith("write: "), out2.toString());
        assertEquals("softrnic demo: --pcap /dev/full: cannot write: No space left on device", err2.toString().strip());
    }

    /** A capture cut short in its last record: every complete record is shown, and a warning says what was cut. */
    @Test
    void aCaptureCutShortShowsItsCompleteRecords(@TempDir Path dir) throws Exception {
        byte[] whole = Files.readAllBytes(SAMPLE);
        Path cut = dir.resolve("cut.pcap");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 7));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(err), "decode", "--json", cut.toString()), err.toString());
        StringWriter wholeOut = new StringWriter();
        Main.execute(new PrintWriter(wholeOut), new PrintWriter(new StringWriter()), "decode", "--json", SAMPLE.toString());
        assertEquals(wholeOut.toString().lines().count() - 1, out.toString().lines().count(), "every record but the last");
        assertTrue(err.toString().contains("cut short; the "), err.toString());
        assertEquals(1, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "decode", "--strict",
                cut.toString()), "--strict fails on a cut-short capture");
        StringWriter ladder = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(ladder), new PrintWriter(new StringWriter()), "ladder", "--no-color", cut.toString()));
        assertTrue(ladder.toString().contains("PSN"), ladder.toString());
    }
}
