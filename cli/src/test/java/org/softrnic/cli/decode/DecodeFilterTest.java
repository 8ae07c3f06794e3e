package org.softrnic.cli.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.cli.Main;

/** decode --frames, --psn and --qp on the rc_pingpong sample, with --count after them. */
class DecodeFilterTest {
    private static final String SAMPLE = "../samples/rc_pingpong.pcap";

    record Run(int exit, String out, String err) {
        List<Integer> frames() {
            return out.lines().filter(l -> l.startsWith("frame ")).map(l -> Integer.parseInt(l.split(" ")[1])).toList();
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Frames are numbered as tshark numbers them: every frame of the file counts, RoCE or not. */
    @Test
    void framesKeepTheFramesTsharkNumbers() {
        assertEquals(List.of(13, 14), run("decode", SAMPLE, "--frames", "13-14").frames());
        assertEquals(List.of(26), run("decode", SAMPLE, "--frames", "26").frames());
        assertEquals(List.of(1378, 1379, 1380), run("decode", SAMPLE, "--frames", "1378-").frames());
    }

    /** PSN 0xf0a4b9 is the first SEND of the first run (frame 26) and the ACK that names it (frame 27). */
    @Test
    void psnKeepsThePacketsThatCarryIt() {
        Run r = run("decode", SAMPLE, "--psn", "0xf0a4b9");
        assertEquals(List.of(26, 27), r.frames(), r.out());
        assertEquals(r.frames(), run("decode", SAMPLE, "--psn", "15770809").frames(), "decimal or hex");
        assertEquals(List.of(26, 27, 30, 31), run("decode", SAMPLE, "--psn", "15770809-15770810").frames());
    }

    /** Each direction of a connection goes to its own QP; the second run's QPs are both 0x12. */
    @Test
    void qpKeepsThePacketsToThatQp() {
        Run r = run("decode", SAMPLE, "--qp", "0x12", "-c", "3");
        assertEquals(List.of(1077, 1078, 1079), r.frames(), r.out());
        assertTrue(r.out().lines().filter(l -> l.startsWith("  bth          opcode=")).allMatch(l -> l.contains("dqpn=0x000012")), r.out());
        assertEquals(List.of(26, 27), run("decode", SAMPLE, "--qp", "17", "--qp", "0x99", "-c", "2").frames(), "repeated");
        assertEquals(List.of(26, 27), run("decode", SAMPLE, "--qp", "0x99,0x11", "-c", "2").frames(), "listed");
    }

    /** --count takes the first N frames that pass, and the line after says how many passed in all. */
    @Test
    void countAppliesAfterTheFilters() throws Exception {
        Run r = run("decode", SAMPLE, "--frames", "1066-", "--qp", "0x12", "-c", "2");
        assertEquals(List.of(1077, 1078), r.frames());
        var frames = org.softrnic.wire.pcap.PcapReader.read(java.nio.file.Path.of(SAMPLE));
        var decoder = new org.softrnic.wire.pcap.CaptureDecoder();
        CaptureFilter f = CaptureFilter.parse("1066-", null, List.of("0x12"));
        long passing = frames.stream().filter(x -> f.keeps(x.number(), decoder.decode(x))).count();
        assertTrue(r.out().endsWith("(the first 2 of " + passing + " frames that pass the filters: --count decodes more)\n"), r.out());
        assertEquals(List.of(13, 14), run("decode", SAMPLE, "--frames", "13-", "-c", "2").frames());
    }

    /** Nothing left is said in a line and is no failure; JSON Lines stay JSON, so there it goes to stderr. */
    @Test
    void whenNothingPassesALineSaysSo() {
        Run text = run("decode", SAMPLE, "--frames", "1-12", "--qp", "0x11");
        assertEquals(0, text.exit());
        assertEquals(SAMPLE + ": no frames pass the filters (--frames 1-12 --qp 0x11)\n", text.out());
        Run json = run("decode", "--json", SAMPLE, "--frames", "2000-");
        assertEquals(0, json.exit());
        assertEquals("", json.out());
        assertEquals(SAMPLE + ": no frames pass the filters (--frames 2000-)", json.err().strip());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--frames|0|softrnic decode: --frames 0: frames are numbered from 1, as tshark and Wireshark number them",
        "--frames|20-10|softrnic decode: --frames 20-10: FROM must not be past TO",
        "--psn|0x1000000|softrnic decode: --psn 0x1000000: a PSN is 24 bits, 0 to 16777215 (0xffffff)",
        "--qp|abc|softrnic decode: --qp must be a QP number, decimal or 0x hex, not 'abc'"})
    void aBadValueIsOneLineAndExitTwo(String option, String value, String message) {
        Run r = run("decode", SAMPLE, option, value);
        assertEquals(Main.EXIT_USAGE, r.exit());
        assertEquals("", r.out());
        assertEquals(message, r.err().strip());
    }
}
