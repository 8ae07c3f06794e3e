package org.softrnic.nic.transport;

import java.lang.foreign.MemorySegment;
import org.softrnic.nic.mem.AccessError;
import org.softrnic.nic.mem.KeyTable;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.verbs.Sge;

/** Gather and scatter between a scatter/gather list and packet memory, after checking every lkey once. */
final class Sges {
    private Sges() {}

    /** Resolves each SGE's lkey into {@code mrs} and checks PD, access and bounds; null when all pass. */
    static AccessError resolve(KeyTable keys, ProtectionDomain pd, Sge[] sges, MemoryRegion[] mrs, int n, int needed) {
        for (int i = 0; i < n; i++) {
            Sge s = sges[i];
            MemoryRegion mr = keys.byLkey(s.lkey);
            if (mr == null) return AccessError.INVALID_KEY;
            AccessError e = mr.check(pd, needed, s.addr, Integer.toUnsignedLong(s.length));
            if (e != null) return e;
            mrs[i] = mr;
        }
        return null;
    }

    /**
     * Whether the regions {@link #resolve} found for the list still stand: each still registered under its
     * lkey, valid, and still covering its SGE with the access needed (a fast-register region invalidated and
     * mapped again under the same key may lie elsewhere now). Checked again each time data is placed, as
     * rxe's copy_data looks every lkey up again.
     */
    static boolean stillValid(KeyTable keys, ProtectionDomain pd, int needed, Sge[] sges, MemoryRegion[] mrs, int n) {
        for (int i = 0; i < n; i++) {
            MemoryRegion mr = mrs[i];
            Sge s = sges[i];
            if (mr == null || keys.byLkey(s.lkey) != mr || mr.check(pd, needed, s.addr, Integer.toUnsignedLong(s.length)) != null) {
                return false;
            }
        }
        return true;
    }

    /** Copies {@code len} bytes starting {@code offset} bytes into the list, into {@code dst}. */
    static void gather(Sge[] sges, MemoryRegion[] mrs, int n, long offset, MemorySegment dst, long dstOff, int len) {
        copy(sges, mrs, n, offset, dst, dstOff, len, true);
    }

    /** Copies {@code len} bytes from {@code src} into the list, starting {@code offset} bytes into it. */
    static void scatter(Sge[] sges, MemoryRegion[] mrs, int n, long offset, MemorySegment src, long srcOff, int len) {
        copy(sges, mrs, n, offset, src, srcOff, len, false);
    }

    private static void copy(Sge[] sges, MemoryRegion[] mrs, int n, long offset, MemorySegment pkt, long pktOff,
                             int len, boolean toPacket) {
        long skip = offset;
        int done = 0;
        for (int i = 0; i < n && done < len; i++) {
            long sgeLen = Integer.toUnsignedLong(sges[i].length);
            if (skip >= sgeLen) {
                skip -= sgeLen;
                continue;
            }
            int chunk = (int) Math.min(sgeLen - skip, len - done);
            MemoryRegion mr = mrs[i];
            long memOff = mr.offsetOf(sges[i].addr) + skip;
            if (toPacket) MemorySegment.copy(mr.segment(), memOff, pkt, pktOff + done, chunk);
            else MemorySegment.copy(pkt, pktOff + done, mr.segment(), memOff, chunk);
            done += chunk;
            skip = 0;
        }
        if (done != len) throw new IllegalStateException("SGE list shorter than " + (offset + len) + " bytes");
    }
}
