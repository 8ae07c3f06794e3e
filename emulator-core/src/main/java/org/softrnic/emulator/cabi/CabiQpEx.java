package org.softrnic.emulator.cabi;

import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;

/**
 * The ibv_wr_* table of a QP made by ibv_create_qp_ex, as rdma-core's man page ibv_wr_post describes it: wr_start opens
 * a batch, each wr_&lt;opcode&gt; starts a request with the wr_id and wr_flags the program set in the struct, the wr_set_*
 * calls fill it, wr_complete posts the batch (its errno, or 0) and wr_abort drops it. Requests are built into the QP's
 * own SendWrs and posted in order at wr_complete; inline data is copied at once into a buffer the QP registered.
 */
final class CabiQpEx {
    private static final ValueLayout L = ValueLayout.JAVA_LONG;
    private static final ValueLayout I = ValueLayout.JAVA_INT;
    private static final MemorySegment RDMA_WRITE = stub("wr_rdma_write", null, L, I, L);
    private static final MemorySegment RDMA_WRITE_IMM = stub("wr_rdma_write_imm", null, L, I, L, I);
    private static final MemorySegment RDMA_READ = stub("wr_rdma_read", null, L, I, L);
    private static final MemorySegment SEND = stub("wr_send", null, L);
    private static final MemorySegment SEND_IMM = stub("wr_send_imm", null, L, I);
    private static final MemorySegment SEND_INV = stub("wr_send_inv", null, L, I);
    private static final MemorySegment LOCAL_INV = stub("wr_local_inv", null, L, I);
    private static final MemorySegment CMP_SWP = stub("wr_atomic_cmp_swp", null, L, I, L, L, L);
    private static final MemorySegment FETCH_ADD = stub("wr_atomic_fetch_add", null, L, I, L, L);
    private static final MemorySegment SET_SGE = stub("wr_set_sge", null, L, I, L, I);
    private static final MemorySegment SET_SGE_LIST = stub("wr_set_sge_list", null, L, L, L);
    private static final MemorySegment SET_INLINE = stub("wr_set_inline_data", null, L, L, L);
    private static final MemorySegment SET_INLINE_LIST = stub("wr_set_inline_data_list", null, L, L, L);
    private static final MemorySegment SET_UD_ADDR = stub("wr_set_ud_addr", null, L, L, I, I);
    private static final MemorySegment START = stub("wr_start", null, L);
    private static final MemorySegment COMPLETE = stub("wr_complete", I, L);
    private static final MemorySegment ABORT = stub("wr_abort", null, L);

    private CabiQpEx() {
    }

    private static MemorySegment stub(String name, ValueLayout ret, ValueLayout... args) {
        FunctionDescriptor d = ret == null ? FunctionDescriptor.ofVoid((MemoryLayout[]) args) : FunctionDescriptor.of(ret, (MemoryLayout[]) args);
        return Cabi.upcall(CabiQpEx.class, name, d, "ibv_" + name, ret == null ? 'v' : 'i');
    }

    /** Fills {@code q}'s ibv_wr_* table. */
    static void install(CabiQps.Qp q) {
        MemorySegment s = q.struct;
        s.set(ValueLayout.ADDRESS, QPX_WR_RDMA_WRITE, RDMA_WRITE);
        s.set(ValueLayout.ADDRESS, QPX_WR_RDMA_WRITE_IMM, RDMA_WRITE_IMM);
        s.set(ValueLayout.ADDRESS, QPX_WR_RDMA_READ, RDMA_READ);
        s.set(ValueLayout.ADDRESS, QPX_WR_SEND, SEND);
        s.set(ValueLayout.ADDRESS, QPX_WR_SEND_IMM, SEND_IMM);
        s.set(ValueLayout.ADDRESS, QPX_WR_SEND_INV, SEND_INV);
        s.set(ValueLayout.ADDRESS, QPX_WR_LOCAL_INV, LOCAL_INV);
        s.set(ValueLayout.ADDRESS, QPX_WR_ATOMIC_CMP_SWP, CMP_SWP);
        s.set(ValueLayout.ADDRESS, QPX_WR_ATOMIC_FETCH_ADD, FETCH_ADD);
        s.set(ValueLayout.ADDRESS, QPX_WR_SET_SGE, SET_SGE);
        s.set(ValueLayout.ADDRESS, QPX_WR_SET_SGE_LIST, SET_SGE_LIST);
        s.set(ValueLayout.ADDRESS, QPX_WR_SET_INLINE_DATA, SET_INLINE);
        s.set(ValueLayout.ADDRESS, QPX_WR_SET_INLINE_DATA_LIST, SET_INLINE_LIST);
        s.set(ValueLayout.ADDRESS, QPX_WR_SET_UD_ADDR, SET_UD_ADDR);
        s.set(ValueLayout.ADDRESS, QPX_WR_START, START);
        s.set(ValueLayout.ADDRESS, QPX_WR_COMPLETE, COMPLETE);
        s.set(ValueLayout.ADDRESS, QPX_WR_ABORT, ABORT);
    }

    static void wr_start(long qp) {
        CabiQps.Qp q = CabiQps.qp(qp);
        q.batchLock.lock(); // released by wr_complete or wr_abort, on this thread
        reset(q);
    }

    static void wr_abort(long qp) {
        CabiQps.Qp q = CabiQps.qp(qp);
        reset(q);
        if (q.batchLock.isHeldByCurrentThread()) q.batchLock.unlock();
    }

    private static void reset(CabiQps.Qp q) {
        q.built = 0;
        q.batchErrno = 0;
        q.batchWhy = null;
    }

    /**
     * Posts the batch in order: its errno when building it failed (nothing is posted, as a device that checks each
     * request as it is built refuses the batch), else the first refusal's (the requests before it are posted), or 0.
     */
    static int wr_complete(long qp) {
        CabiQps.Qp q = CabiQps.qp(qp);
        try {
            return complete(q);
        } finally {
            if (q.batchLock.isHeldByCurrentThread()) q.batchLock.unlock();
        }
    }

    private static int complete(CabiQps.Qp q) {
        int n = q.built;
        int errno = q.batchErrno;
        String why = q.batchWhy;
        reset(q);
        if (errno != 0) {
            System.err.println("softrnic: ibv_wr_complete: " + why);
            return errno;
        }
        for (int i = 0; i < n; i++) {
            try {
                q.qp.postSend(q.batch[i]);
            } catch (VerbsException e) {
                return e.errnoValue();
            }
        }
        return 0;
    }

    /** The next request of the batch, with the wr_id and wr_flags the program set; null past the queue's depth. */
    private static SendWr next(long qp, SendOpcode op) {
        CabiQps.Qp q = CabiQps.qp(qp);
        int i = q.built++;
        if (i >= q.batch.length) {
            fail(q, 12, "more requests in one batch than max_send_wr, " + q.batch.length); // ENOMEM
            return null;
        }
        SendWr w = q.batch[i];
        w.clearHandles();
        w.opcode = op;
        w.wrId = CabiMemory.getLong(qp + QPX_WR_ID);
        w.sendFlags = CabiMemory.getInt(qp + QPX_WR_FLAGS);
        w.numSge = 0;
        return w;
    }

    /** The batch fails at wr_complete with {@code errno}, for the first reason met. */
    static void fail(CabiQps.Qp q, int errno, String why) {
        if (q.batchErrno != 0) return;
        q.batchErrno = errno;
        q.batchWhy = why;
    }

    /** The request the last wr_&lt;opcode&gt; started, or null. */
    private static SendWr current(CabiQps.Qp q) {
        int i = q.built - 1;
        return i >= 0 && i < q.batch.length ? q.batch[i] : null;
    }

    static void wr_rdma_write(long qp, int rkey, long remoteAddr) {
        SendWr w = next(qp, SendOpcode.RDMA_WRITE);
        if (w != null) remote(w, rkey, remoteAddr);
    }

    static void wr_rdma_write_imm(long qp, int rkey, long remoteAddr, int imm) {
        SendWr w = next(qp, SendOpcode.RDMA_WRITE_WITH_IMM);
        if (w == null) return;
        remote(w, rkey, remoteAddr);
        w.immData = Integer.reverseBytes(imm); // __be32
    }

    static void wr_rdma_read(long qp, int rkey, long remoteAddr) {
        SendWr w = next(qp, SendOpcode.RDMA_READ);
        if (w != null) remote(w, rkey, remoteAddr);
    }

    private static void remote(SendWr w, int rkey, long remoteAddr) {
        w.rkey = rkey;
        w.remoteAddr = remoteAddr;
    }

    static void wr_send(long qp) {
        next(qp, SendOpcode.SEND);
    }

    static void wr_send_imm(long qp, int imm) {
        SendWr w = next(qp, SendOpcode.SEND_WITH_IMM);
        if (w != null) w.immData = Integer.reverseBytes(imm);
    }

    static void wr_send_inv(long qp, int rkey) {
        SendWr w = next(qp, SendOpcode.SEND_WITH_INV);
        if (w != null) w.invalidateRkey = rkey;
    }

    static void wr_local_inv(long qp, int rkey) {
        SendWr w = next(qp, SendOpcode.LOCAL_INV);
        if (w != null) w.invalidateRkey = rkey;
    }

    static void wr_atomic_cmp_swp(long qp, int rkey, long remoteAddr, long compare, long swap) {
        SendWr w = next(qp, SendOpcode.ATOMIC_CMP_AND_SWP);
        if (w == null) return;
        remote(w, rkey, remoteAddr);
        w.compareAdd = compare;
        w.swap = swap;
    }

    static void wr_atomic_fetch_add(long qp, int rkey, long remoteAddr, long add) {
        SendWr w = next(qp, SendOpcode.ATOMIC_FETCH_AND_ADD);
        if (w == null) return;
        remote(w, rkey, remoteAddr);
        w.compareAdd = add;
    }

    static void wr_set_sge(long qp, int lkey, long addr, int length) {
        SendWr w = current(CabiQps.qp(qp));
        if (w == null) return;
        w.numSge = 1;
        w.sgList[0].set(addr, length, lkey);
    }

    static void wr_set_sge_list(long qp, long numSge, long list) {
        CabiQps.Qp q = CabiQps.qp(qp);
        SendWr w = current(q);
        if (w == null) return;
        int n = (int) Math.min(numSge, w.sgList.length);
        for (int i = 0; i < n; i++) {
            long e = list + i * SGE_SIZE;
            w.sgList[i].set(CabiMemory.getLong(e + SGE_ADDR), CabiMemory.getInt(e + SGE_LENGTH), CabiMemory.getInt(e + SGE_LKEY));
        }
        w.numSge = n;
        if (numSge > w.sgList.length) fail(q, 22, numSge + " SGEs, more than max_send_sge, " + w.sgList.length);
    }

    /** One buffer of inline data: copied now into the request's slot of the QP's inline buffer. */
    static void wr_set_inline_data(long qp, long addr, long length) {
        CabiQps.Qp q = CabiQps.qp(qp);
        SendWr w = current(q);
        if (w == null) return;
        w.numSge = 0;
        CabiQps.inline(q, w, q.built - 1, addr, length);
    }

    /** Several buffers, one after the other in the request's slot. */
    static void wr_set_inline_data_list(long qp, long numBuf, long list) {
        CabiQps.Qp q = CabiQps.qp(qp);
        SendWr w = current(q);
        if (w == null) return;
        w.numSge = 0;
        for (long i = 0; i < numBuf; i++) {
            CabiQps.inline(q, w, q.built - 1, CabiMemory.getLong(list + i * DATA_BUF_SIZE), CabiMemory.getLong(list + i * DATA_BUF_SIZE + 8));
        }
    }

    static void wr_set_ud_addr(long qp, long ah, int remoteQpn, int remoteQkey) {
        CabiQps.Qp q = CabiQps.qp(qp);
        SendWr w = current(q);
        if (w == null) return;
        var held = ah == 0 ? null : CabiResources.AHS.get(CabiMemory.getInt(ah + AH_HANDLE));
        if (held == null || held.struct().address() != ah) {
            fail(q, 22, "the address handle is not one of softrnic0");
            return;
        }
        w.ah = held.object();
        w.remoteQpn = remoteQpn;
        w.remoteQkey = remoteQkey;
    }
}
