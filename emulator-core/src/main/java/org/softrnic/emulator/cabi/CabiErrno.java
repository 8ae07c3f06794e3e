package org.softrnic.emulator.cabi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/** The calling thread's errno, which a verb that fails sets for its C caller (through glibc's __errno_location). */
final class CabiErrno {
    private static final MethodHandle LOCATION = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("__errno_location").orElseThrow(), FunctionDescriptor.of(ValueLayout.ADDRESS));

    private CabiErrno() {
    }

    static void set(int errno) {
        try {
            ((MemorySegment) LOCATION.invokeExact()).reinterpret(4).set(ValueLayout.JAVA_INT, 0, errno);
        } catch (Throwable t) {
            throw new IllegalStateException("__errno_location", t);
        }
    }
}
