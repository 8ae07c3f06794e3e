package org.softrnic.emulator.soft;

import java.util.function.Supplier;
import org.softrnic.nic.Nic;

/**
 * A runner without a thread of its own: verbs run on the caller's thread and posts reach the model at once
 * through one slot, so the model's refusals come back to the caller. Subclasses say how a poll that finds
 * nothing moves the device, and which threads may call.
 */
abstract class DirectRunner implements Runner {
    final Nic nic;
    private final PostSlot slot;

    DirectRunner(Nic nic, int maxSge, int maxInline) {
        this.nic = nic;
        this.slot = new PostSlot(maxSge, maxInline);
    }

    /** Throws when the calling thread may not use the device; by default any may. */
    void checkThread() {
    }

    @Override
    public <T> T call(Supplier<T> verb) {
        checkThread();
        return verb.get();
    }

    @Override
    public long claim() {
        checkThread();
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
    public boolean drivesProgress() {
        return true;
    }

    @Override
    public void close() {
    }
}
