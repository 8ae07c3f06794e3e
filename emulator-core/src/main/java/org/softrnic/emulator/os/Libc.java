package org.softrnic.emulator.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc calls the TAP device and the ibverbs provider need, through FFM (no native code of our own). Each takes a capture-state
 * segment first, from which {@link #errno} reads the call's errno. Buffers for read and write are passed as
 * raw addresses, so moving a frame allocates nothing.
 */
public final class Libc {
    public static final int O_RDWR = 2;
    public static final int O_NONBLOCK = 0x800;
    public static final int O_CLOEXEC = 0x80000;
    public static final int EAGAIN = 11;
    public static final int EINTR = 4;
    public static final short POLLIN = 1;

    private static final Linker LINKER = Linker.nativeLinker();
    static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    public static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO_VALUE = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    public static final MethodHandle OPEN = handle("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            ERRNO, Linker.Option.firstVariadicArg(2));
    public static final MethodHandle IOCTL = handle("ioctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
            ERRNO, Linker.Option.firstVariadicArg(2));
    public static final MethodHandle READ = handle("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG), ERRNO);
    public static final MethodHandle WRITE = handle("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG), ERRNO);
    public static final MethodHandle CLOSE = handle("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO);
    public static final MethodHandle POLL = handle("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), ERRNO);
    public static final MethodHandle EVENTFD = handle("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO);
    public static final MethodHandle FCNTL = handle("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), ERRNO,
            Linker.Option.firstVariadicArg(2));
    public static final int F_GETFL = 3;
    public static final int F_SETFL = 4;
    public static final MethodHandle SOCKET = handle("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), ERRNO);
    private static final MethodHandle STRERROR = LINKER.downcallHandle(LINKER.defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(256, java.lang.foreign.ValueLayout.JAVA_BYTE)), JAVA_INT));

    private Libc() {
    }

    static MethodHandle handle(String name, FunctionDescriptor d, Linker.Option... options) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name)),
                d, options);
    }

    public static int errno(MemorySegment capture) {
        return (int) ERRNO_VALUE.get(capture, 0L);
    }

    /** strerror's words for an errno, e.g. "Operation not permitted". */
    public static String strerror(int errno) {
        try {
            return ((MemorySegment) STRERROR.invokeExact(errno)).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    /** Calls a handle whose failures are -1 with errno set; an exception from the call itself cannot happen. */
    public static long call(MethodHandle h, Object... args) {
        try {
            Object r = h.invokeWithArguments(args);
            return r instanceof Integer i ? i : (Long) r;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
