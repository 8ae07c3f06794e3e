package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.MemoryRegion;

/**
 * struct ibv_mr over a native segment. The segment must outlive the registration: the device may read and
 * write it until {@link #close}.
 */
final class IbvMr extends IbvResource implements MemoryRegion {
    final IbvPd pd;
    private final MemorySegment segment;
    private final int lkey;
    private final int rkey;
    private final long addr;
    private final long length;

    IbvMr(IbvPd pd, MemorySegment mr, MemorySegment segment) {
        super(mr, pd);
        this.pd = pd;
        this.segment = segment;
        this.lkey = mr.get(JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.MR_LKEY);
        this.rkey = mr.get(JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.MR_RKEY);
        this.addr = mr.get(JAVA_LONG, org.softrnic.emulator.rdmacore.RdmaCoreLayout.MR_ADDR);
        this.length = mr.get(JAVA_LONG, org.softrnic.emulator.rdmacore.RdmaCoreLayout.MR_LENGTH);
        pd.regions.put(lkey, this);
    }

    @Override
    String describe() {
        return "MR lkey 0x" + Integer.toHexString(lkey);
    }

    @Override
    String destroyVerb() {
        return "ibv_dereg_mr";
    }

    @Override
    void destroy() {
        IbvLib.check(destroyVerb(), describe(), IbvLib.get().deregMr, ptr);
        pd.regions.remove(lkey, this);
    }

    @Override
    public int lkey() {
        return lkey;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public long addr() {
        return addr;
    }

    /** Whether [{@code from}, {@code from + n}) lies inside the region. */
    boolean covers(long from, long n) {
        return n >= 0 && from >= addr && from - addr <= length - n;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public MemorySegment segment() {
        return segment;
    }
}
