package org.softrnic.nic;

import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.AddressVector;

/**
 * The verbs handles a work request names, over the engine's own objects: what a provider's objects are to
 * the engine, which finds its objects by their keys. Closing them is the provider's business, not a test's.
 */
public final class Handles {
    private Handles() {
    }

    public static org.softrnic.verbs.MemoryRegion mr(org.softrnic.nic.mem.MemoryRegion mr) {
        return new org.softrnic.verbs.MemoryRegion() {
            @Override public int lkey() { return mr.lkey(); }
            @Override public int rkey() { return mr.rkey(); }
            @Override public long addr() { return mr.iova(); }
            @Override public long length() { return mr.length(); }
            @Override public MemorySegment segment() { return mr.segment(); }
            @Override public void close() { throw new UnsupportedOperationException("deregister with Nic.deregMr"); }
        };
    }

    public static org.softrnic.verbs.MemoryWindow mw(org.softrnic.nic.mem.MemoryWindow mw) {
        return new org.softrnic.verbs.MemoryWindow() {
            @Override public int rkey() { return mw.rkey(); }
            @Override public int type() { return mw.type(); }
            @Override public void close() { throw new UnsupportedOperationException("deallocate with Nic.deallocMw"); }
        };
    }

    public static AddressHandle ah(AddressVector av) {
        return new AddressHandle() {
            @Override public AddressVector attr() { return av; }
            @Override public void close() { }
        };
    }
}
