package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;
import org.softrnic.emulator.os.Libc;

/**
 * How a port whose input is a file descriptor of its own (a TAP device, a native UDP socket) lets its loop
 * sleep: poll(2) on that descriptor and an eventfd that {@link #wakeup} writes, until input comes, a wakeup,
 * or the deadline. Under a millisecond the loop spins instead.
 */
final class FdSleep implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final int event;
    /** The loop's errno; another for wakeup, which any thread may call. */
    private final MemorySegment capture = arena.allocate(Libc.CAPTURE);
    private final MemorySegment wakeCapture = arena.allocate(Libc.CAPTURE);
    private final MemorySegment pollFds = arena.allocate(16, 8);
    private final MemorySegment one = arena.allocate(8, 8);
    private final MemorySegment drain = arena.allocate(8, 8);
    private volatile boolean asleep;

    /** Sleeps on {@code fd}, which the caller owns and closes. */
    FdSleep(int fd) throws IOException {
        try {
            event = (int) Libc.EVENTFD.invokeExact(capture, 0, Libc.O_NONBLOCK | Libc.O_CLOEXEC);
        } catch (Throwable t) {
            arena.close();
            throw new IllegalStateException(t);
        }
        if (event < 0) {
            int errno = Libc.errno(capture);
            arena.close();
            throw new IOException("eventfd: " + Libc.strerror(errno));
        }
        pollFds.set(ValueLayout.JAVA_INT, 0, fd);
        pollFds.set(ValueLayout.JAVA_SHORT, 4, Libc.POLLIN);
        pollFds.set(ValueLayout.JAVA_INT, 8, event);
        pollFds.set(ValueLayout.JAVA_SHORT, 12, Libc.POLLIN);
        one.set(ValueLayout.JAVA_LONG, 0, 1);
    }

    void await(long deadline, BooleanSupplier idle) {
        asleep = true;
        try {
            if (!idle.getAsBoolean()) return;
            long millis = (deadline - System.nanoTime()) / 1_000_000;
            if (millis <= 0) return;
            int ready = (int) Libc.POLL.invokeExact(capture, pollFds, 2L, (int) Math.min(millis, 1000));
            if (ready > 0 && (pollFds.get(ValueLayout.JAVA_SHORT, 14) & Libc.POLLIN) != 0) {
                long ignored = (long) Libc.READ.invokeExact(capture, event, drain.address(), 8L);
            }
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            asleep = false;
        }
    }

    /** Cheap when the loop is not asleep. */
    void wakeup() {
        if (!asleep) return;
        try {
            long ignored = (long) Libc.WRITE.invokeExact(wakeCapture, event, one.address(), 8L);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public void close() {
        Libc.call(Libc.CLOSE, wakeCapture, event);
        arena.close();
    }
}
