package org.softrnic.cli.demo;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftFabric;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.WorkCompletion;

/**
 * The stage of a demo: two soft RNICs, A (10.0.0.1) and B (10.0.0.2), on the virtual-time fabric, each with a
 * PD, a CQ, a registered buffer and an RC QP connected to the other's, through the same verbs a program uses.
 * Every packet is traced; one seed replays the run exactly.
 */
final class DemoRig implements AutoCloseable {
    static final String A_IP = "10.0.0.1";
    static final String B_IP = "10.0.0.2";

    /** One side's objects. */
    record Side(String name, SoftRnic device, RdmaContext ctx, ProtectionDomain pd, CompletionQueue cq, MemoryRegion mr,
                QueuePair qp) {}

    /** A completion and the side that saw it. */
    record Seen(String side, WorkCompletion wc) {}

    /** An asynchronous event and the side that got it. */
    record Event(String side, org.softrnic.verbs.AsyncEvent.Type type) {}

    private final Arena arena = Arena.ofShared();
    /** What a scenario made besides the stage's own objects, closed first, last made first. */
    private final List<AutoCloseable> extra = new ArrayList<>();
    private final SoftFabric fabric;
    final Side a;
    final Side b;
    final List<Seen> completions = new ArrayList<>();

    /**
     * @param cqe        each CQ's size (small for cq-overflow)
     * @param startPsn   the PSN each side starts sending at (near 2^24 for psn-wrap)
     * @param dcqcn      both sides NVIDIA's DCQCN: a notification point and a reaction point per QP (the cnp demo)
     * @param pfc        A and B joined through a switch with PFC ({@link #PFC_TOPOLOGY}, the pfc demo)
     */
    DemoRig(long seed, Mtu mtu, int bufferBytes, int cqe, int startPsn, boolean dcqcn, boolean pfc) {
        fabric = pfc ? SoftFabric.virtual(seed, PFC_TOPOLOGY) : SoftFabric.virtual(seed);
        fabric.simulation().tracing(true);
        a = side("A", A_IP, mtu, bufferBytes, cqe, dcqcn);
        b = side("B", B_IP, mtu, bufferBytes, cqe, dcqcn);
        int trafficClass = pfc ? PFC_DSCP << 2 : 0;
        connect(a, b, mtu, startPsn, trafficClass);
        connect(b, a, mtu, startPsn, trafficClass);
        for (Side s : new Side[] {a, b}) {
            s.device().odpListener((at, qpn, what) -> faults.add(new PauseNotes.Timed(at, s.name() + "'s " + what)));
        }
    }

    /** The page faults either side's NIC took, as lines for the ladder. */
    final List<PauseNotes.Timed> faults = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** {@code bytes} of memory for a scenario's own regions, page-aligned, freed with the rig. */
    java.lang.foreign.MemorySegment allocate(long bytes) {
        return arena.allocate(bytes, 4096);
    }

    /** The pfc demo's data: DSCP 26, priority 3, the lossless one. */
    static final int PFC_DSCP = 26;

    /**
     * The pfc demo's fabric: A on a 10 Gb/s link to a switch whose port to B runs at 1 Gb/s; priority 3 lossless,
     * XOFF at 8 KiB of A's packets in the switch, XON two frames below.
     */
    static final org.softrnic.nic.sim.Topology PFC_TOPOLOGY = new org.softrnic.nic.sim.Topology(java.util.List.of("A", "B"),
            java.util.List.of(new org.softrnic.nic.sim.Topology.Switch("switch", 1 << 20, org.softrnic.nic.sim.EcnMarking.OFF,
                    org.softrnic.nic.sim.Pfc.on(PFC_DSCP >>> 3, 8192, 10, 1_000, org.softrnic.nic.sim.Pfc.MTU_1024_FRAME))),
            java.util.List.of(new org.softrnic.nic.sim.Topology.Link("A", "switch", 10, 1_000),
                    new org.softrnic.nic.sim.Topology.Link("switch", "B", 1, 1_000)));

    private Side side(String name, String ip, Mtu mtu, int bufferBytes, int cqe, boolean dcqcn) {
        // the port's MTU is the path MTU: UD, which has no path, sends at the port's
        String cc = dcqcn ? "firmware" : "off";
        SoftRnic dev = fabric.add(SoftRnicConfig.builder().name(name).gid(ip).mtu(mtu.bytes).cnp(cc).dcqcn(cc).build());
        RdmaContext ctx = dev.open();
        ProtectionDomain pd = ctx.allocPd();
        CompletionQueue cq = ctx.createCq(cqe);
        MemoryRegion mr = pd.regMr(arena.allocate(bufferBytes, 4096),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC | Access.MW_BIND);
        QueuePair qp = pd.createQp(QpInitAttr.rc(cq, new QpCaps(64, 64, 2, 2, 64)));
        return new Side(name, dev, ctx, pd, cq, mr, qp);
    }

    private static void connect(Side from, Side to, Mtu mtu, int startPsn, int trafficClass) {
        QpAttr attr = QpAttr.rcConnect(to.ctx().queryGid(1, 0), to.qp().qpn(), mtu);
        if (trafficClass != 0) attr.ahAttr = new org.softrnic.verbs.AddressVector(attr.ahAttr.dgid(), 0, 0, 64, trafficClass);
        attr.sqPsn = startPsn;
        attr.rqPsn = startPsn;
        attr.timeout = 10; // a 4 ms ACK timeout keeps the loss scenario's wait short (perftest's 14 is 67 ms)
        from.qp().modifyToRts(attr);
    }

    <T extends AutoCloseable> T keep(T c) {
        extra.add(c);
        return c;
    }

    /** Loses each packet with probability {@code p}, both ways (the draws come from the fabric's seed). */
    void loss(double p) {
        org.softrnic.emulator.config.FaultConfig f = new org.softrnic.emulator.config.FaultConfig(p, 0.0, 0.0, 1_000L, 0L, 0.0, null);
        fabric.faults(a.device(), b.device(), f);
        fabric.faults(b.device(), a.device(), f);
    }

    SimFabric simulation() {
        return fabric.simulation();
    }

    /** Asynchronous events and the side that got them. */
    final List<Event> events = new ArrayList<>();
    /** What a scenario found afterwards and says in words (the atomic's result, for one). */
    final List<String> notes = new ArrayList<>();

    /** Runs the fabric until nothing is in flight and no timer is armed, then collects completions and events. */
    void run() {
        fabric.simulation().runUntilIdle();
        drain(a);
        drain(b);
        for (Side s : new Side[] {a, b}) {
            try {
                org.softrnic.verbs.AsyncEvent e;
                while ((e = s.ctx().getAsyncEvent(java.time.Duration.ZERO)) != null) events.add(new Event(s.name(), e.type()));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Runs {@code nanos} of virtual time only (polling a CQ would run the fabric until it is idle). */
    void runFor(long nanos) {
        SimFabric sim = fabric.simulation();
        sim.run(sim.clock().nanoTime() + nanos);
    }

    private void drain(Side s) {
        WorkCompletion[] batch = new WorkCompletion[16];
        for (int i = 0; i < batch.length; i++) batch[i] = new WorkCompletion();
        int n;
        while ((n = s.cq().poll(batch)) > 0) {
            for (int i = 0; i < n; i++) completions.add(new Seen(s.name(), new WorkCompletion().copyFrom(batch[i])));
        }
    }

    @Override
    public void close() {
        for (int i = extra.size() - 1; i >= 0; i--) {
            try {
                extra.get(i).close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        for (Side s : new Side[] {a, b}) {
            s.qp().close();
            s.mr().close();
            s.cq().close();
            s.pd().close();
            s.ctx().close();
        }
        fabric.close();
        arena.close();
    }
}
