package org.softrnic.cli.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/** decode's text ends with a legend of the layers and abbreviations it showed, and of nothing else; JSON has none. */
class DecodeLegendTest {
    private static final String SAMPLE = "../samples/rc_pingpong.pcap";

    static String decode(String... args) {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), args));
        return out.toString();
    }

    /** The terms of the legend, by the first word of each line after its heading. */
    static List<String> legend(String text) {
        int at = text.indexOf("\nlegend (the terms above):\n");
        assertTrue(at >= 0, text);
        return text.substring(at).lines().skip(2).takeWhile(l -> l.startsWith("  ")).map(l -> l.strip().split(" ")[0]).toList();
    }

    @Test
    void arpAloneExplainsArpAndNothingOfRoce() {
        assertEquals(List.of("arp"), legend(decode("decode", SAMPLE, "--frames", "13-14")));
    }

    @Test
    void aRocePacketExplainsItsHeadersAndTheirAbbreviations() {
        String text = decode("decode", SAMPLE, "--frames", "27");
        List<String> terms = legend(text);
        for (String t : List.of("eth", "ip", "udp", "bth", "aeth", "dqpn", "psn", "msn", "syndrome", "icrc", "fecn", "tver")) {
            assertTrue(terms.contains(t), t + " is on the screen: " + terms);
        }
        for (String t : List.of("arp", "tcp", "oob", "reth", "deth", "immdt", "va", "rkey")) {
            assertFalse(terms.contains(t), t + " is not on the screen: " + terms);
        }
        assertTrue(text.contains("\n  dqpn         destination QP number at the receiver\n"), text);
        assertTrue(text.contains("\n  syndrome     AETH syndrome: bit 7 reserved (0); bits 6-5: 00 ACK"), text);
        assertFalse(legend(decode("decode", SAMPLE, "--frames", "26")).contains("aeth"), "a SEND has no AETH");
    }

    @Test
    void theExchangeIsExplainedOnceForAllItsFields() {
        List<String> terms = legend(decode("decode", SAMPLE, "--frames", "15-22"));
        assertEquals(List.of("tcp", "oob"), terms);
    }

    /** With --explain every field has its meaning beside it: the legend spells out the layer names only. */
    @Test
    void withExplainTheLegendNamesTheLayers() {
        List<String> terms = legend(decode("decode", "--explain", SAMPLE, "--frames", "27"));
        assertEquals(List.of("eth", "ip", "udp", "bth", "aeth", "payload_len", "icrc"), terms);
    }

    @Test
    void jsonHasNoLegendAndTheCountLineStaysLast() {
        assertFalse(decode("decode", "--json", SAMPLE, "-c", "30").contains("legend"));
        String text = decode("decode", SAMPLE, "-c", "30");
        assertTrue(text.endsWith("(the first 30 of 1380 frames: --count decodes more)\n"), text);
        assertTrue(text.contains("\nlegend (the terms above):\n"), text);
    }
}
