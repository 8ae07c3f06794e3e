package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.emulator.os.Libc;

/**
 * Sleep for a port whose input is a file descriptor of its own (a TAP device, a libc UDP socket): poll(2) on
 * that descriptor and an eventfd that {@link #wakeup} writes.
 */
final class FdSleep extends PortSleep {
    private final Arena arena = Arena.ofShared();
    private final int event;
    /** The loop's errno; another for wakeup, which any thread may call. */
    private final MemorySegment capture = arena.allocate(Libc.CAPTURE);
    private final MemorySegment wakeCapture = arena.allocate(Libc.CAPTURE);
    private final MemorySegment pollFds = arena.allocate(16, 8);
    private final MemorySegment one = arena.allocate(8, 8);
    private final MemorySegment drain = arena.allocate(8, 8);

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

    @Override
    void sleep(long millis) {
        try {
            int ready = (int) Libc.POLL.invokeExact(capture, pollFds, 2L, (int) millis);
            if (ready > 0 && (pollFds.get(ValueLayout.JAVA_SHORT, 14) & Libc.POLLIN) != 0) {
                long ignored = (long) Libc.READ.invokeExact(capture, event, drain.address(), 8L);
            }
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    void wake() {
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
