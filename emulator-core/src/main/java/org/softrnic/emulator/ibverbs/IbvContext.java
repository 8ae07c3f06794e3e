package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.CompletionChannel;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.PortAttr;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevice;
import org.softrnic.verbs.VerbsException;

/** struct ibv_context: queries, the objects made from it, and its async events. */
final class IbvContext extends IbvResource implements RdmaContext {
    private static final String[] PORT_STATES = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};
    private static final String[] LINK_LAYERS = {"Unspecified", "InfiniBand", "Ethernet"};

    private final IbvDevice device;
    /** What async events and CQ events name, by native address, so that they come back as this API's objects. */
    private final Map<Long, Object> objects = new ConcurrentHashMap<>();
    private final int asyncFd;

    /** librdmacm opened it, and closes it: close() here gives up the object only. */
    private final boolean owned;

    IbvContext(IbvDevice device, MemorySegment context) {
        this(device, context, true);
    }

    IbvContext(IbvDevice device, MemorySegment context, boolean owned) {
        super(context.reinterpret(CONTEXT_ASYNC_FD + 4));
        this.device = device;
        this.owned = owned;
        this.asyncFd = ptr.get(JAVA_INT, CONTEXT_ASYNC_FD);
        Fds.nonBlocking(asyncFd, "ibv_open_device");
    }

    @Override
    String describe() {
        return "device " + device.name();
    }

    @Override
    String destroyVerb() {
        return "ibv_close_device";
    }

    @Override
    void destroy() {
        if (owned) IbvLib.check("ibv_close_device", describe(), IbvLib.get().closeDevice, ptr);
    }

    /** librdmacm's contexts, one per device for the process (ucma_init_device), wrapped once each. */
    private static final Map<Long, IbvContext> RDMA_CM = new ConcurrentHashMap<>();

    /**
     * The context librdmacm opened for an rdma_cm id ({@code id->verbs}), as this provider's, one wrapper per
     * native context for the whole process; librdmacm owns and closes it, so no channel closes the wrapper.
     */
    static IbvContext ofRdmaCm(MemorySegment context) {
        return RDMA_CM.computeIfAbsent(context.address(), k -> wrapRdmaCm(context));
    }

    private static IbvContext wrapRdmaCm(MemorySegment context) {
        MemorySegment c = context.reinterpret(CONTEXT_ASYNC_FD + 4);
        MemorySegment dev = c.get(ADDRESS, CONTEXT_DEVICE).reinterpret(DEVICE_NAME + 64);
        String name = dev.getString(DEVICE_NAME);
        long guid = (long) IbvLib.call(IbvLib.get().getDeviceGuid, dev);
        return new IbvContext(new IbvDevice(name, Long.reverseBytes(guid)), c, false);
    }

    void remember(MemorySegment native_, Object api) {
        objects.put(native_.address(), api);
    }

    /** After the destroy verb: removes only {@code api}'s mapping, which a new object at the same address may have replaced. */
    void forget(MemorySegment native_, Object api) {
        objects.remove(native_.address(), api);
    }

    Object known(long address) {
        return objects.get(address);
    }

    @Override
    public RdmaDevice device() {
        return device;
    }

    @Override
    public DeviceAttributes queryDevice() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(DEVICE_ATTR_SIZE, 8);
            IbvLib.check("ibv_query_device", describe(), IbvLib.get().queryDevice, live("ibv_query_device"), d);
            int atomicCap = d.get(JAVA_INT, DA_ATOMIC_CAP);
            return new DeviceAttributes(d.get(JAVA_INT, DA_MAX_QP), d.get(JAVA_INT, DA_MAX_QP_WR), d.get(JAVA_INT, DA_MAX_SGE),
                    d.get(JAVA_INT, DA_MAX_SGE_RD), d.get(JAVA_INT, DA_MAX_CQ), d.get(JAVA_INT, DA_MAX_CQE), d.get(JAVA_INT, DA_MAX_MR),
                    d.get(JAVA_LONG, DA_MAX_MR_SIZE), d.get(JAVA_INT, DA_MAX_PD), d.get(JAVA_INT, DA_MAX_QP_RD_ATOM),
                    d.get(JAVA_INT, DA_MAX_QP_INIT_RD_ATOM), d.get(JAVA_INT, DA_MAX_SRQ), d.get(JAVA_INT, DA_MAX_SRQ_WR),
                    d.get(JAVA_INT, DA_MAX_SRQ_SGE), 0, d.get(JAVA_INT, DA_MAX_MW),
                    DeviceAttributes.AtomicCap.values()[Math.min(Math.max(atomicCap, 0), 2)], d.get(JAVA_INT, DA_MAX_AH));
        }
    }

    @Override
    public PortAttr queryPort(int port) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(PORT_ATTR_SIZE, 8);
            IbvLib.check("ibv_query_port", describe() + " port " + port, IbvLib.get().queryPort, live("ibv_query_port"), (byte) port, p);
            int state = p.get(JAVA_INT, PA_STATE);
            int linkLayer = p.get(JAVA_BYTE, PA_LINK_LAYER);
            return new PortAttr(state < PORT_STATES.length ? PORT_STATES[state] : "UNKNOWN", Mtu.ofValue(p.get(JAVA_INT, PA_MAX_MTU)),
                    Mtu.ofValue(p.get(JAVA_INT, PA_ACTIVE_MTU)), p.get(JAVA_INT, PA_GID_TBL_LEN),
                    Short.toUnsignedInt(p.get(JAVA_SHORT, PA_PKEY_TBL_LEN)),
                    linkLayer >= 0 && linkLayer < LINK_LAYERS.length ? LINK_LAYERS[linkLayer] : "Unknown");
        }
    }

    @Override
    public Gid queryGid(int port, int index) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment g = a.allocate(GID_SIZE, 8);
            int rc = (int) IbvLib.call(IbvLib.get().queryGid, live("ibv_query_gid"), (byte) port, index, g);
            if (rc != 0) throw IbvLib.failed("ibv_query_gid", IbvLib.errno(), describe() + " port " + port + " GID index " + index);
            Gid gid = Gid.of(g.toArray(JAVA_BYTE));
            // as the soft provider: an empty slot is an error, not a zero GID to connect to by mistake
            if (gid.hi() == 0 && gid.lo() == 0) {
                throw new VerbsException("ibv_query_gid", Errno.EINVAL, describe() + " port " + port + " GID index " + index + " is empty");
            }
            return gid;
        }
    }

    @Override
    public ProtectionDomain allocPd() {
        synchronized (this) {
            return new IbvPd(this, IbvLib.created("ibv_alloc_pd", describe(), IbvLib.get().allocPd, live("ibv_alloc_pd")));
        }
    }

    @Override
    public CompletionChannel createCompChannel() {
        synchronized (this) {
            return new IbvChannel(this, IbvLib.created("ibv_create_comp_channel", describe(), IbvLib.get().createCompChannel,
                    live("ibv_create_comp_channel")));
        }
    }

    @Override
    public CompletionQueue createCq(int cqe, CompletionChannel channel) {
        synchronized (this) {
            IbvChannel ch = channel == null ? null : own(channel, IbvChannel.class, "ibv_create_cq");
            return holding("ibv_create_cq", () -> {
                MemorySegment cq = IbvLib.created("ibv_create_cq", describe() + " (" + cqe + " entries)", IbvLib.get().createCq,
                        live("ibv_create_cq"), cqe, MemorySegment.NULL, ch == null ? MemorySegment.NULL : ch.ptr, 0);
                IbvCq api = new IbvCq(this, ch, cq);
                remember(cq, api);
                return api;
            }, ch);
        }
    }

    @Override
    public AsyncEvent getAsyncEvent(Duration timeout) throws InterruptedException {
        live("ibv_get_async_event");
        if (!Fds.awaitReadable(asyncFd, timeout)) return null;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment event = a.allocate(ASYNC_EVENT_SIZE, 8);
            synchronized (this) {
                int rc = (int) IbvLib.call(IbvLib.get().getAsyncEvent, live("ibv_get_async_event"), event);
                if (rc != 0) {
                    int errno = IbvLib.errno();
                    if (errno == Errno.EAGAIN.value) return null;
                    throw IbvLib.failed("ibv_get_async_event", errno, describe());
                }
                try {
                    int type = event.get(JAVA_INT, AE_EVENT_TYPE);
                    Object subject = IbvCodes.eventHasObject(type) ? known(event.get(ADDRESS, AE_ELEMENT).address()) : null;
                    // one this API does not name (IBV_EVENT_WQ_FATAL, a newer kernel's) counts as none
                    return IbvCodes.eventType(type) == null ? null : new AsyncEvent(IbvCodes.eventType(type), subject);
                } finally {
                    // acknowledged at once, whatever happens: the event is copied out, and destroying a QP waits for its acks
                    IbvLib.call(IbvLib.get().ackAsyncEvent, event);
                }
            }
        }
    }
}
