package org.softrnic.emulator.soft;

import org.softrnic.emulator.fabric.Port;
import org.softrnic.nic.Nic;

/**
 * Run to completion ({@code progress: inline}): no thread of the device's own; the one application thread
 * that uses it posts straight into the model and moves packets and timers whenever a poll finds nothing.
 * Another thread's call is refused, since nothing else guards the model.
 */
final class PollingRunner extends DirectRunner {
    private static final int BUDGET = 64;
    private final Port port;
    private final Thread owner;

    PollingRunner(Nic nic, Port port) {
        super(nic);
        this.port = port;
        this.owner = Thread.currentThread();
    }

    @Override
    void checkThread() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("this device runs inline on thread " + owner.getName()
                    + "; use it from that thread, or configure progress: thread");
        }
    }

    /** The application may wait for an event next, not poll: what a post or a verb sent leaves now. */
    @Override
    public void ring(Doorbells.Bell bell) {
        try {
            super.ring(bell);
        } finally {
            port.flush();
        }
    }

    @Override
    public <T> T call(java.util.function.Supplier<T> verb) {
        try {
            return super.call(verb);
        } finally {
            port.flush();
        }
    }

    @Override
    public boolean idle() {
        checkThread();
        int n = 0;
        try {
            n = PortStep.run(nic, port, BUDGET, this::failed);
        } catch (RuntimeException e) {
            failed(e);
        }
        return n > 0;
    }

    /** As on a loop: a fault in the device or its port is counted, not thrown at the application's poll. */
    private void failed(RuntimeException e) {
        failures++;
        lastFailure = e;
        nic.diagnostics().fault(nic.clock().nanoTime(), "the device's progress failed (loop_failures counts it): " + e);
    }

    private volatile long failures;
    private volatile Throwable lastFailure;

    @Override
    public long failures() {
        return failures;
    }
}
