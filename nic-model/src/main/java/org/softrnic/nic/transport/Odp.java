package org.softrnic.nic.transport;

import org.softrnic.nic.Counter;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.OdpPages;
import org.softrnic.nic.qp.Wqe;

/**
 * The device's page faults on ODP regions, as a ConnectX takes them: an access to a page the NIC has no translation
 * for starts a fault, which the driver serves after {@link #faultNanos}; until then the access waits. How it waits is
 * the role's: the responder answers a SEND or WRITE with an RNR NAK and drops a READ or atomic (the requester's retry
 * comes back to mapped pages), a requester holds its WQE. Nothing here runs for a pinned region.
 */
final class Odp {
    /** How long a fault takes to serve when none is configured: see docs/registration.md. */
    static final long DEFAULT_FAULT_NANOS = 500_000;

    private final Engine engine;
    long faultNanos = DEFAULT_FAULT_NANOS;
    org.softrnic.nic.OdpListener listener;

    Odp(Engine engine) {
        this.engine = engine;
    }

    /**
     * Whether {@code [va, va + len)} of region {@code mr} (a resolved one: see {@link MemoryRegion#resolve}) is mapped
     * now: 0 when it is (always, for a pinned region), else the time it will be, after starting a fault for the pages
     * that had none. {@code qpn}, {@code who} and {@code op} name the access for the listener (nothing is built for
     * it unless one listens).
     */
    long ready(MemoryRegion mr, long va, long len, int qpn, String who, Object op) {
        OdpPages pages = mr.odp();
        if (pages == null || len <= 0) return 0;
        long now = engine.now();
        long at = mr.pageAddress(va);
        long t = pages.readyAt(at, len, now);
        if (t <= now) return 0;
        if (t == OdpPages.UNMAPPED) {
            long ready = now + faultNanos;
            int n = pages.fault(at, len, ready);
            engine.counters.add(Counter.PAGE_FAULTS, n);
            if (listener != null) {
                listener.fault(now, qpn, String.format(java.util.Locale.ROOT, "page fault: %s %s touches %d unmapped page(s) of"
                        + " ODP region lkey 0x%x at 0x%x; the driver maps them in %.0f us", who, op, n, mr.lkey(), va, faultNanos / 1000.0));
            }
            t = pages.readyAt(at, len, now);
        }
        return t <= now ? 0 : t; // a fault served in no time (odp_fault_ns 0) holds nothing up
    }

    /**
     * {@link #ready} for {@code len} bytes starting {@code offset} bytes into {@code w}'s scatter/gather list (its
     * regions resolved): the latest of its entries' times, 0 when all are mapped.
     */
    long ready(Wqe w, long offset, long len, int qpn, String who, Object op) {
        long latest = 0;
        long skip = offset;
        long left = len;
        for (int i = 0; i < w.numSge && left > 0; i++) {
            long sgeLen = Integer.toUnsignedLong(w.sgeLength(i));
            if (skip >= sgeLen) {
                skip -= sgeLen;
                continue;
            }
            long chunk = Math.min(sgeLen - skip, left);
            MemoryRegion mr = w.sgeMr(i);
            if (mr != null) latest = Math.max(latest, ready(mr, w.sgeAddr(i) + skip, chunk, qpn, who, op));
            left -= chunk;
            skip = 0;
        }
        return latest;
    }

    /** The memory under {@code mr} (an ODP region, or a part of an implicit one) was freed: its translations go. */
    void gone(MemoryRegion mr) {
        MemoryRegion k = mr.keyed();
        int n = k.isImplicit() ? k.implicitParts().dropDead() : k.odp() != null ? k.odp().invalidateAll() : 0;
        engine.counters.add(Counter.PAGE_INVALIDATIONS, n);
    }

    /** ibv_advise_mr's prefetch of {@code [va, va + len)}: mapped at once when {@code flush} (the call waits), else after a fault's time. */
    int prefetch(MemoryRegion mr, long va, long len, boolean flush) {
        OdpPages pages = mr.odp();
        if (pages == null) return 0;
        long now = engine.now();
        int n = pages.prefetch(mr.pageAddress(va), len, flush ? now : now + faultNanos);
        engine.counters.add(Counter.PAGE_PREFETCH, n);
        return n;
    }

    /** The translations of {@code [va, va + len)} of {@code mr} dropped, as an MMU notifier drops them. */
    int invalidate(MemoryRegion mr, long va, long len) {
        int n;
        if (mr.isImplicit()) {
            n = mr.implicitParts().invalidate(va, len);
        } else if (mr.odp() != null) {
            n = mr.odp().invalidate(mr.pageAddress(va), len);
        } else {
            return 0;
        }
        engine.counters.add(Counter.PAGE_INVALIDATIONS, n);
        return n;
    }
}
