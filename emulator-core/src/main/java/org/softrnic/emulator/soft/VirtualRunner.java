package org.softrnic.emulator.soft;

import org.softrnic.nic.Nic;
import org.softrnic.nic.sim.SimFabric;

/**
 * Verbs under the virtual-time fabric: everything runs on the caller's thread, posts reach the model at
 * once, and a poll that finds nothing runs the whole fabric until it is idle. One thread, one seed: a run
 * replays exactly.
 */
final class VirtualRunner extends DirectRunner {
    private final SimFabric fabric;

    VirtualRunner(Nic nic, SimFabric fabric, int maxSge, int maxInline) {
        super(nic, maxSge, maxInline);
        this.fabric = fabric;
    }

    @Override
    public boolean idle() {
        return fabric.runUntilIdle() > 0;
    }

    /** Stops at the event a waiter wants: the CM's timers would otherwise run on for a hundred virtual seconds. */
    @Override
    public boolean idleUntil(java.util.function.BooleanSupplier done) {
        return fabric.run(fabric.clock().nanoTime() + 600_000_000_000L, done) > 0;
    }

    @Override
    public boolean virtual() {
        return true;
    }
}
