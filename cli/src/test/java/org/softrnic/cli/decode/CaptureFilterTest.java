package org.softrnic.cli.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.cli.UserError;

/** The values --frames, --psn and --qp take, and what each keeps. */
class CaptureFilterTest {
    @Test
    void framesTakeNFromToAndAnOpenEnd() {
        CaptureFilter one = CaptureFilter.parse("7", null, null);
        assertTrue(one.keepsNumber(7));
        assertFalse(one.keepsNumber(6) || one.keepsNumber(8));
        CaptureFilter range = CaptureFilter.parse("13-25", null, null);
        assertTrue(range.keepsNumber(13) && range.keepsNumber(25));
        assertFalse(range.keepsNumber(12) || range.keepsNumber(26));
        CaptureFilter open = CaptureFilter.parse("1066-", null, null);
        assertTrue(open.keepsNumber(1066) && open.keepsNumber(Integer.MAX_VALUE));
        assertFalse(open.keepsNumber(1065));
        assertTrue(open.byNumberOnly());
        assertEquals("--frames 1066-", open.given());
    }

    @Test
    void psnsTakeDecimalOrHexAndARangeThatWrapsGoesThrough2To24() {
        CaptureFilter.Range r = CaptureFilter.parse(null, "0xf0a4b9-15770812", null).psns();
        assertEquals(new CaptureFilter.Range(15770809, 15770812), r);
        CaptureFilter.Range wrap = CaptureFilter.parse(null, "16777214-1", null).psns();
        assertTrue(wrap.has(16777215) && wrap.has(0) && wrap.has(1) && wrap.has(16777214));
        assertFalse(wrap.has(2) || wrap.has(16777213));
        assertEquals(new CaptureFilter.Range(5, 5), CaptureFilter.parse(null, "5", null).psns());
    }

    @Test
    void qpsAreRepeatedOrListedAndGivenBack() {
        CaptureFilter f = CaptureFilter.parse(null, null, List.of("0x11", "18"));
        assertEquals(java.util.Set.of(17, 18), f.qps());
        assertEquals("--qp 0x11,18", f.given());
        assertFalse(f.byNumberOnly());
        assertTrue(f.any());
        assertFalse(CaptureFilter.ALL.any());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--frames|0|--frames 0: frames are numbered from 1, as tshark and Wireshark number them",
        "--frames|9-3|--frames 9-3: FROM must not be past TO",
        "--frames|x|--frames must be N, FROM-TO or FROM- (frame numbers from 1, as tshark and Wireshark count them), not 'x'",
        "--frames|-5|--frames must be N, FROM-TO or FROM- (frame numbers from 1, as tshark and Wireshark count them), not '-5'",
        "--psn|16777216|--psn 16777216: a PSN is 24 bits, 0 to 16777215 (0xffffff)",
        "--psn|1-2-3|--psn must be N or FROM-TO, each decimal or 0x hex, not '1-2-3'",
        "--psn|0xg|--psn must be N or FROM-TO, each decimal or 0x hex, not '0xg'",
        "--qp|0x1000000|--qp 0x1000000: a QP number is 24 bits, 0 to 16777215 (0xffffff)",
        "--qp|q|--qp must be a QP number, decimal or 0x hex, not 'q'"})
    void aBadValueSaysWhatTheOptionTakes(String option, String value, String message) {
        UserError e = assertThrows(UserError.class, () -> CaptureFilter.parse(option.equals("--frames") ? value : null,
                option.equals("--psn") ? value : null, option.equals("--qp") ? List.of(value) : null));
        assertEquals(message, e.getMessage());
    }

    /** A PSN or QP filter keeps only packets with a BTH: ARP, TCP and a RoCE frame whose headers do not parse are left out. */
    @Test
    void psnAndQpFiltersLeaveOutFramesWithoutABth() throws Exception {
        var frames = org.softrnic.wire.pcap.PcapReader.read(java.nio.file.Path.of("../samples/rc_pingpong.pcap"));
        var decoder = new org.softrnic.wire.pcap.CaptureDecoder();
        CaptureFilter anyPsn = CaptureFilter.parse(null, "0-16777215", null);
        long kept = frames.stream().filter(f -> anyPsn.keeps(f.number(), decoder.decode(f))).count();
        long roce = frames.stream().filter(f -> decoder.decode(f).packet() != null).count();
        assertEquals(roce, kept);
        assertFalse(anyPsn.keeps(13, decoder.decode(frames.get(12))), "frame 13 is ARP");
    }
}
