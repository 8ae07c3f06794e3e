package org.softrnic.emulator.soft;

import org.softrnic.emulator.fabric.Port;

/**
 * Run to completion ({@code progress: inline}): no thread of the device's own; the one application thread
 * that uses it posts straight into the model and moves packets and timers whenever a poll finds nothing.
 * Another thread's call is refused, since nothing else guards the model.
 */
final class PollingRunner extends DirectRunner {
    private final Port port;
    private final Thread owner;

    PollingRunner(DeviceAgent agent) {
        super(agent);
        this.port = agent.port;
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
        try {
            return agent.doWork(System.nanoTime()) > 0;
        } catch (RuntimeException e) {
            agent.failed(e); // as on a loop: counted, not thrown at the application's poll
            return false;
        }
    }
}
