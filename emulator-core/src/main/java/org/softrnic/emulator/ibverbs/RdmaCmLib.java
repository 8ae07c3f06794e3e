package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;

/**
 * librdmacm.so.1, loaded at run time: rdma_cm's verbs as downcall handles, each capturing errno (they return 0,
 * or -1 with errno set). Called through {@link IbvLib#call}'s conventions.
 */
final class RdmaCmLib {
    static final String LIBRARY = "librdmacm.so.1";
    /** RDMA_OPTION_ID and its options, as rdma_cma.h numbers them. */
    static final int OPTION_ID = 0, OPTION_ID_TOS = 0, OPTION_ID_ACK_TIMEOUT = 3;
    private static Object loaded;

    final MethodHandle createEventChannel;
    final MethodHandle destroyEventChannel;
    final MethodHandle createId;
    final MethodHandle destroyId;
    final MethodHandle bindAddr;
    final MethodHandle resolveAddr;
    final MethodHandle resolveRoute;
    final MethodHandle createQp;
    final MethodHandle connect;
    final MethodHandle listen;
    final MethodHandle accept;
    final MethodHandle reject;
    final MethodHandle disconnect;
    final MethodHandle getCmEvent;
    final MethodHandle ackCmEvent;
    final MethodHandle setOption;

    private final SymbolLookup lookup;

    private RdmaCmLib(SymbolLookup lookup) {
        this.lookup = lookup;
        createEventChannel = fn("rdma_create_event_channel", FunctionDescriptor.of(ADDRESS));
        destroyEventChannel = fn("rdma_destroy_event_channel", FunctionDescriptor.ofVoid(ADDRESS));
        createId = fn("rdma_create_id", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        destroyId = fn("rdma_destroy_id", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        bindAddr = fn("rdma_bind_addr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        resolveAddr = fn("rdma_resolve_addr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        resolveRoute = fn("rdma_resolve_route", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        createQp = fn("rdma_create_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        connect = fn("rdma_connect", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        listen = fn("rdma_listen", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        accept = fn("rdma_accept", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        // uint8_t private_data_len: passed as an int (zero-extended), which every C compiler's callee reads right
        reject = fn("rdma_reject", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        disconnect = fn("rdma_disconnect", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getCmEvent = fn("rdma_get_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        ackCmEvent = fn("rdma_ack_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        setOption = fn("rdma_set_option", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG));
    }

    /** The library, loaded on first use; a VerbsException that says what is missing when it cannot be. */
    static synchronized RdmaCmLib get() {
        if (loaded == null) {
            try {
                loaded = new RdmaCmLib(SymbolLookup.libraryLookup(LIBRARY, Arena.global()));
            } catch (IllegalArgumentException e) {
                loaded = LIBRARY + " is not installed, so rdma_cm cannot reach a real device (Debian: apt-get install librdmacm1)";
            }
        }
        if (loaded instanceof String missing) throw new VerbsException("dlopen", Errno.ENOENT, missing);
        return (RdmaCmLib) loaded;
    }

    private MethodHandle fn(String name, FunctionDescriptor d) {
        MemorySegment symbol = lookup.find(name).orElseThrow(() -> new VerbsException("dlsym", Errno.ENOENT, LIBRARY + " has no " + name));
        return Linker.nativeLinker().downcallHandle(symbol, d, Linker.Option.captureCallState("errno"));
    }

    /** A call that returns 0, or -1 with errno: a VerbsException named for {@code verb} and what it was for. */
    static void check(String verb, String what, MethodHandle h, Object... args) {
        int rc = (int) IbvLib.call(h, args);
        if (rc != 0) throw IbvLib.failed(verb, IbvLib.errno(), what);
    }
}
