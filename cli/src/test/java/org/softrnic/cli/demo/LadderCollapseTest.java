package org.softrnic.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.softrnic.cli.Main;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.packet.RocePacket;

/**
 * A capture's ladder draws a run of packets alike as one row with its count and PSN range, says each explanation
 * the first time only, and ends with a legend of the terms it showed; --every-packet draws each packet, and the
 * demo's ladder stays as it was.
 */
class LadderCollapseTest {
    private static final String SAMPLE = "../samples/rc_pingpong.pcap";
    /** perftest's ib_write_bw against rxe: runs of WRITE_ONLY and of ACKs, whose va and MSN count up. */
    private static final String WRITE_BW = "../wire-rocev2/src/test/resources/captures/write_bw.pcap";

    @TempDir
    Path dir;

    static String ladder(String... args) {
        StringWriter out = new StringWriter();
        String[] all = new String[args.length + 2];
        all[0] = "ladder";
        all[1] = "--no-color";
        System.arraycopy(args, 0, all, 2, args.length);
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), all));
        return out.toString();
    }

    static List<String> arrows(String text) {
        return new LadderFilterTest.Run(0, text, "").arrows();
    }

    static List<String> legend(String text) {
        int at = text.indexOf("\nlegend (the terms above):\n");
        if (at < 0) return List.of();
        return text.substring(at).lines().skip(2).takeWhile(l -> l.startsWith("  ")).map(l -> l.substring(2).split("  ")[0]).toList();
    }

    @Test
    void aRunOfPacketsAlikeIsOneRowWithItsCountAndPsnRange() {
        String text = ladder(SAMPLE, "--frames", "1077-1081");
        assertEquals(List.of("SEND_FIRST  PSN 10808766  IP 1068 B", "SEND_MIDDLE \u00d72  PSN 10808767-10808768  IP 1068 B",
                "SEND_LAST  PSN 10808769  IP 1068 B", "ACKNOWLEDGE  PSN 10808769  IP 48 B"), arrows(text));
        // the columns stay where they were: every row of the ladder has its lanes at the same places
        for (String line : text.lines().takeWhile(l -> !l.isEmpty()).skip(1).toList()) {
            assertEquals(14, line.indexOf('|'), line);
            assertEquals(14 + LadderText.LANE + 1, line.indexOf('|', 15), line);
        }
        // the same PSN twice (an ACK sent again for a duplicate): the count says so
        assertTrue(ladder(SAMPLE, "-c", "20").contains("|---- ACKNOWLEDGE \u00d72  PSN 13115788  IP 48 B ----"), "frames 34-35");
    }

    /** va and MSN count up along a run: the row shows their first and last, and an ACK's note the last PSN. */
    @Test
    void fieldsThatCountUpShowTheirFirstAndLast() {
        String text = ladder(WRITE_BW, "-c", "44");
        assertEquals("RDMA_WRITE_ONLY \u00d722  PSN 12889028-12889049  IP 124 B", arrows(text).get(0));
        assertTrue(text.contains("|   RETH va=0x5648ef5df000-0x5648ef5df540 rkey=0x2c0 len=64 "), text);
        assertEquals("ACKNOWLEDGE \u00d722  PSN 12889028-12889049  IP 48 B", arrows(text).get(1));
        assertTrue(text.contains(" AETH ACK credits=invalid MSN=1-22   |"), text);
        assertTrue(text.contains("ACK: everything up to PSN 12889049 arrived; 192.0.2.2 completes what it covers"), text);
    }

    @Test
    void everyPacketDrawsEachPacketOnItsOwnRow() {
        String text = ladder(SAMPLE, "--frames", "1077-1081", "--every-packet");
        assertEquals(5, arrows(text).size(), text);
        assertFalse(text.contains("\u00d7"), text);
        Path svg = dir.resolve("every.svg");
        ladder(SAMPLE, "--frames", "1077-1081", "--every-packet", "--svg", svg.toString());
        assertEquals(5, count(read(svg), "class=\"packet\""));
    }

    /** The SVG draws the rows the text draws: a run is one arrow labelled with its count. */
    @Test
    void theSvgDrawsTheSameRows() {
        Path svg = dir.resolve("rows.svg");
        ladder(SAMPLE, "--frames", "1077-1081", "--svg", svg.toString());
        String picture = read(svg);
        assertEquals(4, count(picture, "class=\"packet\""));
        assertTrue(picture.contains(">SEND_MIDDLE \u00d72  PSN 10808767-10808768  1068 B</text>"), picture);
    }

    /**
     * What a kind of packet does is said once (per direction, since the sentence names the receiver); what happened
     * to one (sent again) is said on every row it happened to.
     */
    @Test
    void eachExplanationIsSaidTheFirstTimeOnly() {
        String text = ladder(SAMPLE);
        assertEquals(1, count(text, "a SEND in one packet: it uses up one receive at 192.0.2.1"), "first run, one way");
        assertEquals(1, count(text, "a SEND in one packet: it uses up one receive at 192.0.2.2"), "first run, the other way");
        assertEquals(1, count(text, "ACK: everything up to PSN 15770809 arrived; 192.0.2.2 completes what it covers"));
        assertEquals(2, count(text, "ACK: everything up to PSN "), "once each way");
        assertEquals(2, count(text, "middle packet of the SEND: one MTU of data"), "the second run's 4-packet SENDs, each way");
        assertTrue(count(text, "sent again: no ACK came before the timeout") > 2, text);
        String every = ladder(SAMPLE, "--every-packet", "-c", "8");
        assertEquals(1, count(every, "a SEND in one packet: it uses up one receive at 192.0.2.1"), "--every-packet draws rows, not sentences");
    }

    @Test
    void theLegendExplainsOnlyTheTermsOnTheScreen() throws Exception {
        assertEquals(List.of("time (us)", "PSN", "IP n B", "AckReq", "AETH", "credits=invalid", "MSN"), legend(ladder(SAMPLE, "-c", "4")));
        String text = ladder(SAMPLE, "-c", "20");
        assertTrue(legend(text).contains("\u00d7N"), text);
        assertTrue(text.contains("\n  credits=invalid  AETH credit code 0x1F: the responder does not advertise credits (end-to-end"
                + " flow control off), as rxe always does\n"), text);
        assertTrue(text.endsWith("(the first 20 of 1338 RoCE packets: --count draws more)\n"), "the count's line stays last");
        Path cm = dir.resolve("connect.pcap");
        assertEquals(0, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "demo", "connect",
                "--no-color", "--pcap", cm.toString()));
        List<String> connect = legend(ladder(cm.toString()));
        for (String t : List.of("RR/ID", "mtu_code", "CM", "QP1", "MAD", "DETH", "tid", "starting_psn", "RETH", "rkey")) {
            assertTrue(connect.contains(t), t + ": " + connect);
        }
        assertFalse(connect.contains("\u00d7N") || connect.contains("X") || connect.contains("ICRC"), connect.toString());
    }

    /** softrnic demo draws every packet with its whole note and no legend, as its golden files hold. */
    @Test
    void theDemoLadderIsNotCollapsed() {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "demo", "multi-packet", "--no-color"));
        String text = out.toString();
        assertFalse(text.contains("\u00d7") || text.contains("legend"), text);
        assertTrue(count(text, "middle packet of the WRITE") > 1, text);
    }

    /** A run too long for its PSN range and size to fit in the arrow keeps the arrow in its lane: the size goes under it. */
    @Test
    void aLongRunsSizeGoesUnderTheArrow() {
        List<WireStep> steps = new ArrayList<>();
        for (int i = 0; i < 3000; i++) steps.add(middle(16_000_000 + i, i));
        List<LadderRow> rows = LadderRow.of(steps, true);
        assertEquals(1, rows.size());
        StringWriter out = new StringWriter();
        new LadderText(new PrintWriter(out), false, "10.0.0.2").rows(rows);
        List<String> lines = out.toString().lines().toList();
        assertEquals("       0.000  |<----- RDMA_READ_RESPONSE_MIDDLE \u00d73000  PSN 16000000-16002999 ----|  middle packet of the READ's answer",
                lines.get(0));
        assertEquals("              |" + " ".repeat(LadderText.LANE - 17) + "IP 1068 B each   |", lines.get(1));
    }

    private static WireStep middle(int psn, int i) {
        Bth bth = new Bth(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, false, false, 0, 0, 0xffff, false, false, 0x11, false, psn);
        RocePacket p = new RocePacket(bth, null, null, null, null, null, null, null, null, null, new byte[1024], 0);
        return new WireStep(i * 1000L, "10.0.0.1", "10.0.0.2", new byte[1068], p, false, null, null);
    }

    private static int count(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
