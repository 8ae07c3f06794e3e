package org.softrnic.emulator.perf;

import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.MrCache;

/**
 * perf's --reg-per-message: each request's buffer is registered when it is posted and deregistered when it completes,
 * as an application that does not cache registrations does; with --mr-cache the registration comes from an
 * {@link MrCache} instead, and goes back to it. What each outstanding request holds is kept by its slot.
 */
final class PerMessageRegistration implements AutoCloseable {
    /** How perf registers its buffers. */
    enum Mode { ONCE, PER_MESSAGE, CACHED }

    private final PerfSide side;
    private final int depth;
    private final AutoCloseable[] held;
    private final MrCache cache;

    PerMessageRegistration(PerfSide side, Mode mode) {
        this.side = side;
        this.depth = side.o.txDepth();
        this.held = new AutoCloseable[side.qps.size() * depth];
        this.cache = mode == Mode.CACHED ? new MrCache(side.pd, PerfOptions.MAX_REGISTERED) : null;
    }

    /** Registers QP {@code q}'s request number {@code n}'s buffer ({@code length} bytes at {@code addr}); its lkey. */
    int register(int q, long n, long addr, int length) {
        MemorySegment buf = side.mr.segment().asSlice(addr - side.mr.addr(), Math.max(1, length));
        int slot = q * depth + (int) (n % depth);
        if (cache != null) {
            MrCache.Lease l = cache.get(buf, Access.LOCAL_WRITE);
            held[slot] = l;
            return l.lkey();
        }
        var mr = side.pd.regMr(buf, Access.LOCAL_WRITE);
        held[slot] = mr;
        return mr.lkey();
    }

    /** QP {@code q}'s request number {@code n} completed: its registration goes. */
    void release(int q, long n) {
        int slot = q * depth + (int) (n % depth);
        AutoCloseable h = held[slot];
        held[slot] = null;
        if (h != null) close(h);
    }

    private static void close(AutoCloseable h) {
        try {
            h.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** What requests that never completed still hold, and the cache. */
    @Override
    public void close() {
        RuntimeException first = null;
        for (int i = 0; i < held.length; i++) {
            AutoCloseable h = held[i];
            held[i] = null;
            try {
                if (h != null) close(h);
            } catch (RuntimeException e) {
                if (first == null) first = e; // every one is closed; the first failure is reported after
            }
        }
        try {
            if (cache != null) cache.close();
        } catch (RuntimeException e) {
            if (first == null) first = e;
        }
        if (first != null) throw first;
    }
}
