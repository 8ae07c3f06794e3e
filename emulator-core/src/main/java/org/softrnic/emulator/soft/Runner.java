package org.softrnic.emulator.soft;

import java.util.function.Supplier;

/**
 * How verbs reach a device's model, which only ever runs on one thread: on the device's own event loop
 * ({@link LoopRunner}), or on the caller's thread under the virtual-time fabric ({@link VirtualRunner}).
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

    /** Claims a slot for one posted request (waiting while the loop catches up); fill it, then {@link #publish}. */
    long claim();

    PostSlot slot(long claim);

    /** Hands the filled slot to the model. The virtual runner posts at once and throws what the model throws. */
    void publish(long claim);

    /** A poll found nothing: the virtual runner runs the fabric until it is idle; a loop needs nothing. */
    void idle();

    /** True when waits must run the fabric rather than block (virtual time, caller's thread). */
    boolean virtual();

    @Override
    void close();
}
