package org.softrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command has --help with examples, and a wrong option is one line on stderr and exit 2. */
class HelpTest {
    @Test
    void everyCommandHelpsWithExamples() {
        for (String name : new CommandLine(new Main()).getSubcommands().keySet()) {
            if (name.equals("help")) continue; // picocli's own
            StringWriter out = new StringWriter();
            assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), name, "--help"), name);
            assertTrue(out.toString().contains("Examples:"), name + " --help has no examples:\n" + out);
        }
    }

    @Test
    void aBadOptionIsOneLineAndExitTwo() {
        for (String name : new String[] {"demo", "ladder", "explain", "decode", "perf", "pingpong", "perftest"}) {
            StringWriter err = new StringWriter();
            assertEquals(Main.EXIT_USAGE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), name, "--no-such-option"), name);
            assertEquals(1, err.toString().lines().count(), name + ": " + err);
        }
    }

    @Test
    void completionIsGenerated() {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "generate-completion"));
        assertTrue(out.toString().contains("demo") && out.toString().contains("ladder") && out.toString().contains("explain"));
    }
}
