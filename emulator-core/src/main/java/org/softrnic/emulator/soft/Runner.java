package org.softrnic.emulator.soft;

import java.util.function.Supplier;

/**
 * How a device's {@link DeviceAgent} runs, and how verbs reach its model, which only ever runs on one thread: on
 * the device's own thread ({@link LoopRunner}), on the application's as its polls find nothing
 * ({@link PollingRunner}), or stepped by the virtual-time fabric on the caller's ({@link VirtualRunner}).
 */
interface Runner extends AutoCloseable {
    /** Runs a control verb on the model's thread and returns its result; its exception is thrown here. */
    <T> T call(Supplier<T> verb);

    default void run(Runnable verb) {
        call(() -> {
            verb.run();
            return null;
        });
    }

    /** Throws when the calling thread may not post to this device: before anything is written. By default any may. */
    default void checkPoster() {
    }

    /** Rings a queue's doorbell after a post published its WQE: the device answers it (at once, unless it runs on a loop). */
    void ring(Doorbells.Bell bell);

    /**
     * A poll found nothing: a runner that the caller's thread drives moves the device (the virtual one runs
     * the whole fabric until idle); a loop needs nothing. Returns true when that may have completed work.
     */
    boolean idle();

    /** {@link #idle}, but under virtual time stopping once {@code done} holds, not only when the fabric is idle. */
    default boolean idleUntil(java.util.function.BooleanSupplier done) {
        return idle();
    }

    /** True when the caller's thread drives the device, so waits poll instead of blocking. */
    boolean drivesProgress();

    /** The device's duty cycle this runner runs. */
    DeviceAgent agent();

    /** True under virtual time, where a wait that finds nothing after {@link #idle} would wait forever. */
    default boolean virtual() {
        return false;
    }

    /**
     * Takes the next item of {@code queue} (CQ events, async events), waiting at most {@code timeout}: a loop's
     * caller blocks; a caller that drives the device polls it meanwhile, and under virtual time stops as soon
     * as the fabric has nothing left to do.
     */
    default <T> T await(java.util.concurrent.BlockingQueue<T> queue, java.time.Duration timeout) throws InterruptedException {
        if (!drivesProgress()) return queue.poll(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            T t = queue.poll();
            if (t != null) return t;
            boolean moved = idle();
            if ((virtual() && !moved) || System.nanoTime() - end >= 0) return queue.poll();
            if (!moved) Thread.onSpinWait();
        }
    }

    @Override
    void close();
}
