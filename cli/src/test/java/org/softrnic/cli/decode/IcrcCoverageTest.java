package org.softrnic.cli.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/** decode --explain on the sample's damaged frame draws the bytes the ICRC covers and the masked ones. */
class IcrcCoverageTest {
    @Test
    void aMismatchShowsCoveredAndMaskedBytes() {
        StringWriter out = new StringWriter();
        Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "decode", "--explain", "../samples/netns_minipeer.pcap");
        String text = out.toString();
        int at = text.indexOf("icrc coverage");
        assertTrue(at > 0, "frame 41's mismatch is drawn");
        assertEquals(1, text.split("icrc coverage", -1).length - 1, "only the mismatching frame is drawn");
        String rows = text.substring(at, text.indexOf("frame 42", at));
        // IPv4: TOS (byte 1), TTL (8) and checksum (10, 11) masked; UDP checksum (26, 27); BTH byte 4 (32)
        assertTrue(rows.contains("0000  45 [00] 00  6c  42  42  40  00 [40] 11 [73][d9]"), rows);
        assertTrue(rows.contains("0010  c0  00  02  01  c3  4f  12  b7  00  58 [00][00]"), rows);
        assertTrue(rows.contains("0020 [00] 00  00  11"), rows);
        assertTrue(rows.contains("<14><e0><a7><78>"), "the ICRC's own bytes: " + rows);
    }
}
