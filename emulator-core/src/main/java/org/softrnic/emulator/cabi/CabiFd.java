package org.softrnic.emulator.cabi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.emulator.os.Libc;

/**
 * An eventfd counting events a C program can poll(): a completion channel's, which its pump adds to and
 * ibv_get_cq_event takes one from (EFD_SEMAPHORE), blocking as a read of the kernel's channel does.
 */
final class CabiFd implements AutoCloseable {
    private static final int EFD_SEMAPHORE = 1;
    private static final int EFD_CLOEXEC = 0x80000;
    final int fd;

    CabiFd() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment capture = a.allocate(Libc.CAPTURE);
            int r = (int) Libc.call(Libc.EVENTFD, capture, 0, EFD_SEMAPHORE | EFD_CLOEXEC);
            if (r < 0) throw Cabi.error("ibv_create_comp_channel", Libc.errno(capture), "eventfd: " + Libc.strerror(Libc.errno(capture)));
            fd = r;
        }
    }

    /** One more event. */
    void post() {
        transfer(Libc.WRITE, 1);
    }

    /** Waits for an event and takes it; false if the descriptor failed (closed under the caller). */
    boolean take() {
        return transfer(Libc.READ, 0);
    }

    private boolean transfer(java.lang.invoke.MethodHandle op, long value) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment capture = a.allocate(Libc.CAPTURE);
            MemorySegment buf = a.allocate(ValueLayout.JAVA_LONG);
            buf.set(ValueLayout.JAVA_LONG, 0, value);
            while (true) {
                long r = Libc.call(op, capture, fd, buf.address(), 8L);
                if (r == 8) return true;
                if (Libc.errno(capture) != 4) return false; // EINTR: again
            }
        }
    }

    @Override
    public void close() {
        try (Arena a = Arena.ofConfined()) {
            Libc.call(Libc.CLOSE, a.allocate(Libc.CAPTURE), fd);
        }
    }
}
