package org.softrnic.nic.transport;

import org.softrnic.nic.mem.AccessError;
import org.softrnic.nic.mem.KeyTable;
import org.softrnic.nic.mem.MemoryGone;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.SendWqe;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.WcStatus;

/** The responder's reasons for refusing a request, in words with the numbers (see {@link org.softrnic.nic.Diagnostics}). */
final class Refusals {
    private Refusals() {
    }

    /** What was asked: "a WRITE of 4096 bytes at 0x7f00 with rkey 0x1234". */
    static String asked(String what, long va, long length, int rkey) {
        return String.format("%s of %d bytes at 0x%x with rkey 0x%x", what, length, va, rkey);
    }

    /** No region or window has the rkey; an lkey or a key of another device's region is the usual cause. */
    static String noKey(KeyTable keys, String asked, int rkey) {
        MemoryRegion byLkey = keys.byLkey(rkey);
        if (byLkey != null) {
            return asked + ": no region or window has that rkey; it is the lkey of a region registered without remote"
                    + " access (an lkey was passed where an rkey belongs)";
        }
        return asked + ": no region or window on this device has that rkey (a key of another device, a deregistered"
                + " region, or a corrupted one)";
    }

    static String region(AccessError e, MemoryRegion mr, QueuePair qp, String asked, int needed, long va, long length) {
        return asked + ": " + switch (e) {
            case INVALIDATED -> "the region was invalidated";
            case PD_MISMATCH -> String.format("the region is in PD %d, QP 0x%x in PD %d (an rkey of another PD)", mr.pd().handle(),
                    qp.qpn(), qp.pd().handle());
            case ACCESS_DENIED -> "the region lacks " + Access.describe(needed & ~mr.access()) + " (it was registered with "
                    + Access.describe(mr.access()) + ")";
            case OUT_OF_BOUNDS -> bounds("region", mr.iova(), mr.length(), va, length);
            case MEMORY_FREED -> FREED;
            case NO_MEMORY -> NO_MEMORY;
            default -> e.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    static final String FREED = MemoryGone.FREED;
    /** An implicit ODP region's address the device was never shown memory at: the fault has nothing to map. */
    static final String NO_MEMORY = "the implicit ODP region has no memory at that address (the page fault found nothing to"
            + " map; show the device the memory first)";

    /** A send work request's own error: "wr_id 4 (RDMA_WRITE) completes with IBV_WC_LOC_PROT_ERR: why". */
    static String completes(SendWqe w, WcStatus status, String why) {
        return String.format("wr_id %d (%s) completes with %s: %s", w.wrId, w.opcode, status.ibvName(), why);
    }

    static String window(AccessError e, MemoryWindow mw, QueuePair qp, String asked, int needed, long va, long length) {
        return asked + ": " + switch (e) {
            case INVALIDATED -> "the memory window is not bound (or its region was invalidated)";
            case PD_MISMATCH -> mw.type() == 2 && mw.pd() == qp.pd()
                    ? String.format("the type 2 window is bound to QP 0x%x, not 0x%x", mw.boundQpn(), qp.qpn())
                    : String.format("the window is in PD %d, QP 0x%x in PD %d", mw.pd().handle(), qp.qpn(), qp.pd().handle());
            case ACCESS_DENIED -> "the window lacks " + Access.describe(needed & ~mw.access()) + " (it was bound with "
                    + Access.describe(mw.access()) + ")";
            case OUT_OF_BOUNDS -> bounds("window", mw.va(), mw.length(), va, length);
            case MEMORY_FREED -> FREED;
            default -> e.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /** By how many bytes [va, va+length) leaves [base, base+size). */
    static String bounds(String what, long base, long size, long va, long length) {
        String range = String.format("the %s is [0x%x, 0x%x)", what, base, base + size);
        if (Long.compareUnsigned(va, base) < 0) {
            return String.format("it starts %s bytes before the %s's start; %s", Long.toUnsignedString(base - va), what, range);
        }
        long over = (va - base) + length - size;
        return String.format("it ends %d byte%s past the %s's end; %s", over, over == 1 ? "" : "s", what, range);
    }
}
