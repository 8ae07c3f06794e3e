package org.softrnic.verbs;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.TreeMap;

/**
 * A registration cache for one PD, on any provider, as UCX's rcache keeps one: {@link #get} hands out a registration
 * that covers the memory asked for with at least the access asked for, registering it only when none does. Leases are
 * counted; a registration no lease holds stays cached, and the least recently used of those are deregistered once the
 * cached bytes pass the budget. A registration whose memory was freed (its segment's arena closed) is never handed
 * out again: it is dropped when met, so memory freed and allocated again at the same address gets a new registration
 * and its own keys. A segment whose scope never closes (the global one, a native address reinterpreted) cannot tell the
 * cache that its memory went: an application that frees such memory calls {@link #invalidate}, as UCX's memory hooks
 * tell its cache. A registration refused for lack of locked memory (ENOMEM) is tried again once the idle ones are gone.
 */
public final class MrCache implements AutoCloseable {
    /** What the cache did: lookups it answered from a registration, ones it registered for, and registrations it dropped. */
    public record Stats(long hits, long misses, long evictions, long invalidations, long cachedBytes, int registrations) { }

    private final ProtectionDomain pd;
    private final long budgetBytes;
    /** Every cached registration by its memory's start, for the covering lookup. */
    private final TreeMap<Long, List<Entry>> byStart = new TreeMap<>();
    /** The registrations no lease holds, least recently used first. */
    private final LinkedHashMap<Entry, Boolean> idle = new LinkedHashMap<>(16, 0.75f, true);
    private long cachedBytes;
    /** The longest registration's length: a covering one starts at most this far below what is asked. */
    private long longest;
    private int registrations;
    private long hits;
    private long misses;
    private long evictions;
    private long invalidations;
    private boolean closed;

    /** A cache registering in {@code pd}, keeping at most {@code budgetBytes} of registrations no lease holds and more. */
    public MrCache(ProtectionDomain pd, long budgetBytes) {
        if (budgetBytes < 0) throw new IllegalArgumentException("a cache's budget cannot be negative");
        this.pd = pd;
        this.budgetBytes = budgetBytes;
    }

    /** One registration in the cache: its memory, its access, and how many leases hold it. */
    private static final class Entry {
        final MemorySegment segment;
        final int access;
        final MemoryRegion mr;
        int leases;
        /** Forgotten by the cache (its memory gone, or the cache closed) while a lease held it. */
        boolean dropped;

        Entry(MemorySegment segment, int access, MemoryRegion mr) {
            this.segment = segment;
            this.access = access;
            this.mr = mr;
        }

        long start() {
            return segment.address();
        }

        boolean covers(MemorySegment s, int wanted) {
            if ((access & wanted) != wanted || s.isNative() != segment.isNative()) return false;
            if (!s.isNative() && !segment.heapBase().equals(s.heapBase())) return false;
            return start() <= s.address() && s.address() + s.byteSize() <= start() + segment.byteSize();
        }
    }

    /** A registration held for one use: its keys cover the memory asked for; closing it gives it back to the cache. */
    public final class Lease implements AutoCloseable {
        private final Entry entry;
        private boolean released;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        /** The registration, which may cover more than the memory asked for. */
        public MemoryRegion mr() {
            return entry.mr;
        }

        public int lkey() {
            return entry.mr.lkey();
        }

        public int rkey() {
            return entry.mr.rkey();
        }

        @Override
        public void close() {
            release(this);
        }
    }

    /**
     * A lease on a registration that covers {@code segment} with at least {@code access}: a cached one when there is
     * one whose memory is still there, else a new one (which may fail as {@link ProtectionDomain#regMr} does). A miss
     * registers under the cache's lock, so other threads' lookups wait for it, as they would in UCX's rcache.
     */
    public synchronized Lease get(MemorySegment segment, int access) {
        if (closed) throw new IllegalStateException("the registration cache is closed");
        Entry found = lookup(segment, access);
        if (found != null) {
            hits++;
        } else {
            misses++;
            found = new Entry(segment, access, register(segment, access));
            byStart.computeIfAbsent(found.start(), k -> new ArrayList<>()).add(found);
            cachedBytes += segment.byteSize();
            longest = Math.max(longest, segment.byteSize());
            registrations++;
        }
        if (found.leases++ == 0) idle.remove(found);
        evict(budgetBytes); // a miss may have passed the budget: the idle ones go now, not at the next release
        return new Lease(found);
    }

    /** A registration of {@code s}; refused for lack of locked memory, tried again once the idle ones are deregistered. */
    private MemoryRegion register(MemorySegment s, int access) {
        try {
            return pd.regMr(s, access);
        } catch (VerbsException e) {
            if (e.errno() != Errno.ENOMEM || idle.isEmpty()) throw e;
            evict(0);
            return pd.regMr(s, access);
        }
    }

    /** A live registration covering {@code s}; registrations met whose memory is gone are dropped on the way. */
    private Entry lookup(MemorySegment s, int access) {
        // every registration that starts at or before s and no further below it than the longest one is long
        long lowest = s.address() - longest;
        var at = byStart.floorEntry(s.address());
        while (at != null && at.getKey() >= lowest) {
            List<Entry> list = at.getValue();
            long start = at.getKey();
            for (int i = list.size() - 1; i >= 0; i--) {
                Entry e = list.get(i);
                if (!e.segment.scope().isAlive()) {
                    drop(e, true); // may empty the list and remove its key
                    continue;
                }
                if (e.covers(s, access)) return e;
            }
            at = byStart.lowerEntry(start);
        }
        return null;
    }

    /**
     * Forgets every registration that overlaps {@code length} bytes at {@code address}: the application freed that
     * memory (needed only where the segment's scope cannot say so). Leased ones are deregistered when their leases close.
     */
    public synchronized void invalidate(long address, long length) {
        long lowest = address - longest;
        for (var at = byStart.lowerEntry(address + length); at != null && at.getKey() >= lowest; at = byStart.lowerEntry(at.getKey())) {
            for (Entry e : List.copyOf(at.getValue())) {
                if (e.start() + e.segment.byteSize() > address) drop(e, true);
            }
        }
    }

    /** Deregisters idle registrations, least recently used first, until at most {@code bytes} are cached. */
    private void evict(long bytes) {
        while (cachedBytes > bytes && !idle.isEmpty()) {
            Entry victim = idle.keySet().iterator().next();
            drop(victim, false);
            evictions++;
        }
    }

    private synchronized void release(Lease l) {
        if (l.released) return;
        l.released = true;
        Entry e = l.entry;
        if (--e.leases > 0) return;
        if (e.dropped) {
            e.mr.close(); // dropped while leased: deregistered now that nothing uses it
            return;
        }
        if (closed || !e.segment.scope().isAlive()) {
            drop(e, !closed);
            return;
        }
        idle.put(e, Boolean.TRUE);
        evict(budgetBytes);
    }

    /** Deregisters {@code e} and forgets it; {@code stale}: its memory was gone. */
    private void drop(Entry e, boolean stale) {
        List<Entry> list = byStart.get(e.start());
        if (list == null || !list.remove(e)) return;
        if (list.isEmpty()) byStart.remove(e.start());
        idle.remove(e);
        cachedBytes -= e.segment.byteSize();
        registrations--;
        if (stale) invalidations++;
        if (e.leases == 0) e.mr.close(); // forgotten first: a failure here leaves nothing half-cached
        else e.dropped = true; // deregistered when its last lease goes
    }

    public synchronized Stats stats() {
        return new Stats(hits, misses, evictions, invalidations, cachedBytes, registrations);
    }

    /** Deregisters every registration no lease holds; the others go as their leases close. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        RuntimeException first = null;
        for (Entry e : List.copyOf(idle.keySet())) {
            try {
                drop(e, false);
            } catch (RuntimeException x) {
                // each one gets its deregistration; the first failure is reported after
                if (first == null) first = x;
                else first.addSuppressed(x);
            }
        }
        if (first != null) throw first;
    }

    @Override
    public String toString() {
        Stats s = stats();
        return "MrCache[" + s.registrations() + " registrations, " + s.cachedBytes() + " bytes, " + s.hits() + " hits, " + s.misses()
                + " misses]";
    }
}
