package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.MemoryWindow;

/** struct ibv_mw, allocated and freed through the ops table (ibv_alloc_mw and ibv_dealloc_mw are inline). */
final class IbvMw extends IbvResource implements MemoryWindow {
    final IbvPd pd;
    private final int type;

    IbvMw(IbvPd pd, MemorySegment mw) {
        super(mw, pd);
        this.pd = pd;
        this.type = mw.get(JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.MW_TYPE);
    }


    @Override
    String describe() {
        return "MW 0x" + Long.toHexString(ptr.address());
    }

    @Override
    String destroyVerb() {
        return "ibv_dealloc_mw";
    }

    @Override
    void destroy() {
        int rc;
        try {
            rc = (int) IbvOps.DEALLOC_MW.invokeExact(IbvOps.op(pd.context.ptr, org.softrnic.emulator.rdmacore.RdmaCoreLayout.OPS_DEALLOC_MW), ptr);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (rc != 0) throw IbvLib.failed(destroyVerb(), rc, describe());
    }

    /** The device writes a new rkey on every bind, so it is read each time. */
    @Override
    public int rkey() {
        return live("ibv_mw rkey").get(JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.MW_RKEY);
    }

    @Override
    public int type() {
        return type;
    }
}
