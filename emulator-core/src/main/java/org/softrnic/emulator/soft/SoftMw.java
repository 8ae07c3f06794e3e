package org.softrnic.emulator.soft;

import org.softrnic.verbs.MemoryWindow;

final class SoftMw extends SoftResource implements MemoryWindow {
    private final SoftPd pd;
    final org.softrnic.nic.mem.MemoryWindow mw;

    SoftMw(SoftPd pd, org.softrnic.nic.mem.MemoryWindow mw) {
        super(pd.device, pd);
        this.pd = pd;
        this.mw = mw;
    }

    @Override
    String describe() {
        return "MW type " + mw.type() + " rkey 0x" + Integer.toHexString(mw.rkey());
    }

    @Override
    String destroyVerb() {
        return "ibv_dealloc_mw";
    }

    @Override
    void destroy() {
        device.runner.run(() -> device.nic.deallocMw(mw));
    }

    @Override
    SoftContext contextOf() {
        return pd.contextOf();
    }

    /** Type 1: changed by ibv_bind_mw as soon as it is posted, as rdma-core does; type 2: by the bind itself. */
    @Override public int rkey() { return mw.type() == 1 ? mw.postedRkey() : mw.rkey(); }
    @Override public int type() { return mw.type(); }
}
