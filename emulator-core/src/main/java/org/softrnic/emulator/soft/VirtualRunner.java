package org.softrnic.emulator.soft;

import java.util.function.Supplier;
import org.softrnic.nic.Nic;
import org.softrnic.nic.sim.SimFabric;

/**
 * Verbs under the virtual-time fabric: everything runs on the caller's thread, posts reach the model at
 * once, and a poll that finds nothing runs the whole fabric until it is idle. One thread, one seed: a run
 * replays exactly.
 */
final class VirtualRunner implements Runner {
    private final Nic nic;
    private final SimFabric fabric;
    private final PostSlot slot;

    VirtualRunner(Nic nic, SimFabric fabric, int maxSge, int maxInline) {
        this.nic = nic;
        this.fabric = fabric;
        this.slot = new PostSlot(maxSge, maxInline);
    }

    @Override
    public <T> T call(Supplier<T> verb) {
        return verb.get();
    }

    @Override
    public long claim() {
        return 0;
    }

    @Override
    public PostSlot slot(long claim) {
        return slot;
    }

    @Override
    public void publish(long claim) {
        slot.postTo(nic);
    }

    @Override
    public boolean idle() {
        return fabric.runUntilIdle() > 0;
    }

    @Override
    public boolean drivesProgress() {
        return true;
    }

    @Override
    public boolean virtual() {
        return true;
    }

    @Override
    public void close() {
    }
}
