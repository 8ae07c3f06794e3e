package org.softrnic.cli.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/** The contract on the soft provider (the rxe guest runs it on ibverbs: RxeIbverbsTest), and its refusals. */
class CheckCommandTest {
    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new String[] {String.valueOf(rc), out.toString(), err.toString()};
    }

    @Test
    void everyScenarioPassesOnTheSoftProvider() {
        String[] r = run("check");
        assertEquals("0", r[0], r[1] + r[2]);
        int n = Contract.SCENARIOS.size();
        assertTrue(r[1].contains(n + " of " + n + " scenarios passed on soft"), r[1]);
        for (String name : Contract.SCENARIOS.keySet()) assertTrue(r[1].contains("ok   " + name), name + " in\n" + r[1]);
    }

    @Test
    void anUnknownScenarioIsAUsageError() {
        String[] r = run("check", "rc-teleport");
        assertEquals(String.valueOf(Main.EXIT_USAGE), r[0]);
        assertTrue(r[2].contains("no scenario 'rc-teleport'; there are rc-"), r[2]);
    }

    /** This machine's kernel has no RDMA subsystem (CI's neither); the error says so in plain words. */
    @Test
    void withoutAnRdmaSubsystemIbverbsSaysWhatIsMissing() {
        assumeFalse(Files.exists(Path.of("/sys/class/infiniband_verbs")), "this kernel has RDMA devices");
        String[] r = run("check", "--provider", "ibverbs");
        // the environment's, not the command line's: exit 1
        assertEquals(String.valueOf(Main.EXIT_FAILURE), r[0]);
        assertTrue(r[2].contains("no RDMA subsystem") && r[2].contains("ENOSYS"), r[2]);
        String[] d = run("devices");
        assertEquals("0", d[0]);
        assertTrue(d[1].contains("softrnic0") && d[1].contains("ibverbs: ibv_get_device_list: this kernel has no RDMA subsystem"), d[1]);
        String[] p = run("perftest", "write_lat", "--provider", "ibverbs");
        assertEquals(String.valueOf(Main.EXIT_FAILURE), p[0]);
        assertTrue(p[2].contains("no RDMA subsystem"), p[2]);
    }
}
