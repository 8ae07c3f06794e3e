package org.softrnic.nic.transport;

import org.softrnic.nic.mem.AccessError;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;

/**
 * An rkey to the region it reaches (rxe's lookup_mr and rxe_check_mw): a region's own key or a window's,
 * checked for PD, access and bounds; a refusal is explained in the responder's words.
 */
final class RkeyCheck {
    private final Engine engine;

    RkeyCheck(Engine engine) {
        this.engine = engine;
    }

    /** The region behind {@code rkey} when it allows {@code needed} on the range now, else null (and a refusal). */
    MemoryRegion resolve(PacketInfo pkt, int rkey, int needed, long va, long length) {
        ProtectionDomain pd = pkt.r.pd();
        MemoryRegion region = engine.keys.byRkey(rkey);
        if (region != null) {
            AccessError e = region.check(pd, needed, va, length);
            if (e == null) return region.resolve(va);
            if (e == AccessError.MEMORY_FREED) engine.odp.gone(region);
            QueuePair qp = pkt.ctx().qp;
            engine.refuse(qp, pkt.psn, Refusals.region(e, region, qp, Refusals.asked(pkt.what(), va, length, rkey), needed, va, length));
            return null;
        }
        MemoryWindow mw = engine.keys.windowByRkey(rkey);
        if (mw == null) {
            engine.refuse(pkt.qpn(), pkt.psn, Refusals.noKey(engine.keys, Refusals.asked(pkt.what(), va, length, rkey), rkey));
            return null;
        }
        AccessError e = mw.check(pd, pkt.qpn(), needed, va, length);
        if (e != null) {
            QueuePair qp = pkt.ctx().qp;
            engine.refuse(qp, pkt.psn, Refusals.window(e, mw, qp, Refusals.asked(pkt.what(), va, length, rkey), needed, va, length));
            return null;
        }
        return mw.mr(); // the window's addresses are the region's
    }

    /**
     * SEND with Invalidate: only a fast-register region of the QP's PD with no window bound, or a type 2
     * window bound through this QP, can be invalidated remotely; false leaves the key as it was.
     */
    boolean invalidate(QpContext c, int rkey) {
        MemoryRegion target = engine.keys.byRkey(rkey);
        if (target != null && target.isFastReg() && target.pd() == c.pd && target.boundWindows() == 0) {
            target.invalidate();
            return true;
        }
        MemoryWindow mw = engine.keys.windowByRkey(rkey);
        if (mw != null && mw.type() == 2 && mw.boundQpn() == c.qp.qpn()) {
            mw.invalidate();
            return true;
        }
        return false;
    }
}
