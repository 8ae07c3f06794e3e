package org.softrnic.nic.mem;

import java.util.Arrays;

/**
 * The NIC's page table of an on-demand-paging region (IBV_ACCESS_ON_DEMAND): which 4 KiB pages of it the NIC
 * has a translation for. None at registration; a page fault maps pages after the fault's latency, an
 * invalidation (the memory unmapped, or an explicit one) drops them, and the next access faults again. Each page
 * holds the time its translation is ready: {@link #UNMAPPED} for none, a time in the future for a fault under way.
 * The counts are the kernel's per-region ODP counters (mlx5's {@code page_faults}, {@code page_invalidations},
 * {@code page_prefetch}), in pages.
 */
public final class OdpPages {
    public static final int PAGE = 4096;
    public static final long UNMAPPED = Long.MAX_VALUE;

    /** The address of the region's first page: the segment's page-aligned base. */
    private final long firstPageAddr;
    private final long[] readyAt;
    private long pageFaults;
    private long pageInvalidations;
    private long pagePrefetch;

    /** The pages under {@code length} bytes at native address {@code address}; all unmapped. */
    public OdpPages(long address, long length) {
        this.firstPageAddr = address & -PAGE;
        long last = (address + Math.max(length, 1) - 1) & -PAGE;
        long pages = (last - firstPageAddr) / PAGE + 1;
        if (pages > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("an ODP region of " + length + " bytes has too many pages");
        this.readyAt = new long[(int) pages];
        Arrays.fill(readyAt, UNMAPPED);
    }

    public int pages() {
        return readyAt.length;
    }

    private int page(long address) {
        return (int) ((address - firstPageAddr) / PAGE);
    }

    /** The last page {@code [address, address + len)} touches, clamped to the region (len read unsigned). */
    private int lastPage(long address, long len) {
        long end = Long.compareUnsigned(len, Long.MAX_VALUE - address) > 0 ? Long.MAX_VALUE : address + len - 1;
        return (int) Math.min(readyAt.length - 1L, Math.max(-1L, Math.floorDiv(end - firstPageAddr, PAGE)));
    }

    private int firstPage(long address) {
        return (int) Math.max(0L, Math.min(readyAt.length, Math.floorDiv(address - firstPageAddr, PAGE)));
    }

    /**
     * Whether every page under {@code [address, address + len)} is mapped at {@code now}; else the time the last of
     * them will be, once {@link #fault} has been asked for the missing ones ({@link #UNMAPPED} when one has no
     * fault under way).
     */
    public long readyAt(long address, long len, long now) {
        if (len <= 0) return now;
        long latest = Long.MIN_VALUE;
        for (int p = page(address), last = page(address + len - 1); p <= last; p++) latest = Math.max(latest, readyAt[p]);
        return latest;
    }

    /** Starts a fault for the unmapped pages of {@code [address, address + len)}, ready at {@code ready}: the pages it asked for. */
    public int fault(long address, long len, long ready) {
        int n = 0;
        for (int p = page(address), last = page(address + Math.max(len, 1) - 1); p <= last; p++) {
            if (readyAt[p] == UNMAPPED) {
                readyAt[p] = ready;
                n++;
            }
        }
        pageFaults += n;
        return n;
    }

    /**
     * Prefetch (ibv_advise_mr): the fault without an access waiting on it, counted as prefetched, not as faults. Pages
     * whose fault is under way are mapped by {@code ready} too, if that is sooner (a synchronous prefetch waits for them).
     */
    public int prefetch(long address, long len, long ready) {
        if (len == 0) return 0;
        int n = 0;
        for (int p = firstPage(address), last = lastPage(address, len); p <= last; p++) {
            if (readyAt[p] == UNMAPPED) n++;
            if (ready < readyAt[p]) readyAt[p] = ready;
        }
        pagePrefetch += n;
        return n;
    }

    /**
     * Drops the translations of {@code [address, address + len)} (an MMU notifier's invalidation), {@code len} read
     * unsigned and the range clamped to the region: the pages it dropped.
     */
    public int invalidate(long address, long len) {
        int n = 0;
        if (len == 0) return 0;
        for (int p = firstPage(address), last = lastPage(address, len); p <= last; p++) {
            if (readyAt[p] != UNMAPPED) {
                readyAt[p] = UNMAPPED;
                n++;
            }
        }
        pageInvalidations += n;
        return n;
    }

    /** Every page dropped: the memory under the region is gone. */
    public int invalidateAll() {
        return invalidate(firstPageAddr, (long) readyAt.length * PAGE);
    }

    /** Pages mapped (or being mapped) now. */
    public int mapped() {
        int n = 0;
        for (long t : readyAt) if (t != UNMAPPED) n++;
        return n;
    }

    public long pageFaults() {
        return pageFaults;
    }

    public long pageInvalidations() {
        return pageInvalidations;
    }

    public long pagePrefetch() {
        return pagePrefetch;
    }
}
