package org.softrnic.emulator.soft;

import org.softrnic.nic.sim.SimFabric;

/**
 * Verbs under the virtual-time fabric: everything runs on the caller's thread, posts reach the model at
 * once, and a poll that finds nothing runs the whole fabric until it is idle. One thread, one seed: a run
 * replays exactly; a call from another thread is refused ({@link FabricThread}).
 */
final class VirtualRunner extends DirectRunner {
    private final SimFabric fabric;
    private final FabricThread thread;
    /** Off while the device is made, which may be on a thread other than the one that will use it. */
    private boolean checking;

    VirtualRunner(DeviceAgent agent, SimFabric fabric, FabricThread thread) {
        super(agent);
        this.fabric = fabric;
        this.thread = thread;
    }

    /** The device is made: from now on only the fabric's thread may use it. */
    void startChecking() {
        checking = true;
    }

    @Override
    void checkThread() {
        if (checking) thread.check(agent.nic);
    }

    @Override
    public boolean idle() {
        checkThread();
        return fabric.runUntilIdle() > 0;
    }

    /** Stops at the event a waiter wants: the CM's timers would otherwise run on for a hundred virtual seconds. */
    @Override
    public boolean idleUntil(java.util.function.BooleanSupplier done) {
        checkThread();
        return fabric.run(fabric.clock().nanoTime() + 600_000_000_000L, done) > 0;
    }

    @Override
    public boolean virtual() {
        return true;
    }
}
