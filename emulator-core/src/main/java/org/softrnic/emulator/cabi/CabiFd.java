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
    /** Each direction's buffer and errno capture, made once: an event costs no allocation. */
    private final Arena arena = Arena.ofShared();
    private final MemorySegment readBuf = arena.allocate(ValueLayout.JAVA_LONG);
    private final MemorySegment readCapture = arena.allocate(Libc.CAPTURE);
    private final MemorySegment writeBuf = arena.allocate(ValueLayout.JAVA_LONG);
    private final MemorySegment writeCapture = arena.allocate(Libc.CAPTURE);

    CabiFd() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment capture = a.allocate(Libc.CAPTURE);
            int r = (int) Libc.call(Libc.EVENTFD, capture, 0, EFD_SEMAPHORE | EFD_CLOEXEC);
            if (r < 0) throw Cabi.error("ibv_create_comp_channel", Libc.errno(capture), "eventfd: " + Libc.strerror(Libc.errno(capture)));
            fd = r;
        }
    }

    /** One more event (the pump's thread). */
    void post() {
        synchronized (writeBuf) {
            writeBuf.set(ValueLayout.JAVA_LONG, 0, 1);
            transfer(Libc.WRITE, writeBuf, writeCapture);
        }
    }

    /** Waits for an event and takes it; false if the descriptor failed (closed under the caller). */
    boolean take() {
        synchronized (readBuf) {
            return transfer(Libc.READ, readBuf, readCapture);
        }
    }

    private boolean transfer(java.lang.invoke.MethodHandle op, MemorySegment buf, MemorySegment capture) {
        while (true) {
            long r;
            try {
                r = (long) op.invokeExact(capture, fd, buf.address(), 8L);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (r == 8) return true;
            if (Libc.errno(capture) != 4) return false; // EINTR: again
        }
    }

    @Override
    public void close() {
        synchronized (writeBuf) {
            Libc.call(Libc.CLOSE, writeCapture, fd);
        }
    }
}
