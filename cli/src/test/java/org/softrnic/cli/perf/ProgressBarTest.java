package org.softrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    @Test
    void rendersFillPercentAndCountsAtAFixedWidth() {
        String quarter = ProgressBar.render(5_000, 20_000, 3_000_000_000L);
        assertEquals("[##########                              ]  25%   5000/20000 iterations    3 s", quarter);
        assertEquals(quarter.length(), ProgressBar.render(20_000, 20_000, 3_000_000_000L).length());
        assertTrue(ProgressBar.render(20_000, 20_000, 0).startsWith("[" + "#".repeat(40) + "] 100%"));
        assertTrue(ProgressBar.render(-3, 10, 0).contains("  0%"), "clamped below");
        assertTrue(ProgressBar.render(99, 10, 0).contains("100%"), "clamped above");
    }

    @Test
    void staysHiddenForTheFirstSecondAndErasesItselfAtTheEnd() {
        StringWriter sink = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(sink));
        bar.update(10, 100, 500_000_000L);
        bar.finish();
        assertEquals("", sink.toString(), "a short run prints nothing");

        bar.update(50, 100, 1_500_000_000L);
        String drawn = sink.toString();
        assertTrue(drawn.startsWith("\r[" + "#".repeat(20)), drawn);
        bar.finish();
        String erased = sink.toString().substring(drawn.length());
        assertEquals("\r" + " ".repeat(drawn.length() - 1) + "\r", erased);
    }
}
