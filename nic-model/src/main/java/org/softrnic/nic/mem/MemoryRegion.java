package org.softrnic.nic.mem;

import java.lang.foreign.MemorySegment;

/**
 * A registered memory region: a caller's MemorySegment seen at I/O virtual addresses
 * {@code [iova, iova + length)}. Every access, local or remote, goes through {@link #check}, which uses
 * overflow-safe unsigned arithmetic, so nothing outside the segment is ever touched.
 */
public final class MemoryRegion {
    private final ProtectionDomain pd;
    /** A fast-register region (ib_alloc_mr): registered empty, mapped and re-keyed by REG_MR work requests. */
    private final boolean fastReg;
    private final long maxLength;
    private MemorySegment segment;
    private long iova;
    private int access;
    private int lkey;
    private int rkey;
    private int boundWindows;
    private boolean valid;
    /** The NIC's page table of an ODP region (IBV_ACCESS_ON_DEMAND), or null: a pinned region is always mapped. */
    private OdpPages odp;
    /** An implicit ODP region's memory, by address: the parts of the address space the device was shown. */
    private ImplicitOdp implicit;
    /** The implicit region a part of it belongs to (its keys, PD and access), or null. */
    private MemoryRegion parent;

    public MemoryRegion(ProtectionDomain pd, MemorySegment segment, long iova, int access, int lkey, int rkey) {
        this.pd = pd;
        this.segment = segment;
        this.iova = iova;
        this.access = access;
        this.lkey = lkey;
        this.rkey = rkey;
        this.fastReg = false;
        this.maxLength = segment.byteSize();
        this.valid = true;
    }

    private MemoryRegion(ProtectionDomain pd, long maxLength, int key) {
        this.pd = pd;
        this.segment = MemorySegment.NULL;
        this.maxLength = maxLength;
        this.lkey = key;
        this.rkey = key;
        this.fastReg = true;
        this.valid = false;
    }

    /** An ODP region over {@code segment}: registered with no page mapped. */
    public static MemoryRegion onDemand(ProtectionDomain pd, MemorySegment segment, long iova, int access, int lkey, int rkey) {
        MemoryRegion mr = new MemoryRegion(pd, segment, iova, access, lkey, rkey);
        mr.odp = new OdpPages(segment.isNative() ? segment.address() : 0, segment.byteSize());
        return mr;
    }

    /** An implicit ODP region (ibv_reg_mr with address 0 and length SIZE_MAX): every address, mapped as it is touched. */
    public static MemoryRegion implicitOdp(ProtectionDomain pd, int access, int lkey, int rkey) {
        MemoryRegion mr = new MemoryRegion(pd, MemorySegment.NULL, 0, access, lkey, rkey);
        mr.implicit = new ImplicitOdp();
        return mr;
    }

    /** One part of implicit region {@code parent}: the memory of {@code segment}, at its native addresses. */
    MemoryRegion(MemoryRegion parent, MemorySegment segment) {
        this(parent.pd, segment, segment.address(), parent.access, parent.lkey, parent.rkey);
        this.parent = parent;
        this.odp = new OdpPages(segment.address(), segment.byteSize());
    }

    /** An empty fast-register region of up to {@code maxLength} bytes, invalid until a REG_MR maps it. */
    public static MemoryRegion fastReg(ProtectionDomain pd, long maxLength, int key) {
        return new MemoryRegion(pd, maxLength, key);
    }

    public boolean isFastReg() { return fastReg; }
    public long maxLength() { return maxLength; }

    /** REG_MR: maps the region onto {@code seg} at {@code newIova} with {@code newAccess} and key {@code key}. */
    public void map(MemorySegment seg, long newIova, int newAccess, int key) {
        this.segment = seg;
        this.iova = newIova;
        this.access = newAccess;
        this.lkey = key;
        this.rkey = key;
        this.valid = true;
    }

    public ProtectionDomain pd() { return pd; }
    public MemorySegment segment() { return segment; }
    public long iova() { return iova; }
    /** The region's length; an implicit region's is SIZE_MAX, -1 as a signed long. */
    public long length() { return implicit != null ? -1L : segment.byteSize(); }
    public int access() { return access; }
    public int lkey() { return lkey; }
    /** The rkey; like rxe, 0 when the region grants no remote access. */
    public int rkey() { return rkey; }
    public boolean valid() { return valid && (parent == null || parent.valid); }
    /** The page table of an ODP region, or null for a pinned one (and for an implicit region itself: see {@link #resolve}). */
    public OdpPages odp() { return odp; }
    public boolean isImplicit() { return implicit != null; }
    /** An implicit region's parts, or null. */
    public ImplicitOdp implicitParts() { return implicit; }
    /** The region filed under the keys: this one, or the implicit region a part belongs to. */
    public MemoryRegion keyed() { return parent != null ? parent : this; }

    /**
     * The region that holds the checked address {@code va}: this one, or for an implicit ODP region the part of
     * the address space that holds it (what {@link #check} found).
     */
    public MemoryRegion resolve(long va) {
        return implicit == null ? this : implicit.at(va);
    }
    public int boundWindows() { return boundWindows; }

    public void bindWindow() { boundWindows++; }
    public void unbindWindow() { boundWindows--; }
    public void invalidate() { valid = false; }

    /**
     * Checks an access of {@code len} bytes at {@code va} needing {@code needed} access flags from {@code user}'s PD.
     *
     * @return null when allowed, else why not
     */
    public AccessError check(ProtectionDomain user, int needed, long va, long len) {
        if (!valid()) return AccessError.INVALIDATED;
        if (user != pd) return AccessError.PD_MISMATCH;
        if ((access & needed) != needed) return AccessError.ACCESS_DENIED;
        if (implicit != null) return implicit.check(va, len);
        if (!inBounds(iova, segment.byteSize(), va, len)) return AccessError.OUT_OF_BOUNDS;
        // hardware would find the pages unmapped; the JDK keeps a closed segment's size, so ask its scope
        return alive() ? null : AccessError.MEMORY_FREED;
    }

    /** Whether the memory under the region is still there (its arena not closed). */
    public boolean alive() {
        return segment.scope().isAlive();
    }

    /** Copies {@code len} bytes at {@code offset} into the region out to {@code dst}; {@code sge} names the entry for an error. */
    public void read(long offset, MemorySegment dst, long dstOffset, long len, int sge) {
        try {
            MemorySegment.copy(segment, offset, dst, dstOffset, len);
        } catch (IllegalStateException | WrongThreadException e) {
            throw new MemoryGone(this, sge, e);
        }
    }

    /** Copies {@code len} bytes from {@code src} into the region at {@code offset}. */
    public void write(MemorySegment src, long srcOffset, long offset, long len, int sge) {
        try {
            MemorySegment.copy(src, srcOffset, segment, offset, len);
        } catch (IllegalStateException | WrongThreadException e) {
            throw new MemoryGone(this, sge, e);
        }
    }

    /** Reads the 8 bytes at {@code offset} in {@code layout}'s order (an atomic's target). */
    public long getLong(java.lang.foreign.ValueLayout.OfLong layout, long offset) {
        try {
            return segment.get(layout, offset);
        } catch (IllegalStateException | WrongThreadException e) {
            throw new MemoryGone(this, -1, e);
        }
    }

    /** Writes the 8 bytes at {@code offset} in {@code layout}'s order. */
    public void setLong(java.lang.foreign.ValueLayout.OfLong layout, long offset, long value) {
        try {
            segment.set(layout, offset, value);
        } catch (IllegalStateException | WrongThreadException e) {
            throw new MemoryGone(this, -1, e);
        }
    }

    /** {@code [va, va+len)} inside {@code [base, base+size)}, in unsigned arithmetic that cannot overflow. */
    public static boolean inBounds(long base, long size, long va, long len) {
        if (len < 0) return false;
        long off = va - base;
        return Long.compareUnsigned(va, base) >= 0 && Long.compareUnsigned(off, size) <= 0
                && Long.compareUnsigned(len, size - off) <= 0;
    }

    /** The native address of the byte at the checked address {@code va}: what a page table is indexed by. */
    public long pageAddress(long va) {
        return (segment.isNative() ? segment.address() : 0) + (va - iova);
    }

    /** Offset into {@link #segment()} of the checked address {@code va}. */
    public long offsetOf(long va) {
        return va - iova;
    }

    @Override
    public String toString() {
        return String.format("MR[lkey=0x%08x rkey=0x%08x iova=0x%x len=%d access=0x%x%s]", lkey, rkey, iova,
                segment.byteSize(), access, odp != null || implicit != null ? " ODP" : "");
    }
}
