package org.softrnic.emulator.fabric;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

/**
 * Where a {@link FramePort}'s whole Ethernet frames go and come from: qemu's socket netdev, or a TAP device.
 * The frame port does the rest (ARP, addresses, loss); an endpoint only moves frames and lets the loop sleep.
 */
interface FrameEndpoint extends AutoCloseable {
    /** Sends one frame of {@code length} bytes at {@code at}; false if it could not be taken. */
    boolean send(MemorySegment s, long at, int length);

    /**
     * Copies up to {@code budget} received frames, one at a time, to {@code into} at {@code at} (room for
     * {@code max} bytes) and calls {@code frame} with each one's length. Returns how many came.
     */
    int receive(MemorySegment into, long at, int max, int budget, IntConsumer frame);

    /** As {@link Port#await}. */
    void await(long deadline, BooleanSupplier idle);

    /** As {@link Port#wakeup}. */
    void wakeup();

    @Override
    void close();
}
