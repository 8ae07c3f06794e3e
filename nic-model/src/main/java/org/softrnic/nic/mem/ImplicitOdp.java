package org.softrnic.nic.mem;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The address space behind an implicit ODP region. The kernel's implicit region covers all of a process's memory
 * and the NIC's page faults find whatever is mapped there; a Java device cannot see a process's page tables, so it
 * is shown the memory it may map ({@link #cover}), one part per segment, each with its own page table (mlx5 splits
 * its implicit region into child regions the same way). A part whose memory was freed fails every access and is
 * dropped when the device next meets it ({@link #dropDead}), its pages counted invalidated.
 * <p>
 * The parts are an immutable snapshot, sorted by address, replaced whole when one is added or dropped (on the
 * device's thread, rarely): a lookup, also from a thread that posts inline data, is a binary search over one
 * consistent snapshot that allocates nothing.
 */
public final class ImplicitOdp {
    /** One consistent set of parts: their start addresses and regions, sorted. */
    private record Parts(long[] starts, MemoryRegion[] regions) {
        static final Parts NONE = new Parts(new long[0], new MemoryRegion[0]);
    }

    private volatile Parts parts = Parts.NONE;
    /** The counts of parts already dropped, so that the region's own stay whole. */
    private long retiredFaults;
    private long retiredInvalidations;
    private long retiredPrefetch;

    /**
     * Shows the region {@code segment}'s memory; null, or why not (it is empty, or overlaps a part still there). Call
     * {@link #dropDead} first: a freed part may lie where the new memory is.
     */
    public String cover(MemoryRegion region, MemorySegment segment) {
        if (segment.byteSize() == 0) return "the segment is empty: there is no memory to show";
        long start = segment.address();
        long end = start + segment.byteSize();
        Parts now = parts;
        int n = now.starts.length;
        for (int i = 0; i < n; i++) {
            long ps = now.starts[i];
            if (start < ps + now.regions[i].length() && ps < end) {
                return String.format("[0x%x, 0x%x) overlaps memory already shown, [0x%x, 0x%x)", start, end, ps, ps + now.regions[i].length());
            }
        }
        int at = 0;
        while (at < n && now.starts[at] < start) at++;
        long[] starts = new long[n + 1];
        MemoryRegion[] regions = new MemoryRegion[n + 1];
        System.arraycopy(now.starts, 0, starts, 0, at);
        System.arraycopy(now.regions, 0, regions, 0, at);
        starts[at] = start;
        regions[at] = new MemoryRegion(region, segment);
        System.arraycopy(now.starts, at, starts, at + 1, n - at);
        System.arraycopy(now.regions, at, regions, at + 1, n - at);
        parts = new Parts(starts, regions);
        return null;
    }

    /** The part holding address {@code va}, or null. */
    MemoryRegion at(long va) {
        Parts p = parts;
        int lo = 0;
        int hi = p.starts.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(p.starts[mid], va) <= 0) lo = mid + 1;
            else hi = mid - 1;
        }
        if (hi < 0) return null;
        MemoryRegion r = p.regions[hi];
        return Long.compareUnsigned(va - p.starts[hi], r.length()) < 0 ? r : null;
    }

    /** Whether {@code [va, va + len)} lies in one part whose memory is still there. */
    AccessError check(long va, long len) {
        MemoryRegion p = at(va);
        if (p == null || !MemoryRegion.inBounds(p.iova(), p.length(), va, len)) return AccessError.NO_MEMORY;
        return p.alive() ? null : AccessError.MEMORY_FREED;
    }

    /** Drops the parts whose memory was freed (an munmap's invalidation): the pages they had mapped. */
    public int dropDead() {
        Parts now = parts;
        int dropped = 0;
        int kept = 0;
        long[] starts = new long[now.starts.length];
        MemoryRegion[] regions = new MemoryRegion[now.starts.length];
        for (int i = 0; i < now.starts.length; i++) {
            MemoryRegion r = now.regions[i];
            if (r.alive()) {
                starts[kept] = now.starts[i];
                regions[kept++] = r;
                continue;
            }
            OdpPages pages = r.odp();
            dropped += pages.invalidateAll();
            retiredFaults += pages.pageFaults();
            retiredInvalidations += pages.pageInvalidations();
            retiredPrefetch += pages.pagePrefetch();
        }
        if (kept != now.starts.length) parts = new Parts(Arrays.copyOf(starts, kept), Arrays.copyOf(regions, kept));
        return dropped;
    }

    /** Drops the translations of {@code [va, va + len)} ({@code len} read unsigned) in every part it touches: the pages dropped. */
    public int invalidate(long va, long len) {
        long last = Long.compareUnsigned(len, -1L - va) > 0 ? -1L : va + len - 1; // saturated, unsigned
        int dropped = 0;
        for (MemoryRegion r : parts.regions) {
            long s = r.iova();
            long e = s + r.length() - 1;
            long from = Long.compareUnsigned(s, va) > 0 ? s : va;
            long to = Long.compareUnsigned(e, last) < 0 ? e : last;
            if (len != 0 && Long.compareUnsigned(from, to) <= 0) dropped += r.odp().invalidate(from, to - from + 1);
        }
        return dropped;
    }

    public int parts() {
        return parts.starts.length;
    }

    /** Pages mapped (or being mapped) now, over every part. */
    public long mapped() {
        long t = 0;
        for (MemoryRegion r : parts.regions) t += r.odp().mapped();
        return t;
    }

    public long pageFaults() {
        long t = retiredFaults;
        for (MemoryRegion r : parts.regions) t += r.odp().pageFaults();
        return t;
    }

    public long pageInvalidations() {
        long t = retiredInvalidations;
        for (MemoryRegion r : parts.regions) t += r.odp().pageInvalidations();
        return t;
    }

    public long pagePrefetch() {
        long t = retiredPrefetch;
        for (MemoryRegion r : parts.regions) t += r.odp().pagePrefetch();
        return t;
    }
}
