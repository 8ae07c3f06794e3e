package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.Map;
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
 * the same seed with a trace; so it does when a device runs the fabric from inside its receive (the rest of a
 * burst goes back in flight) and when receives fail halfway through bursts.
 */
class SimFabricPoolTest {
    private enum Agent { NONE, NESTED_RUN, FAILS_NOW_AND_THEN }

    @Test
    void reusingThePacketsArraysChangesNothing() {
        same(Agent.NONE);
    }

    @Test
    void aRunFromInsideAReceiveReusesNothingStillInFlight() {
        same(Agent.NESTED_RUN);
    }

    @Test
    void receivesThatFailInsideABurstReuseNothingStillInFlight() {
        same(Agent.FAILS_NOW_AND_THEN);
    }

    private static void same(Agent agent) {
        Run traced = run(true, agent);
        Map<String, Long> b = traced.pair.b.nic.counters().snapshot();
        assertTrue(traced.pair.fabric.droppedCount() > 0, "the link lost packets");
        assertTrue(b.get("duplicate_request") > 0, "the link duplicated requests: " + b);
        assertTrue(b.get("out_of_seq_request") > 0, "the link reordered or lost requests: " + b);
        String expected = outcome(traced);
        assertEquals(expected, outcome(run(false, agent)));
    }

    /** A run's devices, and the completions A's requests ended with. */
    private record Run(Pair pair, String completions) {}

    /** WRITEs and READs of 1 B to 12 KiB from A, in 20 rounds of 6. */
    private static Run run(boolean tracing, Agent agent) {
        Pair p = Pair.rc();
        p.fabric.tracing(tracing);
        p.fabric.faults(new LinkFaults(0.02, 0.1, 0.05, 2_000, 1_500));
        if (agent == Agent.NESTED_RUN) p.b.nic.attach(AgentInReceive.runningTheFabric(p.fabric, 7));
        if (agent == Agent.FAILS_NOW_AND_THEN) p.b.nic.attach(AgentInReceive.failing(40, true));
        SplittableRandom r = new SplittableRandom(11);
        for (long i = 0; i < (1 << 20); i++) p.a.mem.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
        StringBuilder done = new StringBuilder();
        for (int round = 0; round < 20; round++) {
            for (int k = 0; k < 6; k++) {
                int len = 1 + r.nextInt(12 * 1024);
                long off = r.nextInt((1 << 20) - len);
                SendWr w = p.write(round * 10 + k, off, off, len);
                if (k % 3 == 2) w.opcode = SendOpcode.RDMA_READ;
                p.a.post(w);
            }
            runToTheEnd(p);
            for (WorkCompletion wc : p.a.sendCompletions()) done.append(wc.wrId).append(' ').append(wc.status).append('\n');
        }
        return new Run(p, done.toString());
    }

    /** An agent's failure ends a run; the next run goes on where it stopped. */
    private static void runToTheEnd(Pair p) {
        while (true) {
            try {
                p.run();
                return;
            } catch (IllegalStateException e) {
                // the agent failed
            }
        }
    }

    /** The completions, both devices' counters and a hash of both memories. */
    private static String outcome(Run run) {
        Pair p = run.pair;
        StringBuilder out = new StringBuilder(run.completions);
        out.append(p.a.nic.counters().snapshot()).append('\n').append(p.b.nic.counters().snapshot()).append('\n');
        long h = 0;
        for (long i = 0; i < (1 << 20); i++) h = h * 31 + p.b.mem.get(ValueLayout.JAVA_BYTE, i) + 7 * p.a.mem.get(ValueLayout.JAVA_BYTE, i);
        return out.append(h).toString();
    }
}
