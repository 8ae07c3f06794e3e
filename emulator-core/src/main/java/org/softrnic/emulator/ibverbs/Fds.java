package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.softrnic.emulator.os.Libc;

/**
 * The file descriptors behind completion channels and async events. libibverbs reads them blocking; making
 * them non-blocking and waiting with poll(2) first gives the API's timeouts and lets a waiting thread be
 * interrupted.
 */
final class Fds {
    private static final int SLICE_MS = 100;

    private Fds() {
    }

    static void nonBlocking(int fd, String verb) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(Libc.CAPTURE);
            long flags = Libc.call(Libc.FCNTL, err, fd, Libc.F_GETFL, 0);
            if (flags < 0 || Libc.call(Libc.FCNTL, err, fd, Libc.F_SETFL, (int) flags | Libc.O_NONBLOCK) < 0) {
                throw IbvLib.failed(verb, Libc.errno(err), "making fd " + fd + " non-blocking");
            }
        }
    }

    /** Waits until {@code fd} is readable or {@code timeout} passed, in slices so that interrupts are seen. */
    static boolean awaitReadable(int fd, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(Libc.CAPTURE);
            MemorySegment pollFd = a.allocate(8, 4);
            while (true) {
                if (Thread.interrupted()) throw new InterruptedException();
                long left = Math.max(0, (end - System.nanoTime()) / 1_000_000);
                pollFd.set(JAVA_INT, 0, fd);
                pollFd.set(JAVA_SHORT, 4, Libc.POLLIN);
                pollFd.set(JAVA_SHORT, 6, (short) 0);
                long n = Libc.call(Libc.POLL, err, pollFd, 1L, (int) Math.min(left, SLICE_MS));
                if (n < 0 && Libc.errno(err) != Libc.EINTR) throw IbvLib.failed("poll", Libc.errno(err), "waiting on fd " + fd);
                if (n > 0) return true;
                if (left == 0) return false;
            }
        }
    }
}
