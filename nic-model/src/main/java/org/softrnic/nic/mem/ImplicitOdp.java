package org.softrnic.nic.mem;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The address space behind an implicit ODP region. The kernel's implicit region covers all of a process's memory
 * and the NIC's page faults find whatever is mapped there; a Java device cannot see a process's page tables, so it
 * is shown the memory it may map ({@link #cover}), one part per segment, each with its own page table (mlx5 splits
 * its implicit region into child regions the same way). A part whose memory was freed fails every access and is
 * dropped when the device next meets it ({@link #dropDead}), its pages counted invalidated. Parts are kept sorted by
 * address, so a lookup is a binary search that allocates nothing.
 */
public final class ImplicitOdp {
    private long[] starts = new long[4];
    private MemoryRegion[] parts = new MemoryRegion[4];
    private int n;
    /** The counts of parts already dropped, so that the region's own stay whole. */
    private long retiredFaults;
    private long retiredInvalidations;
    private long retiredPrefetch;

    /**
     * Shows the region {@code segment}'s memory; null, or why not (it overlaps a part still there). Call
     * {@link #dropDead} first: a freed part may lie where the new memory is.
     */
    public String cover(MemoryRegion region, MemorySegment segment) {
        long start = segment.address();
        long end = start + segment.byteSize();
        for (int i = n - 1; i >= 0; i--) {
            MemoryRegion p = parts[i];
            long ps = starts[i];
            if (start < ps + p.length() && ps < end) {
                return String.format("[0x%x, 0x%x) overlaps memory already shown, [0x%x, 0x%x)", start, end, ps, ps + p.length());
            }
        }
        if (n == parts.length) {
            starts = Arrays.copyOf(starts, n * 2);
            parts = Arrays.copyOf(parts, n * 2);
        }
        int at = 0;
        while (at < n && starts[at] < start) at++;
        System.arraycopy(starts, at, starts, at + 1, n - at);
        System.arraycopy(parts, at, parts, at + 1, n - at);
        starts[at] = start;
        parts[at] = new MemoryRegion(region, segment);
        n++;
        return null;
    }

    /** The part holding address {@code va}, or null. */
    MemoryRegion at(long va) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], va) <= 0) lo = mid + 1;
            else hi = mid - 1;
        }
        if (hi < 0) return null;
        MemoryRegion p = parts[hi];
        return Long.compareUnsigned(va - starts[hi], p.length()) < 0 ? p : null;
    }

    /** Whether {@code [va, va + len)} lies in one part whose memory is still there. */
    AccessError check(long va, long len) {
        MemoryRegion p = at(va);
        if (p == null || !MemoryRegion.inBounds(p.iova(), p.length(), va, len)) return AccessError.NO_MEMORY;
        return p.alive() ? null : AccessError.MEMORY_FREED;
    }

    /** Drops the parts whose memory was freed (an munmap's invalidation): the pages they had mapped. */
    public int dropDead() {
        int dropped = 0;
        for (int i = n - 1; i >= 0; i--) if (!parts[i].alive()) dropped += drop(i);
        return dropped;
    }

    private int drop(int i) {
        OdpPages pages = parts[i].odp();
        int dropped = pages.invalidateAll();
        retiredFaults += pages.pageFaults();
        retiredInvalidations += pages.pageInvalidations();
        retiredPrefetch += pages.pagePrefetch();
        System.arraycopy(starts, i + 1, starts, i, n - i - 1);
        System.arraycopy(parts, i + 1, parts, i, n - i - 1);
        parts[--n] = null;
        return dropped;
    }

    /** Drops the translations of {@code [va, va + len)} in every part it touches: the pages dropped. */
    public int invalidate(long va, long len) {
        int dropped = 0;
        for (int i = 0; i < n; i++) {
            long s = starts[i];
            long e = s + parts[i].length();
            long from = Math.max(s, va);
            long to = Math.min(e, va + len);
            if (from < to) dropped += parts[i].odp().invalidate(from, to - from);
        }
        return dropped;
    }

    public int parts() {
        return n;
    }

    public long pageFaults() {
        long t = retiredFaults;
        for (int i = 0; i < n; i++) t += parts[i].odp().pageFaults();
        return t;
    }

    public long pageInvalidations() {
        long t = retiredInvalidations;
        for (int i = 0; i < n; i++) t += parts[i].odp().pageInvalidations();
        return t;
    }

    public long pagePrefetch() {
        long t = retiredPrefetch;
        for (int i = 0; i < n; i++) t += parts[i].odp().pagePrefetch();
        return t;
    }
}
