package org.softrnic.emulator.fabric;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.softrnic.nic.sim.LinkCounts;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.wire.frame.Ecn;

/**
 * What a faulty link does to one packet, decided from a seeded random in one fixed order (loss; then the delay's
 * jitter, reordering and ECN marking; then duplication), so a seed replays the same faults on every link that
 * uses it: the in-process fabric's ports and {@link FaultyPort} around any other. Each fault applied is counted.
 */
final class LinkFaultModel {
    private LinkFaultModel() {
    }

    /** Whether the packet is lost; counted. */
    static boolean lost(LinkFaults f, SplittableRandom r, LinkCounts counts) {
        if (f.loss() > 0 && r.nextDouble() < f.loss()) {
            counts.dropped();
            return true;
        }
        return false;
    }

    /**
     * When the packet sent at {@code now} is due at the other end: the delay with its jitter, later still when
     * reordered; an ECN-capable packet (its IP header at {@code ip}) may be marked CE on the way.
     */
    static long due(LinkFaults f, SplittableRandom r, LinkCounts counts, long now, MemorySegment s, long ip) {
        long due = now + f.delayNanos() + (f.jitterNanos() > 0 ? r.nextLong(f.jitterNanos()) : 0);
        if (f.reorder() > 0 && r.nextDouble() < f.reorder()) {
            due += f.delayNanos() + 1;
            counts.reordered();
        }
        if (f.ecnMark() > 0 && r.nextDouble() < f.ecnMark()) {
            Ecn.markCongestion(s, ip);
            counts.ecnMarked();
        }
        return due;
    }

    /** Whether the packet is sent twice; the caller counts it once it has room for the copy. */
    static boolean duplicated(LinkFaults f, SplittableRandom r) {
        return f.duplicate() > 0 && r.nextDouble() < f.duplicate();
    }

    /** When a duplicate of a packet due at {@code due} arrives: after it, within one more delay. */
    static long twinDue(LinkFaults f, SplittableRandom r, long due) {
        return due + 1 + r.nextLong(f.delayNanos() + 1);
    }
}
