package org.softrnic.cli.regcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/** softrnic regcost: a row a size and the cache's hit; with --reg-cost the soft RNIC charges what it is told. */
class RegcostCommandTest {
    @Test
    void aRowASizeAndTheChargedCost() {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out, true), new PrintWriter(new StringWriter()), "regcost", "--max-size", "16384",
                "--iters", "3", "--reg-cost", "300000,0"));
        String text = out.toString();
        assertTrue(text.startsWith("ibv_reg_mr and ibv_dereg_mr on softrnic0 (soft, reg_cost 300000,0), the median of 3 calls each:"), text);
        for (String size : new String[] {"4 KiB", "8 KiB", "16 KiB"}) assertTrue(text.contains(size), text);
        String row = text.lines().filter(l -> l.trim().startsWith("4 KiB")).findFirst().orElseThrow();
        assertTrue(Double.parseDouble(row.trim().split("\\s+")[2]) >= 300, "300 us charged per call: " + row);
        assertTrue(text.contains("a registration cache's hit"), text);
    }

    @Test
    void badArgumentsSayWhy() {
        StringWriter err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err, true), "regcost", "--max-size", "5000"));
        assertTrue(err.toString().contains("--max-size must be a power of two"), err.toString());
        err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err, true), "regcost", "--reg-cost", "1,2,3"));
        assertTrue(err.toString().contains("--reg-cost takes CALL_NS,PAGE_NS"), err.toString());
    }
}
