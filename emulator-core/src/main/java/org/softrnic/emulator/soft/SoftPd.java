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
            // an ODP region pins nothing, so the locked-memory limit does not count it (as ib_umem_odp_get does not)
            pinned = (access & org.softrnic.verbs.Access.ON_DEMAND) != 0 ? 0 : SoftRnic.pinned(segment);
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

    @Override
    public MemoryRegion regImplicitOdpMr(int access) {
        SoftMr made;
        synchronized (device) {
            checkOpen("ibv_reg_mr");
            var mr = device.runner.call(() -> device.nic.regImplicitOdp(pd, access));
            device.publishRegion(mr, true);
            made = new SoftMr(this, mr, 0);
        }
        SoftRnic.charge(device.regCost().regNanos(0));
        return made;
    }

    @Override
    public void adviseMr(int advice, int flags, org.softrnic.verbs.Sge... sgList) {
        String verb = "ibv_advise_mr";
        if (advice < ADVISE_MR_ADVICE_PREFETCH || advice > ADVISE_MR_ADVICE_PREFETCH_NO_FAULT) {
            throw new VerbsException(verb, Errno.EOPNOTSUPP, "advice " + advice + " is not one of IBV_ADVISE_MR_ADVICE_PREFETCH*");
        }
        if ((flags & ~ADVISE_MR_FLAG_FLUSH) != 0) throw new VerbsException(verb, Errno.EINVAL, "unknown flags 0x" + Integer.toHexString(flags));
        if (sgList == null || sgList.length == 0) throw new VerbsException(verb, Errno.EINVAL, "no scatter/gather entries");
        boolean flush = (flags & ADVISE_MR_FLAG_FLUSH) != 0;
        boolean write = advice == ADVISE_MR_ADVICE_PREFETCH_WRITE;
        int[] lkeys = new int[sgList.length];
        long[] addrs = new long[sgList.length];
        long[] lengths = new long[sgList.length];
        for (int i = 0; i < sgList.length; i++) {
            lkeys[i] = sgList[i].lkey;
            addrs[i] = sgList[i].addr;
            lengths[i] = Integer.toUnsignedLong(sgList[i].length);
        }
        synchronized (device) {
            checkOpen(verb);
            // every live page of a segment is present to the CPU, so PREFETCH_NO_FAULT maps what PREFETCH would
            device.runner.run(() -> device.nic.odpPrefetch(pd, lkeys, addrs, lengths, write, flush));
        }
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
