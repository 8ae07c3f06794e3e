package org.softrnic.emulator.ibverbs;

import org.softrnic.verbs.cm.CmProvider;
import org.softrnic.verbs.cm.EventChannel;

/** rdma_cm on real devices: librdmacm.so.1 through FFM, as the ibverbs provider reaches libibverbs. */
public final class IbvCmProvider implements CmProvider {
    @Override
    public String name() {
        return IbverbsProvider.NAME;
    }

    @Override
    public EventChannel createEventChannel() {
        return new IbvEventChannel();
    }
}
