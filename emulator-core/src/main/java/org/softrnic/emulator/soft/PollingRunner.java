package org.softrnic.emulator.soft;

import java.util.function.Supplier;
import org.softrnic.emulator.fabric.Port;
import org.softrnic.nic.Nic;

/**
 * Run to completion ({@code progress: inline}): no thread of the device's own; the one application thread
 * that uses it posts straight into the model and moves packets and timers whenever a poll finds nothing.
 * Another thread's call is refused, since nothing else guards the model.
 */
final class PollingRunner implements Runner {
    private static final int BUDGET = 64;
    private final Nic nic;
    private final Port port;
    private final PostSlot slot;
    private final Thread owner;

    PollingRunner(Nic nic, Port port, int maxSge, int maxInline) {
        this.nic = nic;
        this.port = port;
        this.slot = new PostSlot(maxSge, maxInline);
        this.owner = Thread.currentThread();
    }

    private void checkThread() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("this device runs inline on thread " + owner.getName()
                    + "; use it from that thread, or configure progress: thread");
        }
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
    public boolean idle() {
        checkThread();
        int n = port.poll(nic, BUDGET);
        if (nic.nextDeadline() <= System.nanoTime()) {
            nic.runTimers();
            n++;
        }
        return n > 0;
    }

    @Override
    public boolean drivesProgress() {
        return true;
    }

    @Override
    public void close() {
    }
}
