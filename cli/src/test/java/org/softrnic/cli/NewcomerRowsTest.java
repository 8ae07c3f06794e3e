package org.softrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.softrnic.wire.pcap.CapturedFrame;
import org.softrnic.wire.pcap.PcapReader;
import picocli.CommandLine;

/**
 * Rows 16, 35, 36 and 40 of the newcomer's review (shared/reviews/cli-newcomer.md), run as a user runs the
 * commands: the exit code and what the first line says.
 */
class NewcomerRowsTest {
    record Run(int exit, String out, String err) {
        String firstErr() {
            return err.lines().findFirst().orElse("");
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(rc, out.toString(), err.toString());
    }

    /** The sample as tcpdump -s SNAP would have kept it: every frame cut to its first {@code snap} bytes. */
    static Path snapped(Path dir, int snap) throws Exception {
        ByteArrayOutputStream os = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(snap).putInt(1);
        os.write(h.array());
        for (CapturedFrame f : PcapReader.read(ExitCodeRuleTest.SAMPLE)) {
            int kept = Math.min(snap, f.data().length);
            ByteBuffer r = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            r.putInt((int) (f.timestampNanos() / 1_000_000_000L)).putInt((int) (f.timestampNanos() % 1_000_000_000L / 1000))
                    .putInt(kept).putInt(f.originalLength());
            os.write(r.array());
            os.write(f.data(), 0, kept);
        }
        Path p = dir.resolve("snap" + snap + ".pcap");
        Files.write(p, os.toByteArray());
        return p;
    }

    // row 16: a short snaplen
    @Test
    void aShortSnaplenCaptureDecodesTheHeadersItKept(@TempDir Path dir) throws Exception {
        Path cut = snapped(dir, 62);
        Run r = run("decode", cut.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("RC_SEND_ONLY  captured 62 of 122 bytes (snaplen): ICRC not checked"), r.out());
        assertTrue(r.out().contains("  bth          opcode=0x04"), r.out());
        Run json = run("decode", "--json", cut.toString());
        assertTrue(json.out().contains("\"captured_length\":62"), json.out());
        Run ladder = run("ladder", "--no-color", cut.toString());
        assertEquals(0, ladder.exit());
        assertTrue(ladder.out().contains("SEND_ONLY  PSN"), ladder.out());
        assertTrue(ladder.firstErr().contains("captured in part (snaplen): drawn from their headers, ICRC not checked"), ladder.err());
    }

    @Test
    void aSnaplenThatCutsTheBthSaysSo(@TempDir Path dir) throws Exception {
        Run r = run("decode", snapped(dir, 48).toString());
        assertTrue(r.out().contains("captured 48 of 122 bytes (snaplen): the RoCE headers are cut"), r.out());
    }

    // row 35: help texts
    @Test
    void everyHelpLineFitsEightyColumns() {
        for (String name : new CommandLine(new Main()).getSubcommands().keySet()) {
            Run r = run(name, "--help");
            for (String line : r.out().lines().toList()) assertTrue(line.length() <= 80, name + ": " + line.length() + ": " + line);
        }
        for (String line : run("--help").out().lines().toList()) assertTrue(line.length() <= 80, line);
    }

    @Test
    void theOneLinersAllStartWithAVerbInTheImperative() {
        List<String> verbs = List.of("Decode", "List", "Run", "Play", "Draw", "Say", "Measure", "Ping-pong", "Print", "Display", "Ping", "Connect");
        for (var e : new CommandLine(new Main()).getSubcommands().entrySet()) {
            var usage = e.getValue().getCommandSpec().usageMessage();
            // the root's command list shows a command's header when it has one, else its description
            String first = (usage.header().length > 0 ? usage.header() : usage.description())[0].split(" ")[0];
            assertTrue(verbs.contains(first), e.getKey() + " starts with " + first);
        }
    }

    /** Every option that takes a value names it in one style (N, B, M, P, S, SPEC...), never picocli's {@code <field>}. */
    @Test
    void everyOptionsValueHasALabelInOneStyle() {
        for (String name : new CommandLine(new Main()).getSubcommands().keySet()) {
            String help = run(name, "--help").out();
            assertTrue(!help.matches("(?s).*=<[a-zA-Z]+>.*"), name + " --help:\n" + help);
        }
        assertTrue(run("pingpong", "--help").out().contains("path MTU: 256, 512, 1024, 2048 or 4096"));
    }

    @Test
    void checksGidIndexHasALabelLikeTheOthers() {
        assertTrue(run("check", "--help").out().contains("-x, --gid-index=N"));
    }

    // row 36: one error style
    @ParameterizedTest
    @ValueSource(strings = {"demo write --mtu 300", "perf write --mtu 300", "pingpong rc -m 300", "perftest write_bw -m 300"})
    void aBadMtuIsWordedTheSameEverywhere(String line) {
        String[] args = line.split(" ");
        Run r = run(args);
        assertEquals(2, r.exit());
        String option = args[args.length - 2];
        assertEquals("softrnic " + args[0] + ": " + option + " must be 256, 512, 1024, 2048 or 4096 (a path MTU), not 300", r.firstErr());
    }

    @Test
    void portZeroOnAToolsLinkNamesTheLinkNotAConfigKey() {
        Run r = run("pingpong", "rc", "--link", "udp:127.0.0.1:0");
        assertEquals(2, r.exit());
        assertTrue(r.firstErr().startsWith("softrnic pingpong: --link udp:127.0.0.1:0: the UDP port must be 1..65535 here, not 0"), r.err());
        assertFalse(r.err().contains("udp_port"), r.err());
    }

    @Test
    void anUnknownOptionIsNamedBeforeAMissingParameter() {
        Run r = run("explain", "--foo");
        assertEquals(2, r.exit());
        assertEquals("softrnic explain: Unknown option: '--foo' (see 'softrnic explain --help')", r.firstErr());
    }

    // row 40
    @ParameterizedTest
    @ValueSource(strings = {"extra", "--bogus"})
    void generateCompletionRefusesWhatItDoesNotTake(String arg) {
        assertEquals(2, run("generate-completion", arg).exit());
    }

    @Test
    void helpIsACommand() {
        Run r = run("help", "demo");
        assertEquals(0, r.exit());
        assertTrue(r.out().startsWith("Usage: softrnic demo"), r.out());
    }

    @Test
    void completionKnowsScenariosOpsTypesTestsAndTopics() {
        String script = run("generate-completion").out();
        for (String word : List.of("multi-packet", "rc-atomics", "atomic", "srq", "write_bw", "IBV_WC_REM_ACCESS_ERR", "RDMA_WRITE_FIRST")) {
            assertTrue(script.contains(word), word);
        }
    }

    @Test
    void aLadderSvgOfACaptureWithoutRoceIsAFailure(@TempDir Path dir) throws Exception {
        Path empty = dir.resolve("empty.pcap");
        try (var w = org.softrnic.wire.pcap.PcapWriter.create(empty)) {
            w.write(0, new byte[60]);
        }
        Path svg = dir.resolve("out.svg");
        Run r = run("ladder", "--svg", svg.toString(), empty.toString());
        assertEquals(1, r.exit());
        assertEquals("softrnic ladder: --svg: nothing to draw, so " + svg + " was not written", r.firstErr());
        assertFalse(Files.exists(svg));
    }

    @Test
    void aGidIndexOnTheSoftProviderIsRefused() {
        Run r = run("check", "-x", "3");
        assertEquals(2, r.exit());
        assertTrue(r.firstErr().startsWith("softrnic check: -x picks a real device's GID"), r.err());
    }

    // row 3: registered memory beyond the cap is refused up front, not an OutOfMemoryError
    @Test
    void perfRefusesMoreRegisteredMemoryThanItsCap() {
        Run r = run("perf", "write", "--size", "1073741824", "--qps", "8", "--iters", "1");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.firstErr().startsWith("softrnic perf: --size x --qps must be at most 4 GiB of registered memory"), r.err());
    }

    // row 5: the server binds its device before it says it serves
    @Test
    void aPerfServerWhosePortIsTakenFailsAtStartUp() throws Exception {
        try (java.net.DatagramSocket taken = new java.net.DatagramSocket(new java.net.InetSocketAddress("127.0.0.2", 0))) {
            Run r = run("perf", "--server", "--link", "udp:127.0.0.2:" + taken.getLocalPort(), "--timeout", "2",
                    "--oob-port", Integer.toString(ExitCodeRuleTest.freePort()));
            assertEquals(1, r.exit(), r.err());
            assertFalse(r.err().contains("serving"), r.err());
            assertTrue(r.firstErr().contains("127.0.0.2:" + taken.getLocalPort()), r.err());
        }
    }

    // row 15: an unsupported link type is said, and fails --strict
    @Test
    void anUnsupportedLinkTypeIsSaidAndFailsStrict(@TempDir Path dir) throws Exception {
        byte[] file = Files.readAllBytes(ExitCodeRuleTest.SAMPLE);
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(20, 147);
        Path odd = dir.resolve("linktype147.pcap");
        Files.write(odd, file);
        Run r = run("decode", odd.toString());
        assertEquals(0, r.exit());
        assertTrue(r.firstErr().contains("link type 147"), r.err());
        assertEquals(1, run("decode", "--strict", odd.toString()).exit());
    }

    // row 19: the table counts go-back-N episodes and says so
    @Test
    void perfCallsItsRetryCountEpisodes() {
        Run r = run("perf", "send", "--size", "4096", "--iters", "300", "--loss", "0.05");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("retry episodes "), r.out());
        assertFalse(r.out().contains("retransmissions"), r.out());
    }

    // row 17: the client chooses a served run, and the server says so
    @Test
    void aServersRunShapingOptionsAreSaidToBeUnused() throws Exception {
        Run r = run("perf", "read", "--server", "--link", "udp:127.0.0.1:" + ExitCodeRuleTest.freePort(), "--size", "4096",
                "--timeout", "1", "--oob-port", Integer.toString(ExitCodeRuleTest.freePort()));
        assertEquals(1, r.exit(), r.err());
        assertEquals("softrnic perf: --server: the client chooses the run; OP --size given here are not used", r.firstErr());
    }

    @Test
    void aServersOneUnusedOptionIsSaidInOneWordingAndOnlyAfterValidation() throws Exception {
        Run r = run("perf", "read", "--server", "--link", "udp:127.0.0.1:" + ExitCodeRuleTest.freePort(),
                "--timeout", "1", "--oob-port", Integer.toString(ExitCodeRuleTest.freePort()));
        assertEquals("softrnic perf: --server: the client chooses the run; OP given here is not used", r.firstErr());
        Run bad = run("perf", "write", "--server", "--size", "4096", "--link", "udp:0.0.0.0");
        assertEquals(2, bad.exit());
        assertEquals(1, bad.err().lines().count(), "a usage error is one line: " + bad.err());
    }

    // row 22: a window scenario refuses a size its window cannot hold
    @Test
    void theWindowScenarioRefusesAWriteLargerThanItsWindow() {
        Run r = run("demo", "mw", "--size", "8192");
        assertEquals(2, r.exit());
        assertTrue(r.firstErr().startsWith("softrnic demo: --size 8192: the mw scenario's window is 4096 bytes"), r.err());
    }

    // row 39: JSON Lines over several files name the file
    @Test
    void decodeJsonOverSeveralFilesNamesTheFile() {
        Run r = run("decode", "--json", ExitCodeRuleTest.SAMPLE.toString(), ExitCodeRuleTest.SAMPLE.toString());
        assertTrue(r.out().lines().allMatch(l -> l.startsWith("{\"file\":\"" + ExitCodeRuleTest.SAMPLE + "\"")), r.out());
    }
}
