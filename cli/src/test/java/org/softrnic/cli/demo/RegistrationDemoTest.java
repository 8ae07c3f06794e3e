package org.softrnic.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/**
 * demo registration's table: three rows, and registering per message costing at least the model's charge a message
 * (16 µs and one page, half that again to deregister); explain odp names what the odp demo shows.
 */
class RegistrationDemoTest {
    private static String run(String... args) {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out, true), new PrintWriter(new StringWriter()), args));
        return out.toString();
    }

    @Test
    void perMessageRegistrationPaysTheModelsChargeAndTheCacheDoesNot() {
        String text = run("demo", "registration", "--size", "512");
        double once = microseconds(text, "once, before the loop");
        double perMessage = microseconds(text, "per message");
        double cached = microseconds(text, "through an MrCache");
        assertTrue(perMessage >= 16 + 0.246 + 8 + 0.123, "the model's charge a message: " + text);
        assertTrue(perMessage > 3 * Math.max(once, cached), "the cache pays once: " + text);
    }

    private static double microseconds(String text, String row) {
        String line = text.lines().filter(l -> l.trim().startsWith(row)).findFirst().orElseThrow(() -> new AssertionError(row + " in " + text));
        String[] cells = line.substring(48).trim().split("\\s+");
        return Double.parseDouble(cells[0]);
    }

    @Test
    void aTableTakesNoLadderOptions() {
        StringWriter err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err, true), "demo", "registration",
                "--pcap", "x.pcap"));
        assertTrue(err.toString().contains("not a ladder"), err.toString());
    }

    @Test
    void explainOdpSaysWhatTheLadderShows() {
        String text = run("explain", "odp");
        for (String s : new String[] {"RNR NAK", "page_faults", "invalidat", "IBV_WC_REM_ACCESS_ERR", "softrnic demo odp"}) {
            assertTrue(text.contains(s), s + " in " + text);
        }
        assertTrue(run("demo", "--list").contains("registration"));
    }
}
