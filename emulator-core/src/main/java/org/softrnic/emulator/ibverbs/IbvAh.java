package org.softrnic.emulator.ibverbs;

import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.AddressVector;

/** struct ibv_ah. */
final class IbvAh extends IbvResource implements AddressHandle {
    private final AddressVector attr;

    IbvAh(IbvPd pd, MemorySegment ah, AddressVector attr) {
        super(ah, pd);
        this.attr = attr;
    }


    @Override
    String describe() {
        return "AH to " + attr.dgid();
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_ah";
    }

    @Override
    void destroy() {
        IbvLib.check(destroyVerb(), describe(), IbvLib.get().destroyAh, ptr);
    }

    @Override
    public AddressVector attr() {
        return attr;
    }
}
