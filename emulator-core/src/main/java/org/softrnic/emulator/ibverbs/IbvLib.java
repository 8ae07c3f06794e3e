package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import org.softrnic.emulator.os.Libc;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;

/**
 * libibverbs.so.1, loaded at run time: the exported verbs as downcall handles, each capturing errno. Plain
 * names resolve to the default symbol versions (IBVERBS_1.1), as a C program linked today would get. The
 * inline verbs are not here but in {@link IbvOps}.
 */
final class IbvLib {
    static final String LIBRARY = "libibverbs.so.1";
    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final ThreadLocal<MemorySegment> CAPTURE =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(Libc.CAPTURE));
    private static Object loaded; // the library, or why there is none

    final MethodHandle getDeviceList;
    final MethodHandle freeDeviceList;
    final MethodHandle getDeviceGuid;
    final MethodHandle openDevice;
    final MethodHandle closeDevice;
    final MethodHandle queryDevice;
    final MethodHandle queryPort;
    final MethodHandle queryGid;
    final MethodHandle allocPd;
    final MethodHandle deallocPd;
    final MethodHandle regMr;
    final MethodHandle deregMr;
    final MethodHandle createCompChannel;
    final MethodHandle destroyCompChannel;
    final MethodHandle createCq;
    final MethodHandle destroyCq;
    final MethodHandle getCqEvent;
    final MethodHandle ackCqEvents;
    final MethodHandle createSrq;
    final MethodHandle modifySrq;
    final MethodHandle destroySrq;
    final MethodHandle createQp;
    final MethodHandle modifyQp;
    final MethodHandle queryQp;
    final MethodHandle destroyQp;
    final MethodHandle createAh;
    final MethodHandle destroyAh;
    final MethodHandle getAsyncEvent;
    final MethodHandle ackAsyncEvent;

    private final SymbolLookup lookup;

    private IbvLib(SymbolLookup lookup) {
        this.lookup = lookup;
        getDeviceList = fn("ibv_get_device_list", FunctionDescriptor.of(ADDRESS, ADDRESS));
        freeDeviceList = fn("ibv_free_device_list", FunctionDescriptor.ofVoid(ADDRESS));
        getDeviceGuid = fn("ibv_get_device_guid", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        openDevice = fn("ibv_open_device", FunctionDescriptor.of(ADDRESS, ADDRESS));
        closeDevice = fn("ibv_close_device", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        queryDevice = fn("ibv_query_device", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        queryPort = fn("ibv_query_port", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS));
        queryGid = fn("ibv_query_gid", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT, ADDRESS));
        allocPd = fn("ibv_alloc_pd", FunctionDescriptor.of(ADDRESS, ADDRESS));
        deallocPd = fn("ibv_dealloc_pd", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        regMr = fn("ibv_reg_mr", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
        deregMr = fn("ibv_dereg_mr", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createCompChannel = fn("ibv_create_comp_channel", FunctionDescriptor.of(ADDRESS, ADDRESS));
        destroyCompChannel = fn("ibv_destroy_comp_channel", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createCq = fn("ibv_create_cq", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        destroyCq = fn("ibv_destroy_cq", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getCqEvent = fn("ibv_get_cq_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        ackCqEvents = fn("ibv_ack_cq_events", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT));
        createSrq = fn("ibv_create_srq", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        modifySrq = fn("ibv_modify_srq", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        destroySrq = fn("ibv_destroy_srq", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createQp = fn("ibv_create_qp", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        modifyQp = fn("ibv_modify_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        queryQp = fn("ibv_query_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        destroyQp = fn("ibv_destroy_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createAh = fn("ibv_create_ah", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        destroyAh = fn("ibv_destroy_ah", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getAsyncEvent = fn("ibv_get_async_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        ackAsyncEvent = fn("ibv_ack_async_event", FunctionDescriptor.ofVoid(ADDRESS));
    }

    /** The library, loaded on first use; a VerbsException that says what is missing when it cannot be. */
    static synchronized IbvLib get() {
        if (loaded == null) {
            try {
                loaded = new IbvLib(SymbolLookup.libraryLookup(LIBRARY, Arena.global()));
            } catch (IllegalArgumentException e) {
                loaded = LIBRARY + " is not installed, so no real RDMA device can be used"
                        + " (Debian: apt-get install libibverbs1 ibverbs-providers)";
            }
        }
        if (loaded instanceof String missing) throw new VerbsException("dlopen", Errno.ENOENT, missing);
        return (IbvLib) loaded;
    }

    private MethodHandle fn(String name, FunctionDescriptor d) {
        MemorySegment symbol = lookup.find(name).orElseThrow(
                () -> new VerbsException("dlsym", Errno.ENOENT, LIBRARY + " has no " + name + "; rdma-core is older than 1.1's ABI"));
        return LINKER.downcallHandle(symbol, d, ERRNO);
    }

    /** This thread's errno capture segment, passed first to every handle here. */
    static MemorySegment capture() {
        return CAPTURE.get();
    }

    /** errno as the last call on this thread left it. */
    static int errno() {
        return Libc.errno(CAPTURE.get());
    }

    /** Invokes a handle whose exceptions cannot happen (the arguments' types are fixed here). */
    static Object call(MethodHandle h, Object... args) {
        Object[] all = new Object[args.length + 1];
        all[0] = capture();
        System.arraycopy(args, 0, all, 1, args.length);
        try {
            return h.invokeWithArguments(all);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** A call that returns 0 or a positive errno (the destroy, modify and query verbs). */
    static void check(String verb, String what, MethodHandle h, Object... args) {
        int rc = (int) call(h, args);
        if (rc != 0) throw failed(verb, rc > 0 ? rc : errno(), what);
    }

    /** A call that returns a pointer, or NULL with errno set (the create verbs). */
    static MemorySegment created(String verb, String what, MethodHandle h, Object... args) {
        MemorySegment p = (MemorySegment) call(h, args);
        if (p.address() == 0) throw failed(verb, errno(), what);
        return p;
    }

    static VerbsException failed(String verb, int errno, String what) {
        return new VerbsException(verb, errno, what + ": " + Libc.strerror(errno));
    }
}
