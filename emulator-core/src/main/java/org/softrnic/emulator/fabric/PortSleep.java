package org.softrnic.emulator.fabric;

import java.util.function.BooleanSupplier;

/**
 * How a port whose input is a socket or device lets its loop sleep: until input comes, {@link #wakeup} is
 * called, or the deadline passes. Under a millisecond the loop spins instead. The port marks itself asleep
 * before it checks {@code idle}, so a wakeup that races with falling asleep is never lost.
 */
abstract class PortSleep implements AutoCloseable {
    private volatile boolean asleep;

    final void await(long deadline, BooleanSupplier idle) {
        asleep = true;
        try {
            if (!idle.getAsBoolean()) return;
            long millis = (deadline - System.nanoTime()) / 1_000_000;
            if (millis <= 0) return;
            sleep(Math.min(millis, 1000));
        } finally {
            asleep = false;
        }
    }

    /** Cheap when the loop is not asleep; any thread. */
    final void wakeup() {
        if (asleep) wake();
    }

    /** Waits up to {@code millis} for input or {@link #wake}. */
    abstract void sleep(long millis);

    abstract void wake();

    @Override
    public abstract void close();
}
