package org.softrnic.emulator.soft;

import org.softrnic.verbs.cm.CmProvider;
import org.softrnic.verbs.cm.EventChannel;

/** rdma_cm over the soft RNICs open in this JVM. */
public final class SoftCmProvider implements CmProvider {
    @Override
    public String name() {
        return SoftProvider.NAME;
    }

    @Override
    public EventChannel createEventChannel() {
        return new SoftEventChannel();
    }
}
