package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Selector;
import java.util.function.BooleanSupplier;

/**
 * How a port whose input is a socket lets its loop sleep: in a selector, until a datagram or frame comes,
 * {@link #wakeup} is called, or the deadline passes. Under a millisecond the loop spins instead.
 */
final class SelectorSleep implements AutoCloseable {
    final Selector selector;
    private volatile boolean asleep;

    SelectorSleep() throws IOException {
        selector = Selector.open();
    }

    void await(long deadline, BooleanSupplier idle) {
        asleep = true;
        try {
            if (!idle.getAsBoolean()) return;
            long millis = (deadline - System.nanoTime()) / 1_000_000;
            if (millis <= 0) return;
            selector.select(Math.min(millis, 1000));
            selector.selectedKeys().clear();
        } catch (IOException e) {
            throw new UncheckedIOException("selector failed", e);
        } finally {
            asleep = false;
        }
    }

    /** Cheap when the loop is not asleep. */
    void wakeup() {
        if (asleep) selector.wakeup();
    }

    @Override
    public void close() throws IOException {
        selector.close();
    }
}
