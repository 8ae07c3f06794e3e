package org.softrnic.emulator.soft;

import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.AddressVector;

final class SoftAh extends SoftResource implements AddressHandle {
    private static int next = 1;
    private final SoftPd pd;
    private final int id;
    final AddressVector av;

    SoftAh(SoftPd pd, AddressVector av) {
        super(pd.device, pd);
        this.pd = pd;
        this.av = av;
        synchronized (SoftAh.class) {
            id = next++;
        }
    }

    @Override
    String describe() {
        return "AH " + id + " to " + av.dgid();
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_ah";
    }

    @Override
    void destroy() {
    }

    @Override
    SoftContext contextOf() {
        return pd.contextOf();
    }

    @Override
    public AddressVector attr() {
        return av;
    }
}
