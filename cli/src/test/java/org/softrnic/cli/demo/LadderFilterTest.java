package org.softrnic.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.cli.Main;

/** ladder --frames, --psn and --qp on the rc_pingpong sample, with --count after them. */
class LadderFilterTest {
    private static final String SAMPLE = "../samples/rc_pingpong.pcap";

    record Run(int exit, String out, String err) {
        /** The arrows' labels, in order. */
        List<String> arrows() {
            return out.lines().filter(l -> l.contains("->|") || l.contains("|<-") || l.contains("-X|") || l.contains("|X-"))
                    .map(l -> l.substring(l.indexOf('|') + 1, l.lastIndexOf('|')).replaceAll("^[<X-]+ | [>X-]+$", "").strip())
                    .toList();
        }
    }

    static Run ladder(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 3];
        all[0] = "ladder";
        all[1] = "--no-color";
        all[2] = SAMPLE;
        System.arraycopy(args, 0, all, 3, args.length);
        int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), all);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Frames 1077-1081: the second run's first SEND of 4 packets and its ACK; ARP and TCP frames count, but are not drawn. */
    @Test
    void framesDrawTheRocePacketsInTheRange() {
        Run r = ladder("--frames", "1077-1081", "--every-packet");
        assertEquals(List.of("SEND_FIRST  PSN 10808766  IP 1068 B", "SEND_MIDDLE  PSN 10808767  IP 1068 B",
                "SEND_MIDDLE  PSN 10808768  IP 1068 B", "SEND_LAST  PSN 10808769  IP 1068 B", "ACKNOWLEDGE  PSN 10808769  IP 48 B"),
                r.arrows(), r.out());
        assertEquals(ladder("--frames", "1066-1081", "--every-packet").arrows(), r.arrows(), "frames 1066-1076 are TCP");
    }

    /** PSN 15770809: the first SEND and the ACK that names it. */
    @Test
    void psnDrawsThePacketsThatCarryIt() {
        Run r = ladder("--psn", "0xf0a4b9");
        assertEquals(List.of("SEND_ONLY  PSN 15770809  IP 108 B", "ACKNOWLEDGE  PSN 15770809  IP 48 B"), r.arrows(), r.out());
    }

    /** The first run's QPs are both 0x11, the second's both 0x12. */
    @Test
    void qpDrawsTheConnectionsToThatQp() {
        Run second = ladder("--qp", "0x12", "-c", "200");
        assertTrue(second.arrows().getFirst().startsWith("SEND_FIRST  PSN 10808766"), second.out());
        assertTrue(second.arrows().stream().noneMatch(a -> a.contains("PSN 1577") || a.contains("PSN 1311")), second.out());
        Run first = ladder("--qp", "17", "-c", "4");
        assertEquals(List.of("SEND_ONLY  PSN 15770809  IP 108 B", "ACKNOWLEDGE  PSN 15770809  IP 48 B",
                "SEND_ONLY  PSN 13115787  IP 108 B", "ACKNOWLEDGE  PSN 13115787  IP 48 B"), first.arrows());
    }

    @Test
    void countAppliesAfterTheFilters() throws Exception {
        Run r = ladder("--qp", "0x12", "-c", "4", "--every-packet");
        assertEquals(4, r.arrows().size(), r.out());
        assertTrue(r.arrows().getLast().startsWith("SEND_LAST  PSN 10808769"), r.out());
        var frames = org.softrnic.wire.pcap.PcapReader.read(java.nio.file.Path.of(SAMPLE));
        int passing = WireStep.ofCapture(frames, org.softrnic.cli.decode.CaptureFilter.parse(null, null, List.of("0x12"))).size();
        assertTrue(r.out().endsWith("(the first 4 of " + passing + " RoCE packets that pass the filters: --count draws more)\n"), r.out());
    }

    /** Frame 33 sends PSN 13115788 a second time: it is marked so though its first sending (32) is filtered out. */
    @Test
    void aPacketSentAgainIsMarkedSoWhenItsFirstSendingIsFilteredOut() {
        Run r = ladder("--frames", "33");
        assertEquals(List.of("SEND_ONLY  PSN 13115788  IP 108 B"), r.arrows());
        assertTrue(r.out().contains("|  sent again: no ACK came before the timeout: a SEND in one packet"), r.out());
    }

    @Test
    void whenNothingPassesALineSaysSo() {
        Run r = ladder("--frames", "1-25");
        assertEquals(0, r.exit());
        assertEquals(SAMPLE + ": no RoCEv2 packets pass the filters (--frames 1-25)\n", r.out());
        assertFalse(ladder("--qp", "0x13").out().contains("|"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--frames|x|softrnic ladder: --frames must be N, FROM-TO or FROM- (frame numbers from 1, as tshark and Wireshark count them), not 'x'",
        "--psn|1-0x1ffffff|softrnic ladder: --psn 1-0x1ffffff: a PSN is 24 bits, 0 to 16777215 (0xffffff)",
        "--qp|-1|softrnic ladder: --qp must be a QP number, decimal or 0x hex, not '-1'"})
    void aBadValueIsOneLineAndExitTwo(String option, String value, String message) {
        Run r = ladder(option + "=" + value);
        assertEquals(Main.EXIT_USAGE, r.exit(), r.out());
        assertEquals("", r.out());
        assertEquals(message, r.err().strip());
    }
}
