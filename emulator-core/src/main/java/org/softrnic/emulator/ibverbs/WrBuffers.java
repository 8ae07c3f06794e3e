package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.Sge;
import org.softrnic.verbs.VerbsException;

/**
 * One native work request with its SGE array and the bad_wr slot, allocated once per queue and filled field
 * by field on every post, so posting allocates nothing. The owner serialises posts on its monitor.
 */
final class WrBuffers {
    final MemorySegment wr;
    final MemorySegment sges;
    final MemorySegment badWr;
    final int maxSge;

    WrBuffers(Arena arena, long wrSize, int maxSge) {
        this.maxSge = Math.max(1, maxSge);
        this.wr = arena.allocate(wrSize, 8);
        this.sges = arena.allocate(SGE_SIZE * this.maxSge, 8);
        this.badWr = arena.allocate(ADDRESS);
    }

    /** Copies {@code n} SGEs; more than the queue was created with is EINVAL, as the device would say. */
    void sges(Sge[] list, int n, String verb, String owner) {
        if (n < 0 || n > maxSge || n > list.length) {
            throw new VerbsException(verb, Errno.EINVAL, owner + " takes at most " + maxSge + " SGEs per request, not " + n);
        }
        for (int i = 0; i < n; i++) {
            long at = i * SGE_SIZE;
            sges.set(JAVA_LONG, at + SGE_ADDR, list[i].addr);
            sges.set(JAVA_INT, at + SGE_LENGTH, list[i].length);
            sges.set(JAVA_INT, at + SGE_LKEY, list[i].lkey);
        }
    }

    /** struct ibv_recv_wr for {@code r}. */
    MemorySegment recv(RecvWr r, String verb, String owner) {
        sges(r.sgList, r.numSge, verb, owner);
        wr.set(JAVA_LONG, RWR_WR_ID, r.wrId);
        wr.set(ADDRESS, RWR_NEXT, MemorySegment.NULL);
        wr.set(ADDRESS, RWR_SG_LIST, sges);
        wr.set(JAVA_INT, RWR_NUM_SGE, r.numSge);
        return wr;
    }

    /** Calls a post verb through its ops-table pointer; a non-zero return is the errno. */
    void post(MemorySegment fn, MemorySegment object, String verb, String owner) {
        int rc;
        try {
            rc = (int) IbvOps.POST.invokeExact(fn, object, wr, badWr);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (rc != 0) throw IbvLib.failed(verb, rc, owner);
    }
}
