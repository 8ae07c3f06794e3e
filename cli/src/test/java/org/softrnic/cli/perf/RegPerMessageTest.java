package org.softrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/** perf --reg-per-message, with and without --mr-cache and a cost: every byte still arrives, and the header says how. */
class RegPerMessageTest {
    private static String run(int expected, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(expected, Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), args), out + "\n" + err);
        return out + err.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"write", "read"})
    void registeringPerMessageMovesEveryByte(String op) {
        String plain = run(0, "perf", op, "--size", "4096", "--iters", "300", "--reg-per-message", "--verify");
        assertTrue(plain.contains(" Registration    : each message's buffer, at its post, deregistered at its completion"), plain);
        String cached = run(0, "perf", op, "--size", "4096", "--iters", "300", "--reg-per-message", "--mr-cache", "--reg-cost", "1000,10",
                "--verify");
        assertTrue(cached.contains(" Registration    : each message's buffer, from a registration cache; reg_cost 1000 ns a call, 10 ns a page"),
                cached);
    }

    @Test
    void theCacheCachesWhatPerMessageRegistrationMakes() {
        assertTrue(run(Main.EXIT_USAGE, "perf", "write", "--mr-cache").contains("--mr-cache caches the registrations --reg-per-message makes"));
        assertTrue(run(Main.EXIT_USAGE, "perf", "write", "--reg-cost", "5").contains("--reg-cost takes CALL_NS,PAGE_NS"));
        assertTrue(run(Main.EXIT_USAGE, "perf", "write", "--sweep", "--reg-per-message").contains("not with --sweep"));
    }
}
