package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WorkCompletion;

/**
 * The virtual fabric reuses the arrays of packets that have arrived (not while it keeps a trace, which holds
 * them), and that changes nothing a run can see: with loss, duplicates, reordering and jitter, a run without
 * a trace completes the same requests with the same statuses, counts the same, and leaves the same bytes as
 * the same seed with a trace.
 */
class SimFabricPoolTest {
    @Test
    void reusingThePacketsArraysChangesNothing() {
        String traced = run(true);
        assertTrue(traced.contains("drop") || traced.contains("duplicate_request"), "the faults had effects: " + traced);
        assertEquals(traced, run(false));
    }

    /** WRITEs and READs of 1 B to 12 KiB; returns the completions, both devices' counters and B's memory's hash. */
    private static String run(boolean tracing) {
        Pair p = Pair.rc();
        p.fabric.tracing(tracing);
        p.fabric.faults(new LinkFaults(0.02, 0.1, 0.05, 2_000, 1_500));
        SplittableRandom r = new SplittableRandom(11);
        for (long i = 0; i < (1 << 20); i++) p.a.mem.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
        StringBuilder out = new StringBuilder();
        for (int round = 0; round < 20; round++) {
            for (int k = 0; k < 6; k++) {
                int len = 1 + r.nextInt(12 * 1024);
                long off = r.nextInt((1 << 20) - len);
                SendWr w = p.write(round * 10 + k, off, off, len);
                if (k % 3 == 2) w.opcode = SendOpcode.RDMA_READ;
                p.a.post(w);
            }
            p.run();
            for (WorkCompletion wc : p.a.sendCompletions()) out.append(wc.wrId).append(' ').append(wc.status).append('\n');
        }
        out.append(p.a.nic.counters().snapshot()).append('\n').append(p.b.nic.counters().snapshot()).append('\n');
        long h = 0;
        for (long i = 0; i < (1 << 20); i++) h = h * 31 + p.b.mem.get(ValueLayout.JAVA_BYTE, i);
        return out.append(h).toString();
    }
}
