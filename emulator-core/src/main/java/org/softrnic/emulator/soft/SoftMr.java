package org.softrnic.emulator.soft;

import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.MemoryRegion;

final class SoftMr extends SoftResource implements MemoryRegion {
    private final SoftPd pd;
    final org.softrnic.nic.mem.MemoryRegion mr;
    /** The bytes its registration locked, given back when it is deregistered. */
    private final long pinned;

    SoftMr(SoftPd pd, org.softrnic.nic.mem.MemoryRegion mr, long pinned) {
        super(pd.device, pd);
        this.pd = pd;
        this.mr = mr;
        this.pinned = pinned;
    }

    @Override
    String describe() {
        return "MR lkey 0x" + Integer.toHexString(mr.lkey());
    }

    @Override
    String destroyVerb() {
        return "ibv_dereg_mr";
    }

    @Override
    void destroy() {
        device.runner.run(() -> device.nic.deregMr(mr));
        device.publishRegion(mr, false);
        device.unlock(pinned);
    }

    @Override
    void afterClose() {
        SoftRnic.charge(device.regCost().deregNanos(pinned / SoftRnic.PAGE)); // as a kernel deregisters, in parallel
    }

    @Override
    SoftContext contextOf() {
        return pd.contextOf();
    }

    @Override
    public void cover(MemorySegment memory) {
        synchronized (device) {
            checkOpen("odp_cover");
            SoftPd.checkReachable("odp_cover", memory);
            device.runner.run(() -> device.nic.odpCover(mr, memory));
        }
    }

    @Override public int lkey() { return mr.lkey(); }
    @Override public int rkey() { return mr.rkey(); }
    @Override public long addr() { return mr.iova(); }
    @Override public long length() { return mr.length(); }
    @Override public MemorySegment segment() { return mr.segment(); }
}
