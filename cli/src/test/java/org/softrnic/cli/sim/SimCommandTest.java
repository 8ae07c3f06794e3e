package org.softrnic.cli.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** softrnic sim: the JSON shape, the text report, the picture, and refusals that say why. */
class SimCommandTest {
    private static int run(StringWriter out, StringWriter err, String... args) {
        return Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void jsonHasEveryFieldAndTheFiguresAddUp() {
        StringWriter out = new StringWriter();
        assertEquals(0, run(out, new StringWriter(), "sim", "two-flow", "--duration-ms", "20", "--join-ms", "5", "--measure-from-ms", "10", "--json"));
        JsonNode j = JsonMapper.builder().build().readTree(out.toString());
        for (String k : new String[] {"flows", "aggregate_gbps", "drops", "drop_fraction", "queue", "cnp_sent", "cnp_handled", "pfc_pause_frames", "goodput_gbps"}) {
            assertTrue(j.has(k), "no " + k + " in " + out);
        }
        assertEquals(2, j.get("flows").size());
        JsonNode f = j.get("flows").get(0);
        assertEquals(1, f.get("id").asInt());
        assertEquals(20, f.get("windows").size(), "one window a millisecond");
        assertTrue(f.get("windows").get(0).has("t_ms") && f.get("windows").get(0).has("gbps"));
        double sum = j.get("flows").get(0).get("avg_gbps").asDouble() + j.get("flows").get(1).get("avg_gbps").asDouble();
        assertEquals(sum, j.get("goodput_gbps").asDouble(), 1e-9);
        assertTrue(j.get("aggregate_gbps").asDouble() > 9.5, "the link is full");
        assertTrue(j.get("queue").has("mean_bytes") && j.get("queue").has("max_bytes"));
        assertTrue(j.get("cnp_sent").asLong() > 0);
    }

    @Test
    void textAndPicture() throws Exception {
        Path svg = Files.createTempFile("sim", ".svg");
        try {
            StringWriter out = new StringWriter();
            assertEquals(0, run(out, new StringWriter(), "sim", "incast", "--senders", "2", "--cc", "none", "--pfc", "on", "--buffer", "1000000",
                    "--duration-ms", "10", "--svg", svg.toString()));
            String text = out.toString();
            assertTrue(text.startsWith("incast: 2 sender(s) at 10 Gb/s, buffer 1000000 B, pfc on, cc none, seed 1; over [5, 10] ms:\n"), text);
            assertTrue(text.contains("  drops 0 (0.0 % of arrivals)"), text);
            String picture = Files.readString(svg);
            assertTrue(picture.startsWith("<svg") && picture.contains("bottleneck queue, KB") && picture.contains("flow 2:"), picture);
        } finally {
            Files.deleteIfExists(svg);
        }
    }

    @Test
    void badArgumentsAreRefusedWithTheReason() {
        StringWriter err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, run(new StringWriter(), err, "sim", "fan-out"));
        assertTrue(err.toString().contains("SCENARIO must be incast or two-flow"), err.toString());
        err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, run(new StringWriter(), err, "sim", "incast", "--ecn", "40000,160000"));
        assertTrue(err.toString().contains("--ecn takes KMIN,KMAX,PMAX"), err.toString());
        err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, run(new StringWriter(), err, "sim", "incast", "--ecn", "160000,40000,0.2"));
        assertTrue(err.toString().contains("Kmin <= Kmax"), err.toString());
        err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, run(new StringWriter(), err, "sim", "incast", "--measure-from-ms", "30", "--duration-ms", "20"));
        assertTrue(err.toString().contains("the measurement must start in [0, duration)"), err.toString());
        err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, run(new StringWriter(), err, "sim", "incast", "--topology", "/nonexistent.yaml"));
        assertTrue(err.toString().contains("cannot be read"), err.toString());
    }
}
