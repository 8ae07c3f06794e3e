package org.softrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.cli.Main;

/** perf --sweep is perftest's -a: every size from 2 B to 8 MiB, a row each, on each link given, and a picture of it. */
class PerfSweepTest {
    private static final Pattern ROW = Pattern.compile(" (\\d+) +\\d+ +[0-9.]+ +[0-9.]+ +[0-9.]+ *");

    @Test
    void everySizeFrom2BTo8MiBOnEachLinkAndALinePerLinkInThePicture(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("sweep.svg");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(err), "perf", "write", "--sweep", "--iters", "8",
                "--mtu", "4096", "--link", "inproc,udp:127.0.0.1:24891", "--svg", svg.toString()), err.toString());
        String text = out.toString();
        assertTrue(text.contains(" Link            : inproc\n") && text.contains(" Link            : udp:127.0.0.1:24891\n"), text);
        assertTrue(text.contains("not an RDMA NIC's"), text);
        List<Integer> sizes = text.lines().map(ROW::matcher).filter(java.util.regex.Matcher::matches)
                .map(m -> Integer.parseInt(m.group(1))).toList();
        List<Integer> expected = PerfSweep.sizes();
        assertEquals(23, expected.size());
        assertEquals(2, expected.getFirst());
        assertEquals(8 << 20, expected.getLast());
        assertEquals(java.util.stream.Stream.concat(expected.stream(), expected.stream()).toList(), sizes, text);
        String picture = Files.readString(svg);
        assertEquals(4, picture.split("<polyline ", -1).length - 1, "two charts, two links each"); // bandwidth and rate
        assertTrue(picture.contains(">inproc<") && picture.contains(">udp:127.0.0.1:24891<"), picture);
    }

    @Test
    void jsonGivesALinePerRun() {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "perf", "read", "--sweep", "--iters",
                "4", "--json"));
        assertEquals(23, out.toString().lines().filter(l -> l.startsWith("{") && l.contains("\"op\" : \"READ\"")).count(), out.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "perf atomic --sweep|--sweep: atomics move 8 bytes only",
            "perf write --sweep --size 64|--sweep runs every size from 2 B to 8 MiB; leave out --size",
            "perf write --svg x.svg|--svg draws a --sweep",
            "perf write --link inproc,udp|--link inproc,udp",
            "perf write --sweep --connect 127.0.0.2 --link udp:127.0.0.1|not with --server or --connect"})
    void whatASweepCannotDoIsRefusedBeforeAnythingRuns(String line, String message) {
        StringWriter err = new StringWriter();
        assertEquals(2, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), line.split(" ")), err.toString());
        assertTrue(err.toString().contains(message), err.toString());
    }
}
