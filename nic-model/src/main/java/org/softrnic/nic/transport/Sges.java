package org.softrnic.nic.transport;

import java.lang.foreign.MemorySegment;
import org.softrnic.nic.mem.AccessError;
import org.softrnic.nic.mem.KeyTable;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.Wqe;
import org.softrnic.verbs.Access;

/** Gather and scatter between a WQE's scatter/gather list and packet memory, after checking every lkey once. */
final class Sges {
    private Sges() {}

    /** Resolves each SGE's lkey into the entry's regions and checks PD, access and bounds; null when all pass. */
    static AccessError resolve(KeyTable keys, Odp odp, ProtectionDomain pd, Wqe w, int needed) {
        for (int i = 0; i < w.numSge; i++) {
            MemoryRegion mr = keys.byLkey(w.sgeLkey(i));
            if (mr == null) return AccessError.INVALID_KEY;
            AccessError e = mr.check(pd, needed, w.sgeAddr(i), Integer.toUnsignedLong(w.sgeLength(i)));
            if (e == AccessError.MEMORY_FREED) odp.gone(mr);
            if (e != null) return e;
            w.sgeMr(i, mr.resolve(w.sgeAddr(i)));
        }
        return null;
    }

    /**
     * Why the list fails the check {@link #resolve} makes, in words with the numbers: the first entry that fails,
     * its range and lkey, and what its region covers; when every entry passes now, that one was replaced since.
     */
    static String explain(KeyTable keys, ProtectionDomain pd, Wqe w, int needed, int qpn) {
        for (int i = 0; i < w.numSge; i++) {
            long addr = w.sgeAddr(i);
            long len = Integer.toUnsignedLong(w.sgeLength(i));
            String sge = String.format("SGE %d [0x%x, +%d) with lkey 0x%x", i, addr, len, w.sgeLkey(i));
            MemoryRegion mr = keys.byLkey(w.sgeLkey(i));
            if (mr == null) {
                return sge + ": no region on this device has that lkey (a deregistered region, an rkey or a key of"
                        + " another device)";
            }
            AccessError e = mr.check(pd, needed, addr, len);
            if (e == null) continue;
            if (e == AccessError.OUT_OF_BOUNDS) {
                return sge + " lies outside its region: " + Refusals.bounds("region", mr.iova(), mr.length(), addr, len);
            }
            return sge + ": " + switch (e) {
                case PD_MISMATCH -> String.format("its region is in PD %d, QP 0x%x in PD %d", mr.pd().handle(), qpn, pd.handle());
                case ACCESS_DENIED -> "its region lacks " + Access.describe(needed & ~mr.access())
                        + ", which data placed there needs (it was registered with " + Access.describe(mr.access()) + ")";
                case INVALIDATED -> "its region was invalidated";
                case MEMORY_FREED -> Refusals.FREED;
                case NO_MEMORY -> Refusals.NO_MEMORY;
                default -> e.name().toLowerCase(java.util.Locale.ROOT);
            };
        }
        return "a region of its list was deregistered or re-registered since it was posted";
    }

    /**
     * Whether the regions {@link #resolve} found for the list still stand: each still registered under its
     * lkey, valid, and still covering its SGE with the access needed (a fast-register region invalidated and
     * mapped again under the same key may lie elsewhere now). Checked again each time data is placed, as
     * rxe's copy_data looks every lkey up again.
     */
    static boolean stillValid(KeyTable keys, ProtectionDomain pd, int needed, Wqe w) {
        for (int i = 0; i < w.numSge; i++) {
            MemoryRegion mr = w.sgeMr(i);
            if (mr == null || keys.byLkey(w.sgeLkey(i)) != mr.keyed() || mr.check(pd, needed, w.sgeAddr(i), Integer.toUnsignedLong(w.sgeLength(i))) != null) {
                return false;
            }
        }
        return true;
    }

    /** Copies {@code len} bytes starting {@code offset} bytes into the list, into {@code dst}. */
    static void gather(Wqe w, long offset, MemorySegment dst, long dstOff, int len) {
        copy(w, offset, dst, dstOff, len, true);
    }

    /** Copies {@code len} bytes from {@code src} into the list, starting {@code offset} bytes into it. */
    static void scatter(Wqe w, long offset, MemorySegment src, long srcOff, int len) {
        copy(w, offset, src, srcOff, len, false);
    }

    private static void copy(Wqe w, long offset, MemorySegment pkt, long pktOff, int len, boolean toPacket) {
        long skip = offset;
        int done = 0;
        for (int i = 0; i < w.numSge && done < len; i++) {
            long sgeLen = Integer.toUnsignedLong(w.sgeLength(i));
            if (skip >= sgeLen) {
                skip -= sgeLen;
                continue;
            }
            int chunk = (int) Math.min(sgeLen - skip, len - done);
            MemoryRegion mr = w.sgeMr(i);
            long memOff = mr.offsetOf(w.sgeAddr(i)) + skip;
            if (toPacket) mr.read(memOff, pkt, pktOff + done, chunk, i);
            else mr.write(pkt, pktOff + done, memOff, chunk, i);
            done += chunk;
            skip = 0;
        }
        if (done != len) throw new IllegalStateException("SGE list shorter than " + (offset + len) + " bytes");
    }
}
