package org.softrnic.emulator.soft;

import java.lang.foreign.MemorySegment;
import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SharedReceiveQueue;
import org.softrnic.verbs.VerbsException;

final class SoftPd extends SoftResource implements ProtectionDomain {
    private final SoftContext context;
    final org.softrnic.nic.mem.ProtectionDomain pd;

    SoftPd(SoftContext context, org.softrnic.nic.mem.ProtectionDomain pd) {
        super(context.device, context);
        this.context = context;
        this.pd = pd;
    }

    @Override
    String describe() {
        return "PD " + pd.handle();
    }

    @Override
    String destroyVerb() {
        return "ibv_dealloc_pd";
    }

    @Override
    void destroy() {
        device.runner.run(() -> device.nic.deallocPd(pd));
    }

    @Override
    SoftContext contextOf() {
        return context;
    }

    @Override
    public RdmaContext context() {
        return context;
    }

    @Override
    public MemoryRegion regMr(MemorySegment segment, int access) {
        SoftMr made;
        long pinned;
        synchronized (device) {
            checkOpen("ibv_reg_mr");
            checkReachable("ibv_reg_mr", segment);
            pinned = SoftRnic.pinned(segment);
            device.lock("ibv_reg_mr", pinned);
            boolean registered = false;
            try {
                var mr = device.runner.call(() -> device.nic.regMr(pd, segment, access));
                device.publishRegion(mr, true);
                made = new SoftMr(this, mr, pinned);
                registered = true;
            } finally {
                if (!registered) device.unlock(pinned);
            }
        }
        // the cost outside the device's lock: a kernel registers for several threads at once
        SoftRnic.charge(device.regCost().regNanos(pinned / SoftRnic.PAGE));
        return made;
    }

    /** A thread that owns no memory: a segment it may touch is one the device may touch from any thread. */
    private static final Thread NO_OWNER = Thread.ofVirtual().unstarted(() -> { });

    /**
     * The device reads and writes the memory from threads of its own, so a segment confined to one thread is
     * refused on every fabric, also where the caller's thread would happen to drive the device (the virtual one):
     * a test must fail where the application would.
     */
    static void checkReachable(String verb, MemorySegment segment) {
        if (!segment.scope().isAlive()) {
            throw new VerbsException(verb, Errno.EFAULT, "the segment's memory was freed (its arena is closed)");
        }
        if (!segment.isAccessibleBy(NO_OWNER)) {
            throw new VerbsException(verb, Errno.EINVAL, "the segment is confined to another thread;"
                    + " the device moves data on its own thread, so register memory of a shared or global arena");
        }
    }

    @Override
    public MemoryWindow allocMw(int type) {
        synchronized (device) {
            checkOpen("ibv_alloc_mw");
            return new SoftMw(this, device.runner.call(() -> device.nic.allocMw(pd, type)));
        }
    }

    @Override
    public SharedReceiveQueue createSrq(int maxWr, int maxSge, int srqLimit) {
        synchronized (device) {
            checkOpen("ibv_create_srq");
            return SoftSrq.create(this, maxWr, maxSge, srqLimit);
        }
    }

    @Override
    public QueuePair createQp(QpInitAttr init) {
        synchronized (device) {
            checkOpen("ibv_create_qp");
            return SoftQp.create(this, init);
        }
    }

    @Override
    public AddressHandle createAh(AddressVector attr) {
        synchronized (device) {
            checkOpen("ibv_create_ah");
            if (attr == null) throw new VerbsException("ibv_create_ah", Errno.EINVAL, "no address");
            if (attr.sgidIndex() >= device.nic.gids().size()) {
                throw new VerbsException("ibv_create_ah", Errno.EINVAL, "sgid_index " + attr.sgidIndex() + " is empty");
            }
            SoftAh ah = new SoftAh(this, attr);
            device.runner.run(() -> device.resolve(attr.dgid()));
            return ah;
        }
    }
}
