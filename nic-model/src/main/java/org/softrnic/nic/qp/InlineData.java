package org.softrnic.nic.qp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.IntFunction;
import org.softrnic.nic.mem.AccessError;
import org.softrnic.nic.mem.MemoryGone;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.Sge;

/**
 * Copies the data of an inline send at post time. Java cannot read a raw address safely, so an inline SGE
 * must still name registered memory through its lkey (rdma-core ignores the lkey of inline SGEs).
 */
public final class InlineData {
    private InlineData() {
    }

    /** Copies what {@code wr}'s SGEs name into {@code dest}; returns null, or why an SGE cannot be read. */
    public static String copy(SendWr wr, ProtectionDomain pd, IntFunction<MemoryRegion> byLkey, byte[] dest) {
        int at = 0;
        for (int i = 0; i < wr.numSge; i++) {
            Sge sge = wr.sgList[i];
            MemoryRegion mr = byLkey.apply(sge.lkey);
            var e = mr == null ? null : mr.check(pd, 0, sge.addr, Integer.toUnsignedLong(sge.length));
            if (e == AccessError.MEMORY_FREED) return freed(i, sge);
            if (mr == null || e != null) {
                return "inline SGE " + i + " is not inside a registered region (lkey 0x" + Integer.toHexString(sge.lkey) + ")";
            }
            mr = mr.resolve(sge.addr); // an implicit ODP region's part (the CPU copies inline data: no fault)
            if (mr == null) return freed(i, sge); // the part was dropped by the device since the check
            try {
                MemorySegment.copy(mr.segment(), ValueLayout.JAVA_BYTE, mr.offsetOf(sge.addr), dest, at, sge.length);
            } catch (IllegalStateException | WrongThreadException gone) {
                return freed(i, sge); // closed by another thread since the check
            }
            at += sge.length;
        }
        return null;
    }

    private static String freed(int i, Sge sge) {
        return "inline SGE " + i + " (lkey 0x" + Integer.toHexString(sge.lkey) + "): " + MemoryGone.FREED;
    }
}
