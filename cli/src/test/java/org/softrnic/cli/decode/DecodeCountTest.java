package org.softrnic.cli.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/** decode --count N decodes the first N frames, as tshark's -c, and says how many there were. */
class DecodeCountTest {
    private static final Path SAMPLE = Path.of("../samples/rc_pingpong.pcap");

    @Test
    void countDecodesTheFirstNFramesAndSaysHowManyThereWere() throws Exception {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "decode", SAMPLE.toString(), "-c", "5"));
        String text = out.toString();
        assertEquals(5, text.lines().filter(l -> l.startsWith("frame ")).count(), text);
        int total = org.softrnic.wire.pcap.PcapReader.read(SAMPLE).size();
        assertTrue(text.endsWith("(the first 5 of " + total + " frames: --count decodes more)\n"), text);
        StringWriter json = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(json), new PrintWriter(new StringWriter()), "decode", "--json", SAMPLE.toString(), "--count", "3"));
        assertEquals(3, json.toString().lines().count(), "JSON Lines: one object a frame, nothing else");
        StringWriter err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "decode", SAMPLE.toString(), "--count", "0"));
        assertTrue(err.toString().contains("--count must be 1 or more, not 0"), err.toString());
    }
}
