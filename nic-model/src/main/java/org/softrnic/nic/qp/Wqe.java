package org.softrnic.nic.qp;

import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.verbs.Sge;

/**
 * What every work queue entry carries: its wr_id and its scatter/gather entries, flat, as a hardware WQE carries
 * its data segments after its control segment. The first SGE and the region it resolved to are fields of the
 * entry itself; more SGEs (a QP created with max_sge above 1) lie in arrays made with the slot. A request with
 * one SGE then reads and writes one object, not a list, its SGE objects and an array of their regions: with
 * thousands of QPs taking turns, every object is another line from memory.
 */
public abstract class Wqe {
    public long wrId;
    public int numSge;
    private long addr0;
    private int length0;
    private int lkey0;
    /** The region SGE 0 lies in, resolved and checked when the engine takes the entry. */
    private MemoryRegion mr0;
    /** SGEs 1 to max_sge - 1, or null when max_sge is 1. */
    private final long[] addrs;
    private final int[] lengths;
    private final int[] lkeys;
    private final MemoryRegion[] mrs;

    protected Wqe(int maxSge) {
        int more = Math.max(0, maxSge - 1);
        addrs = more == 0 ? null : new long[more];
        lengths = more == 0 ? null : new int[more];
        lkeys = more == 0 ? null : new int[more];
        mrs = more == 0 ? null : new MemoryRegion[more];
    }

    /** How many SGEs the entry holds room for (max_sge). */
    public final int maxSge() {
        return addrs == null ? 1 : addrs.length + 1;
    }

    public final long sgeAddr(int i) {
        return i == 0 ? addr0 : addrs[i - 1];
    }

    /** The SGE's length as the verbs give it: an unsigned 32-bit value in an int. */
    public final int sgeLength(int i) {
        return i == 0 ? length0 : lengths[i - 1];
    }

    public final int sgeLkey(int i) {
        return i == 0 ? lkey0 : lkeys[i - 1];
    }

    public final MemoryRegion sgeMr(int i) {
        return i == 0 ? mr0 : mrs[i - 1];
    }

    public final void sgeMr(int i, MemoryRegion mr) {
        if (i == 0) mr0 = mr;
        else mrs[i - 1] = mr;
    }

    public final void sge(int i, long addr, int length, int lkey) {
        if (i == 0) {
            addr0 = addr;
            length0 = length;
            lkey0 = lkey;
        } else {
            addrs[i - 1] = addr;
            lengths[i - 1] = length;
            lkeys[i - 1] = lkey;
        }
    }

    /** Copies the first {@code n} SGEs of {@code list} in, and the count; returns their total length. */
    protected final long copySges(Sge[] list, int n) {
        numSge = n;
        long total = 0;
        for (int i = 0; i < n; i++) {
            Sge s = list[i];
            sge(i, s.addr, s.length, s.lkey);
            total += Integer.toUnsignedLong(s.length);
        }
        return total;
    }

    /** Copies wr_id and the SGEs of {@code o}, which has room for as many. */
    protected final void copySges(Wqe o) {
        wrId = o.wrId;
        numSge = o.numSge;
        for (int i = 0; i < o.numSge; i++) sge(i, o.sgeAddr(i), o.sgeLength(i), o.sgeLkey(i));
    }
}
