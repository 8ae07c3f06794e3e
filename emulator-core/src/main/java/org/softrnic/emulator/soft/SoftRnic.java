package org.softrnic.emulator.soft;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.fabric.Port;
import org.softrnic.emulator.fabric.UdpPort;
import org.softrnic.emulator.link.LinkSpec;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevice;
import org.softrnic.verbs.VerbsException;

/**
 * One soft RNIC: the nic-model device, the runner that owns it (its event loop, or the virtual-time fabric)
 * and its port. Made by {@link SoftFabric#add} or, for the link its configuration names, by {@link #open}.
 * While it is open, {@link org.softrnic.verbs.RdmaDevices#list()} lists it.
 */
public final class SoftRnic implements RdmaDevice, AutoCloseable {
    private final SoftRnicConfig config;
    final Nic nic;
    final Runner runner;
    private final Port port;
    private final Runnable onClose;
    /** The pcap of every packet, when the configuration asks for one. */
    private org.softrnic.emulator.fabric.PacketTrace trace;
    private final Set<SoftContext> contexts = ConcurrentHashMap.newKeySet();
    /** The model's objects and this API's, for async events; touched on the model's thread only. */
    final Map<Object, Object> apiOf = new IdentityHashMap<>();
    /** lkey to region, read by posting threads without a lock (regions keep their lkey: REG_MR is refused here). */
    private final RegionTable regions = new RegionTable();
    private volatile boolean closed;
    /** On the virtual fabric, what its fault model did to this device's packets (a port counts its own). */
    private org.softrnic.nic.sim.LinkCounts linkCounts;

    private SoftRnic(SoftRnicConfig config, Nic nic, Runner runner, Port port, Runnable onClose) {
        this.config = config;
        this.nic = nic;
        this.runner = runner;
        this.port = port;
        this.onClose = onClose;
        if (config.trace() != null) {
            trace = new org.softrnic.emulator.fabric.PacketTrace(java.nio.file.Path.of(config.trace()));
            runner.run(() -> nic.tap(trace.tap(), port != null && port.tapSent(trace.tap()) ? null : trace.tap()));
        }
        runner.run(() -> nic.onAsyncEvent(this::dispatch));
        runner.run(() -> nic.notificationPoint(config.notificationPoint()));
        if (config.maxUnackedPsns() != 128) runner.run(() -> nic.maxUnackedPsns(config.maxUnackedPsns()));
        runner.run(() -> nic.odpFaultNanos(config.odpFaultNs()));
        if (config.reactionPoint() != null) runner.run(() -> nic.reactionPoint(config.reactionPoint(), config.lineGbps() * 1000));
        runner.run(() -> cm = new SoftCm(this)); // the CM is always there, as on a kernel's RoCE port: REJ 8 needs it
        SoftProvider.register(this);
    }

    /**
     * A device attached through {@code port} on the wall clock: on its own event loop, or driven by the
     * application's thread when its configuration says {@code progress: inline}.
     */
    static SoftRnic attached(SoftRnicConfig config, Port port, Runnable onClose) {
        NicConfig nc = config.toNicConfig().withLink(port.profile());
        if (port.rocePort() > 0) nc = nc.withRocePort(port.rocePort());
        Nic nic = new Nic(nc, System::nanoTime, port, port.arena());
        nic.txWindow(port.txWindow());
        nic.linkIpMtu(port.ipMtu());
        DeviceAgent agent = new DeviceAgent(nic, port);
        Runner runner = config.inline() ? new PollingRunner(agent) : new LoopRunner(config.name(), agent);
        try {
            return new SoftRnic(config, nic, runner, port, onClose);
        } catch (RuntimeException e) {
            runner.close(); // its thread must not outlive a device that never came to be
            throw e;
        }
    }

    /** A device on the virtual-time fabric: verbs run on the caller's thread. */
    static SoftRnic virtual(SoftRnicConfig config, SimFabric fabric, FabricThread thread, Nic nic) {
        VirtualRunner runner = new VirtualRunner(new DeviceAgent(nic, null), fabric, thread);
        SoftRnic device = new SoftRnic(config, nic, runner, null, () -> { });
        device.linkCounts = fabric.linkCounts(nic);
        runner.startChecking();
        return device;
    }

    /**
     * The device its configuration describes, on the link it names: {@code inproc} joins
     * {@link SoftFabric#shared()}; {@code udp[:ADDR[:PORT]]} binds a UDP socket (ADDR must be one of the
     * device's GIDs; PORT, 4791 by default, is the socket's; the packets carry {@code udp_port}, except
     * that with PORT 0 the kernel picks the socket's port and the device uses it as its RoCE port: peers
     * then name it in their address vectors, {@link org.softrnic.verbs.AddressVector#withUdpPort}).
     */
    public static SoftRnic open(SoftRnicConfig config) {
        LinkSpec link = LinkSpec.parse(config.link());
        if (link.kind() == LinkSpec.Kind.INPROC) return SoftFabric.shared().add(config);
        if (!config.linkFaults().isEmpty()) {
            // refused, not ignored: a test that asked for loss must not pass on a link that injected none
            throw new IllegalArgumentException("link " + config.link() + ": link_faults name devices of an in-process fabric;"
                    + " on this link, faults apply to everything the device sends");
        }
        Gid local = Gid.of(link.address());
        if (!config.toNicConfig().gids().contains(local)) {
            throw new IllegalArgumentException("link " + config.link() + ": " + link.address().getHostAddress()
                    + " is not one of the device's GIDs " + config.gids());
        }
        if (link.frames()) return onFrames(config, link);
        try {
            // PORT 0: the kernel picks the socket's port, and it is the device's RoCE port too
            int rocePort = link.port() == 0 ? 0 : config.udpPort();
            return attachedOrClose(config, faulty(config, UdpPort.open(link.address(), link.port(), rocePort)));
        } catch (IOException e) {
            throw new UncheckedIOException("link " + config.link() + ": " + e.getMessage(), e);
        }
    }

    /** The port, with the configuration's faults applied to what the device sends when it asks for any. */
    private static Port faulty(SoftRnicConfig config, Port port) {
        var f = config.faults();
        return f.injects() ? new org.softrnic.emulator.fabric.FaultyPort(port, f.toLinkFaults(), f.seed()) : port;
    }

    /** A device on a port it owns: the port is closed if the device cannot be made. */
    private static SoftRnic attachedOrClose(SoftRnicConfig config, Port port) {
        try {
            return attached(config, port, () -> { });
        } catch (RuntimeException e) {
            port.close();
            throw e;
        }
    }

    /** The frame port on qemu's socket netdev (listening or connecting) or a TAP device. */
    private static SoftRnic onFrames(SoftRnicConfig config, LinkSpec link) {
        try {
            return attachedOrClose(config, faulty(config, org.softrnic.emulator.fabric.FramePort.open(link)));
        } catch (IOException e) {
            throw new UncheckedIOException("link " + config.link() + ": " + e.getMessage(), e);
        }
    }

    private void dispatch(AsyncEvent e) {
        Object api = apiOf.get(e.subject());
        AsyncEvent out = new AsyncEvent(e.type(), api);
        for (SoftContext c : contexts) {
            if (api == null || c.owns(api)) c.deliver(out);
        }
    }

    /**
     * Moves the device once when the caller drives it ({@code progress: inline}, or the virtual fabric):
     * received packets, due timers. Returns whether anything happened. A device on its own loop needs no
     * help: false.
     */
    public boolean progress() {
        return runner.drivesProgress() && runner.idle();
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public String provider() {
        return SoftProvider.NAME;
    }

    private SoftCm cm;

    /** The device's CM on QP1 and rdma_cm above it (device thread). */
    SoftCm cm() {
        return cm;
    }

    /** Lets the port start resolving {@code dgid}'s link address (loop thread). */
    void resolve(org.softrnic.verbs.Gid dgid) {
        if (port != null) port.resolve(dgid);
    }

    /** A GUID made from the first GID, as rxe makes its node GUID from the MAC. */
    @Override
    public long guid() {
        return nic.gids().getFirst().lo() ^ nic.gids().getFirst().hi();
    }

    /** The UDP destination port this device expects: peers on other ports put it in their address vectors. */
    public int rocePort() {
        return nic.config().rocePort();
    }

    public SoftRnicConfig config() {
        return config;
    }

    /** The port's UDP socket, for a device on a UDP link (its bound port when 0 was asked); else null. */
    public UdpPort udpPort() {
        return port == null ? null : port.udp();
    }

    /**
     * On a UDP link: packets for {@code peer} go to its socket port {@code port} rather than the RoCE port
     * (several soft RNICs on one host; see {@link org.softrnic.emulator.link.DatagramLink#route}).
     */
    public void route(java.net.InetAddress peer, int port) {
        UdpPort u = udpPort();
        if (u == null) throw new IllegalStateException(name() + " is not on a UDP link");
        runner.run(() -> u.link().route(peer, port));
    }

    @Override
    public RdmaContext open() {
        synchronized (this) {
            if (closed) throw new VerbsException("ibv_open_device", Errno.ENODEV, name() + " is closed");
            SoftContext c = new SoftContext(this);
            contexts.add(c);
            return c;
        }
    }

    void forget(SoftContext c) {
        contexts.remove(c);
    }

    /**
     * QP {@code qp}'s DCQCN state now: its current and target rate in Mb/s, α, and the CNPs it acted on; null when the
     * device runs no reaction point ({@code dcqcn: off}) or the QP is not RC or UC.
     */
    public org.softrnic.nic.cc.ReactionPoint.RateState rateState(org.softrnic.verbs.QueuePair qp) {
        return runner.call(() -> nic.rateState(qp.qpn()));
    }

    /** An ODP region's own counters, as the kernel keeps them per region (mlx5's names), and its pages mapped now. */
    public record OdpStats(long pageFaults, long pageInvalidations, long pagePrefetch, long pagesMapped) {}

    /** {@code mr}'s ODP counters; all zero for a pinned region. */
    public OdpStats odpStats(org.softrnic.verbs.MemoryRegion mr) {
        var m = Requests.mr(mr, this).mr;
        return runner.call(() -> {
            if (m.isImplicit()) {
                var p = m.implicitParts();
                return new OdpStats(p.pageFaults(), p.pageInvalidations(), p.pagePrefetch(), p.mapped());
            }
            var o = m.odp();
            return o == null ? new OdpStats(0, 0, 0, 0) : new OdpStats(o.pageFaults(), o.pageInvalidations(), o.pagePrefetch(), o.mapped());
        });
    }

    /**
     * Drops the device's translations of {@code [addr, addr + length)} of ODP region {@code mr}, as the kernel's MMU
     * notifier does when the memory is unmapped or migrated (tests call it; freeing the memory does it too): the next
     * access faults again. Returns the pages dropped.
     */
    public int odpInvalidate(org.softrnic.verbs.MemoryRegion mr, long addr, long length) {
        var m = Requests.mr(mr, this).mr;
        return runner.call(() -> nic.odpInvalidate(m, addr, length));
    }

    /** Hears each page fault of an ODP region as it starts, on the device's thread (null: none). */
    public void odpListener(org.softrnic.nic.OdpListener listener) {
        runner.run(() -> nic.odpListener(listener));
    }

    /** The counters (rxe's names and softrnic's), read while the device runs. */
    public Map<String, Long> counters() {
        Map<String, Long> m = new java.util.LinkedHashMap<>(nic.counters().snapshot());
        if (port != null) port.putLinkCounts(m);
        else if (linkCounts != null) linkCounts.putInto(m);
        m.put("post_refused", runner.agent().refused());
        m.put("loop_failures", runner.agent().failures());
        return m;
    }

    /**
     * Why this device refused requests, most recent last (up to 64): "QP 0x11 refused PSN 5: an RDMA WRITE of
     * 4096 bytes at 0x7f.. with rkey 0x.. : it ends 1 byte past the region's end; ...", and its own work requests'
     * local errors ("QP 0x11: wr_id 4 (RDMA_WRITE) completes with IBV_WC_LOC_PROT_ERR: SGE 0 ..."). What a
     * requester's IBV_WC_REM_ACCESS_ERR, RNR retries or silence cannot tell. A request refused on every retry is
     * one line with its count.
     */
    public List<String> refusals() {
        return nic.diagnostics().summary();
    }

    /** Hears each refusal as {@link #refusals} words it, on the device's thread; null stops it. */
    public void onRefusal(java.util.function.Consumer<String> listener) {
        nic.diagnostics().listen(listener == null ? null : r -> listener.accept(r.toString()));
    }

    /** Hears one step of a QP's responder or completer: the QP, the role and rxe's name for the state. */
    @FunctionalInterface
    public interface StateListener {
        void step(int qpn, String role, String state);
    }

    /**
     * Hears every step this device's responder and completer take, by rxe's state names (RESPST_*, COMPST_*
     * without the prefix), on the device's thread; null stops it. softrnic demo --states prints them.
     */
    public void traceStates(StateListener listener) {
        org.softrnic.nic.StateTrace t = listener == null ? null
                : (qpn, role, state) -> listener.step(qpn, role.name().toLowerCase(java.util.Locale.ROOT), state);
        runner.run(() -> nic.stateTrace(t));
    }

    /** The counters as one JSON object. */
    public String countersJson() {
        return org.softrnic.emulator.config.ConfigFiles.toJson(counters());
    }

    // ---- for the verbs objects

    /**
     * Makes a model object and its API object on the model's thread and remembers the pair, so that async
     * events about the one name the other.
     */
    <M, A> A made(java.util.function.Supplier<M> model, java.util.function.Function<M, A> api) {
        return runner.call(() -> {
            M m = model.get();
            A a = api.apply(m);
            apiOf.put(m, a);
            return a;
        });
    }

    /** Destroys a model object on the model's thread and forgets its API object. */
    void destroyed(Object model, Runnable destroy) {
        runner.run(() -> {
            destroy.run();
            apiOf.remove(model);
        });
    }

    /**
     * ibv_post_recv to {@code qp}'s receive queue, or ibv_post_srq_recv to {@code srq}: written into the next WQE
     * under {@code lock} (one poster at a time), published, and the doorbell rung.
     */
    void postRecv(Object lock, org.softrnic.nic.qp.QueuePair qp, org.softrnic.nic.qp.SharedReceiveQueue srq,
                  org.softrnic.verbs.RecvWr wr, Doorbells.Bell bell) {
        runner.checkPoster();
        synchronized (lock) {
            nic.writeRecv(qp, srq, wr);
            (qp != null ? qp.rq() : srq.ring()).publish();
        }
        runner.ring(bell);
    }

    /**
     * A ring whose posters may run on application threads grows on the device's thread while its poster waits
     * (growing moves entries the device reads). Called as the ring's queue is made.
     */
    void growOnDevice(org.softrnic.nic.qp.Ring<?> ring) {
        ring.growWith(() -> runner.run(ring::grow));
    }

    MemoryRegion region(int lkey) {
        return regions.get(lkey);
    }

    /** Called under the device lock. */
    /** Bytes of registered memory this device holds locked (pinned), as the kernel counts them against RLIMIT_MEMLOCK. */
    private long lockedBytes;

    /**
     * Locks {@code bytes} more for a registration, or refuses as ib_umem_get does past RLIMIT_MEMLOCK: ENOMEM, with
     * what a user of rdma-core needs to hear. The kernel counts per process; this device counts its own.
     */
    synchronized void lock(String verb, long bytes) {
        Long limit = config.limits().memlockBytes();
        if (limit != null && lockedBytes + bytes > limit) {
            throw new org.softrnic.verbs.VerbsException(verb, org.softrnic.verbs.Errno.ENOMEM, String.format(
                    "registering it would lock %d bytes (%d pages) more, past the locked-memory limit of %d bytes with %d locked"
                            + " already (RLIMIT_MEMLOCK, limits.memlock_bytes): raise it (ulimit -l, or memlock in"
                            + " /etc/security/limits.conf), or register less memory", bytes, bytes / PAGE, limit, lockedBytes));
        }
        lockedBytes += bytes;
    }

    synchronized void unlock(long bytes) {
        lockedBytes -= bytes;
    }

    /** Bytes locked by this device's registrations now. */
    public synchronized long lockedBytes() {
        return lockedBytes;
    }

    /** Charges {@code nanos} of the caller's wall-clock time, as a registration's system call and NIC command take it. */
    static void charge(long nanos) {
        if (nanos <= 0) return;
        long end = System.nanoTime() + nanos;
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            if (left > 200_000) java.util.concurrent.locks.LockSupport.parkNanos(left - 100_000); // sleep the most of it
            else Thread.onSpinWait();
        }
    }

    /** What registering memory costs on this device (none unless configured). */
    org.softrnic.emulator.config.RegCostConfig regCost() {
        return config.regCost();
    }

    /** The kernel's page: what a registration pins, whole. */
    static final long PAGE = 4096;

    /** The pages {@code segment} spans, in bytes: what registering it pins. */
    static long pinned(java.lang.foreign.MemorySegment segment) {
        try {
            long start = segment.address() & -PAGE;
            long end = Math.addExact(Math.addExact(segment.address(), segment.byteSize()), PAGE - 1) & -PAGE;
            return Math.max(PAGE, end - start);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 2; // a segment reinterpreted past the address space: more than any limit
        }
    }

    void publishRegion(MemoryRegion mr, boolean add) {
        if (add) regions.put(mr);
        else regions.remove(mr);
    }

    /** The verbs objects still open on this device, as errors name them ("QP 0x11"): what a leak check reports. */
    public synchronized List<String> openObjects() {
        java.util.Set<String> open = new java.util.LinkedHashSet<>();
        for (SoftContext c : contexts) c.collectOpen(open);
        return open.stream().sorted().toList(); // a stable order: the users of an object are a set
    }

    /** Closes the device even with objects left open (after a leak check has named them); they are dropped. */
    public void abandon() {
        synchronized (this) {
            contexts.clear();
        }
        close();
    }

    /** Closes the device: its loop stops and its port closes. EBUSY while contexts are open. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            if (!contexts.isEmpty()) {
                List<String> open = contexts.stream().map(SoftContext::describe).toList();
                throw new VerbsException("close", Errno.EBUSY, name() + " still has open contexts: " + String.join(", ", open));
            }
            closed = true;
        }
        SoftProvider.unregister(this);
        runner.close();
        if (port != null) port.close();
        try {
            if (trace != null) trace.close();
        } finally {
            onClose.run();
        }
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return "soft RNIC " + name();
    }
}
