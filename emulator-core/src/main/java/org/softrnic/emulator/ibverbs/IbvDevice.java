package org.softrnic.emulator.ibverbs;

import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevice;

/** A device libibverbs listed; opening it lists again, so no stale struct ibv_device is ever used. */
record IbvDevice(String name, long guid) implements RdmaDevice {
    @Override
    public String provider() {
        return IbverbsProvider.NAME;
    }

    @Override
    public RdmaContext open() {
        return new IbvContext(this, IbverbsProvider.open(name));
    }
}
