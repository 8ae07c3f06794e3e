package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The verbs that verbs.h defines {@code static inline}, so that libibverbs exports no symbol for them:
 * ibv_post_send, ibv_post_recv, ibv_post_srq_recv, ibv_poll_cq, ibv_req_notify_cq and the memory-window
 * verbs. Each is a call through a function pointer in the context's ops table; the handles here take that
 * pointer first. Posting and polling never block and return errors as values, so they run as critical
 * calls (no thread-state transition) and capture no errno.
 */
final class IbvOps {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    /** int (*poll_cq)(struct ibv_cq *, int num_entries, struct ibv_wc *): a count, or negative on error. */
    static final MethodHandle POLL_CQ = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), CRITICAL);
    /** int (*req_notify_cq)(struct ibv_cq *, int solicited_only): 0 or an errno. */
    static final MethodHandle REQ_NOTIFY_CQ = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), CRITICAL);
    /** post_send, post_recv, post_srq_recv: (object, first request, bad request out) -> 0 or an errno. */
    static final MethodHandle POST = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), CRITICAL);
    /** struct ibv_mw *(*alloc_mw)(struct ibv_pd *, enum ibv_mw_type): NULL with errno on failure. */
    static final MethodHandle ALLOC_MW = LINKER.downcallHandle(FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT),
            Linker.Option.captureCallState("errno"));
    /** int (*bind_mw)(struct ibv_qp *, struct ibv_mw *, struct ibv_mw_bind *): 0 or an errno. */
    static final MethodHandle BIND_MW = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    /** int (*dealloc_mw)(struct ibv_mw *): 0 or an errno. */
    static final MethodHandle DEALLOC_MW = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private IbvOps() {
    }

    /** The function pointer at {@code offset} in the ops table of the context {@code object} belongs to. */
    static MemorySegment op(MemorySegment context, long offset) {
        MemorySegment fn = context.reinterpret(org.softrnic.emulator.rdmacore.RdmaCoreLayout.OPS_POST_RECV + 8).get(ADDRESS, offset);
        if (fn.address() == 0) throw new IllegalStateException("the provider left ops slot " + offset + " empty");
        return fn;
    }
}
