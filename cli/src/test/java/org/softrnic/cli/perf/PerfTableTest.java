package org.softrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;

/** perf's table says whose figures it prints: the emulator's, not an RDMA NIC's. */
class PerfTableTest {
    @Test
    void theSoftProvidersTableSaysItsFiguresAreTheEmulators() {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "perf", "write", "--iters", "50"));
        String[] lines = out.toString().split("\n");
        assertTrue(lines[2].startsWith(" Link            : inproc"), out.toString());
        assertEquals(" Figures         : the emulator's, in software on this machine's CPU; not an RDMA NIC's", lines[3]);
    }
}
