package org.softrnic.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.softrnic.cli.Main;

/** `softrnic ladder` on a real rxe capture: every RoCE packet between the two hosts is an arrow, the rest left out. */
class LadderCommandTest {
    private static final Path SAMPLE = Path.of("../samples/netns_minipeer.pcap");

    @TempDir
    Path dir;

    @Test
    void rxesOwnCaptureBecomesALadder() throws Exception {
        StringWriter out = new StringWriter();
        Path svg = dir.resolve("l.svg");
        int rc = Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "ladder", SAMPLE.toString(), "--svg", svg.toString());
        assertEquals(0, rc);
        String text = out.toString();
        long arrows = text.lines().filter(l -> l.contains("->|") || l.contains("|<-") || l.contains("---X") || l.contains("X---")).count();
        // the sample holds 41 frames: ARP and TCP besides RoCE, whose last frame is truncated (not RoCE)
        long roce = WireStep.ofCapture(org.softrnic.wire.pcap.PcapReader.read(SAMPLE)).size();
        assertEquals(roce, arrows, text);
        assertTrue(text.startsWith("   time (us)  192.0.2.100"), text);
        assertTrue(text.contains("sent again: no ACK came before the timeout"), "the hand-built peer's retransmission (192.0.2.100) in the sample:\n" + text);
        String picture = Files.readString(svg);
        assertEquals(roce, picture.split("class=\"packet\"", -1).length - 1);
    }

    /**
     * --count N draws the first N RoCE packets, as tshark's -c, and says how many there were; 0 is refused. With
     * --every-packet each is an arrow (else the two ACKs alike among them share one).
     */
    @Test
    void countDrawsTheFirstNPacketsAndSaysHowManyThereWere() throws Exception {
        StringWriter out = new StringWriter();
        Path big = Path.of("../samples/rc_pingpong.pcap");
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "ladder", "--no-color", big.toString(), "-c", "20",
                "--every-packet"));
        String text = out.toString();
        long arrows = text.lines().filter(l -> l.contains("->|") || l.contains("|<-") || l.contains("---X") || l.contains("X---")).count();
        assertEquals(20, arrows, text);
        int total = WireStep.ofCapture(org.softrnic.wire.pcap.PcapReader.read(big)).size();
        assertTrue(text.endsWith("(the first 20 of " + total + " RoCE packets: --count draws more)\n"), text);
        StringWriter err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "ladder", big.toString(), "--count", "0"));
        assertTrue(err.toString().contains("--count must be 1 or more, not 0"), err.toString());
    }

    /** What the receiver drops is marked with why: frame 41's ICRC was made wrong on purpose, frame 40 is cut short. */
    @Test
    void packetsTheReceiverDropsAreMarkedWithWhy() {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "ladder", "--no-color", SAMPLE.toString()));
        String text = out.toString();
        assertTrue(text.contains("SEND_ONLY  PSN 680949  IP 108 B ----------------------------X|  REFUSED, ICRC mismatch: expected ebe0a778,"
                + " found 14e0a778: the receiver drops it"), text);
        assertTrue(text.contains("malformed RoCEv2  IP 42 B") && text.contains("malformed (frame ends before a required header): the receiver drops it"),
                text);
    }

    /** The loss scenario's headline names the packet --drop chose and how the run recovered it. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "3|loss: packet 3 (RC_RDMA_WRITE_MIDDLE) of a 6-packet WRITE is lost: B NAKs the gap and A goes back N",
        "4|loss: packet 4 (RC_RDMA_WRITE_MIDDLE) of a 6-packet WRITE is lost: B NAKs the gap and A goes back N",
        "6|loss: packet 6 (RC_RDMA_WRITE_LAST) of a 6-packet WRITE is lost: no later packet shows B the gap, so A's ACK timer fires and A sends again",
        "7|loss: packet 7, B's RC_ACKNOWLEDGE, is lost: A's ACK timer fires, A sends again, and B acknowledges the duplicate"})
    void theLossHeadlineFollowsDrop(String drop, String headline) {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "demo", "loss", "--drop", drop, "--no-color"));
        assertEquals(headline, out.toString().lines().findFirst().orElse(""));
    }

    /** A --drop past the run's last packet would lose nothing: the command line is refused (exit 2), nothing printed. */
    @Test
    void aDropPastTheLastPacketIsRefused() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(2, Main.execute(new PrintWriter(out), new PrintWriter(err), "demo", "loss", "--drop", "9", "--no-color"));
        assertEquals("", out.toString());
        assertEquals("softrnic demo: --drop 9: this run puts only 7 packets on the wire; nothing would be lost", err.toString().strip());
    }

    /** no-color.org: NO_COLOR set to anything but empty turns colour off; so does a dumb terminal. */
    @Test
    void colourFollowsTheNoColorConvention() {
        assertTrue(Main.colorRefused(java.util.Map.of("NO_COLOR", "1")));
        assertTrue(!Main.colorRefused(java.util.Map.of("NO_COLOR", "")), "an empty NO_COLOR does not count");
        assertTrue(Main.colorRefused(java.util.Map.of("TERM", "dumb")));
        assertTrue(!Main.colorRefused(java.util.Map.of("TERM", "xterm-256color")));
    }

    @Test
    void aMissingFileIsOneLineAndExitOne() {
        StringWriter err = new StringWriter();
        assertEquals(Main.EXIT_FAILURE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "ladder", "no/such.pcap"));
        assertTrue(err.toString().contains("no/such.pcap: no such file"), err.toString());
        assertEquals(1, err.toString().lines().count());
    }
}
