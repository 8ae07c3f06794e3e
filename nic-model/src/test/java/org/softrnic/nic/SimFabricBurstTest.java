package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * The virtual fabric hands a device the packets due together as one burst, and that changes nothing a run
 * can see: a device that runs the fabric from inside its receive, or whose receive fails halfway through a
 * burst, sees the same packets in the same order as without bursts, and the run's wire trace is the same.
 */
class SimFabricBurstTest {
    private static final int WRITES = 40;
    /** IPv4 and UDP headers come first. */
    private static final int BTH = 28;

    @Test
    void aRunFromInsideAReceiveKeepsTheOrder() {
        List<String> plain = run(Agent.NONE);
        assertTrue(plain.size() > 2 * WRITES, "bursts of packets due together: " + plain.size());
        same(plain, run(Agent.NESTED_RUN));
    }

    /** The same packets at the same times; the first difference, if any, without printing thousands of bytes. */
    private static void same(List<String> expected, List<String> got) {
        for (int i = 0; i < Math.min(expected.size(), got.size()); i++) {
            if (!expected.get(i).equals(got.get(i))) {
                throw new AssertionError("packet " + i + " differs: expected " + expected.get(i).substring(0, Math.min(120, expected.get(i).length()))
                        + "... got " + got.get(i).substring(0, Math.min(120, got.get(i).length())) + "...");
            }
        }
        assertEquals(expected.size(), got.size(), "packets on the wire");
    }

    @Test
    void aReceiveThatFailsInsideABurstLosesNothing() {
        same(run(Agent.NONE), run(Agent.FAILS_ONCE));
    }

    private enum Agent { NONE, NESTED_RUN, FAILS_ONCE }

    /** 40 WRITEs of 4 KiB at MTU 1024 from A to B; returns every packet put on the wire, in order. */
    private static List<String> run(Agent kind) {
        Pair p = Pair.rc();
        if (kind != Agent.NONE) {
            p.b.nic.attach(kind == Agent.NESTED_RUN ? AgentInReceive.runningTheFabric(p.fabric, 1) : AgentInReceive.failing(3, false));
        }
        for (int i = 0; i < WRITES; i++) p.a.post(p.write(i, i * 4096L, i * 4096L, 4096));
        if (kind == Agent.FAILS_ONCE) assertThrows(IllegalStateException.class, p::run);
        p.run();
        List<WorkCompletion> done = p.a.sendCompletions();
        assertEquals(WRITES, done.size());
        for (WorkCompletion wc : done) assertEquals(WcStatus.SUCCESS, wc.status);
        List<String> wire = new ArrayList<>();
        // when, from which device, how long, and the BTH with what follows it up to 16 bytes (an ACK's AETH);
        // not a RETH's address, which is where each run's memory happens to lie
        for (var pk : p.fabric.trace()) {
            byte[] b = pk.bytes();
            wire.add(pk.sentAt() + " " + pk.from() + " " + b.length + " " + HexFormat.of().formatHex(b, BTH, BTH + (b.length < 64 ? 16 : 12)));
        }
        return wire;
    }
}
