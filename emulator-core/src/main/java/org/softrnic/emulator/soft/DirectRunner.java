package org.softrnic.emulator.soft;

import java.util.function.Supplier;

/**
 * A runner without a thread of its own: verbs run on the caller's thread and a doorbell is answered at once.
 * Subclasses say how a poll that finds nothing moves the device, and which threads may call.
 */
abstract class DirectRunner implements Runner {
    final DeviceAgent agent;

    DirectRunner(DeviceAgent agent) {
        this.agent = agent;
    }

    @Override
    public DeviceAgent agent() {
        return agent;
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
    public void checkPoster() {
        checkThread();
    }

    @Override
    public void ring(Doorbells.Bell bell) {
        agent.ring(bell);
        agent.answerDoorbells();
    }

    @Override
    public boolean drivesProgress() {
        return true;
    }

    @Override
    public void close() {
    }
}
