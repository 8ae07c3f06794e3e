package org.softrnic.nic.mem;

import org.softrnic.verbs.Access;

/**
 * A memory window (IBTA 10.6.7): a remote-access grant over part of a registered region, bound and unbound
 * without re-registering. Type 1 binds through ibv_bind_mw and belongs to its PD; type 2 binds through a
 * BIND_MW work request, belongs to the QP that bound it, and is invalidated by LOCAL_INV or a SEND with
 * invalidate.
 */
public final class MemoryWindow {
    private final ProtectionDomain pd;
    private final int type;
    private int rkey;
    private MemoryRegion mr;
    private long va;
    private long length;
    private int access;
    private int boundQpn = -1;
    /** Type 1: the key the last ibv_bind_mw posted, which the window takes when that bind executes. */
    private volatile int postedRkey;

    public MemoryWindow(ProtectionDomain pd, int type, int rkey) {
        if (type != 1 && type != 2) throw new IllegalArgumentException("memory window type is 1 or 2");
        this.pd = pd;
        this.type = type;
        this.rkey = rkey;
        this.postedRkey = rkey;
    }

    public ProtectionDomain pd() { return pd; }
    public int type() { return type; }
    public int rkey() { return rkey; }

    /** Type 1: the rkey of the last bind posted (what rdma-core's ibv_bind_mw leaves in mw->rkey). */
    public int postedRkey() { return postedRkey; }

    /**
     * Type 1: the key for the next bind, ibv_inc_rkey of the last one posted, as rdma-core's rxe_bind_mw takes
     * it: every bind gets a new rkey, so holders of an earlier binding's key lose access.
     */
    public int nextBindRkey() {
        int k = postedRkey;
        postedRkey = incRkey(k);
        return postedRkey;
    }

    /** A bind whose post failed gives its key back, unless another was posted since (rdma-core moves mw->rkey on success only). */
    public void cancelBind(int key, int previous) {
        if (postedRkey == key) postedRkey = previous;
    }

    /** ibv_inc_rkey: the key byte (the low 8 bits) plus one, the rest unchanged. */
    public static int incRkey(int rkey) {
        return (rkey & ~0xff) | ((rkey + 1) & 0xff);
    }
    public MemoryRegion mr() { return mr; }
    public long va() { return va; }
    public long length() { return length; }
    public int access() { return access; }
    public boolean bound() { return mr != null; }
    /** The QP a type 2 window is bound through, or -1. */
    public int boundQpn() { return boundQpn; }

    /** Why a bind of {@code [va, va+length)} of {@code region} with {@code access} is refused, or null. */
    public String bindError(MemoryRegion region, long bindVa, long bindLength, int bindAccess, ProtectionDomain qpPd) {
        if (region == null) return "no such memory region";
        if (!region.valid()) return "the memory region is not valid";
        if (region.pd() != pd || qpPd != pd) return "the window, region and QP are in different PDs";
        if ((region.access() & Access.MW_BIND) == 0) return "the region was registered without IBV_ACCESS_MW_BIND";
        if ((bindAccess & ~Access.REMOTE_ANY) != 0) return "a window grants only remote access";
        if ((bindAccess & (Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)) != 0 && (region.access() & Access.LOCAL_WRITE) == 0) {
            return "remote write through a window needs a region with LOCAL_WRITE";
        }
        if (!MemoryRegion.inBounds(region.iova(), region.length(), bindVa, bindLength)) {
            return "the window does not lie inside the region";
        }
        if (type == 2 && bound()) return "a type 2 window must be invalidated before it is bound again";
        return null;
    }

    public void bind(MemoryRegion region, long bindVa, long bindLength, int bindAccess, int newRkey, int qpn) {
        if (mr != null) mr.unbindWindow();
        this.mr = region;
        this.va = bindVa;
        this.length = bindLength;
        this.access = bindAccess;
        this.rkey = newRkey;
        this.boundQpn = type == 2 ? qpn : -1;
        region.bindWindow();
    }

    /** Unbinds (LOCAL_INV, remote invalidate, or a zero-length type 1 bind). */
    public void invalidate() {
        if (mr != null) mr.unbindWindow();
        mr = null;
        length = 0;
        access = 0;
        boundQpn = -1;
    }

    /** Checks a remote access through this window from a QP of {@code qpPd} with number {@code qpn}. */
    public AccessError check(ProtectionDomain qpPd, int qpn, int needed, long at, long len) {
        if (mr == null || !mr.valid()) return AccessError.INVALIDATED;
        if (qpPd != pd) return AccessError.PD_MISMATCH;
        if (type == 2 && qpn != boundQpn) return AccessError.PD_MISMATCH;
        if ((access & needed) != needed) return AccessError.ACCESS_DENIED;
        if (!MemoryRegion.inBounds(va, length, at, len)) return AccessError.OUT_OF_BOUNDS;
        return mr.alive() ? null : AccessError.MEMORY_FREED;
    }

    @Override
    public String toString() {
        return String.format("MW%d[rkey=0x%08x %s]", type, rkey, mr == null ? "unbound"
                : String.format("va=0x%x len=%d", va, length));
    }
}
