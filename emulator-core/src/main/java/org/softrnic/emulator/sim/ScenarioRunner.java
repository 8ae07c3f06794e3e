package org.softrnic.emulator.sim;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftFabric;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.nic.sim.Pfc;
import org.softrnic.nic.sim.PortStatistics;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.nic.sim.Topology;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * Runs a {@link Scenario}: soft RNICs on a virtual-time fabric with one switch, real RC QPs through the verbs API,
 * each sender keeping {@link #DEPTH} WRITEs posted, and go-back-N doing what it does when the switch drops.
 */
public final class ScenarioRunner {
    /** WRITEs each sender keeps posted: 64 of 64 KiB, 4 MiB, more than a 1 MB buffer and the path hold. */
    static final int DEPTH = 64;
    /** The data's DSCP: 26, priority 3, as NVIDIA's Cumulus maps RoCE. */
    static final int DATA_DSCP = 26;
    /** A hardware RNIC's window of unacknowledged PSNs, far past rxe's 128. */
    static final int HARDWARE_WINDOW = 1 << 16;
    /** How often, in virtual time, the senders' completions are polled and their WRITEs posted again. */
    private static final long SLICE_NANOS = 10_000;
    private static final int MTU_FRAME = Pfc.MTU_1024_FRAME;

    private ScenarioRunner() { }

    public static ScenarioResult run(Scenario s) {
        long wall0 = System.nanoTime();
        Runtime rt = Runtime.getRuntime();
        Topology topology = s.topology() != null ? s.topology() : star(s);
        String receiverName = topology.hosts().getFirst();
        Topology.Link receiverLink = linkOf(topology, receiverName);
        String upstream = receiverLink.a().equals(receiverName) ? receiverLink.b() : receiverLink.a();
        boolean dcqcn = s.cc().equals("dcqcn");
        SoftFabric fabric = SoftFabric.virtual(s.seed(), topology);
        Arena arena = Arena.ofShared();
        try {
            SimFabric sim = fabric.simulation();
            SoftRnic receiver = fabric.add(config(receiverName, "10.0.0.1", s, receiverLink.gbps(), dcqcn));
            RdmaContext rctx = receiver.open();
            ProtectionDomain rpd = rctx.allocPd();
            CompletionQueue rcq = rctx.createCq(s.senders() + 16);
            MemoryRegion rmr = rpd.regMr(arena.allocate(s.messageBytes(), 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            List<Sender> senders = new ArrayList<>();
            for (int i = 1; i <= s.senders(); i++) {
                String name = topology.hosts().get(i);
                SoftRnic dev = fabric.add(config(name, "10." + (1 + i / 250) + "." + (i % 250) + ".2", s, linkOf(topology, name).gbps(), dcqcn));
                RdmaContext ctx = dev.open();
                ProtectionDomain pd = ctx.allocPd();
                CompletionQueue cq = ctx.createCq(DEPTH * 2);
                MemoryRegion mr = pd.regMr(arena.allocate(s.messageBytes(), 4096), Access.LOCAL_WRITE);
                QueuePair qp = pd.createQp(QpInitAttr.rc(cq, new QpCaps(DEPTH, 1, 1, 1, 0)));
                QueuePair rqp = rpd.createQp(QpInitAttr.rc(rcq, new QpCaps(1, 1, 1, 1, 0)));
                qp.modifyToRts(connect(rctx, rqp));
                rqp.modifyToRts(connect(ctx, qp));
                senders.add(new Sender(i, qp, cq, mr, rmr, s.messageBytes()));
            }
            long t0 = sim.clock().nanoTime();
            long end = t0 + millis(s.durationMs());
            long from = t0 + millis(s.measureFromMs());
            long window = millis(s.windowMs());
            int windows = (int) Math.ceil(s.durationMs() / s.windowMs());
            for (Sender x : senders) x.windows = new long[windows];
            List<ScenarioResult.QueueSample> queue = new ArrayList<>();
            long[] before = null;
            boolean measuring = false;
            long nextSample = t0 + window;
            WorkCompletion[] wcs = new WorkCompletion[DEPTH];
            for (int i = 0; i < wcs.length; i++) wcs[i] = new WorkCompletion();
            for (long t = t0; t < end; ) {
                long next = Math.min(end, t + SLICE_NANOS);
                sim.horizon(next); // a poll that finds nothing runs the fabric to the slice's end, not until idle
                for (Sender x : senders) {
                    if (!x.started && t - t0 >= millis(s.joinMs() * (x.id - 1))) x.start();
                }
                if (!measuring && next > from) {
                    sim.run(from);
                    sim.resetPortStatistics();
                    before = totals(fabric);
                    measuring = true;
                }
                sim.run(next);
                sim.clock().advanceTo(Math.max(sim.clock().nanoTime(), next));
                t = next;
                int w = (int) Math.min(windows - 1, (t - t0 - 1) / window);
                for (Sender x : senders) x.reap(wcs, w, t >= from && t <= end);
                if (t >= nextSample) {
                    PortStatistics down = sim.portStatistics(upstream, receiverName);
                    queue.add(new ScenarioResult.QueueSample((nextSample - t0) / 1e6, down.queuedBytes()));
                    nextSample += window;
                }
            }
            PortStatistics down = sim.portStatistics(upstream, receiverName);
            long[] after = totals(fabric);
            long pauses = 0;
            for (PortStatistics p : sim.portStatistics()) pauses += p.pauseFramesSent();
            double seconds = (end - from) / 1e9;
            List<ScenarioResult.Flow> flows = new ArrayList<>();
            double goodput = 0;
            for (Sender x : senders) {
                List<ScenarioResult.Window> ws = new ArrayList<>();
                for (int i = 0; i < windows; i++) ws.add(new ScenarioResult.Window(i * s.windowMs(), x.windows[i] * 8 / (window / 1e9) / 1e9));
                double avg = x.measuredBytes * 8 / seconds / 1e9;
                goodput += avg;
                flows.add(new ScenarioResult.Flow(x.id, avg, ws, x.error));
            }
            long heap = rt.totalMemory() - rt.freeMemory();
            return new ScenarioResult(s, flows, down.txBytes() * 8 / seconds / 1e9, down.drops(),
                    down.arrivals() == 0 ? 0 : (double) down.drops() / down.arrivals(), down.meanQueueBytes(), down.maxQueueBytes(),
                    after[0] - before[0], after[1] - before[1], pauses, goodput, queue, (System.nanoTime() - wall0) / 1_000_000, heap);
        } finally {
            fabric.abandon(); // the contexts, QPs and regions with it
            arena.close();
        }
    }

    /** The spec's star: a receiver r and senders s1..sN, each on its own link to one switch, sw. */
    private static Topology star(Scenario s) {
        List<String> hosts = new ArrayList<>();
        hosts.add("r");
        for (int i = 1; i <= s.senders(); i++) hosts.add("s" + i);
        return Topology.star(hosts, new Topology.Switch("sw", s.bufferBytes(), s.ecn(), pfc(s)), s.gbps(), s.delayNanos());
    }

    /** The one link of host {@code host}. */
    private static Topology.Link linkOf(Topology t, String host) {
        return t.links().stream().filter(l -> l.a().equals(host) || l.b().equals(host)).findFirst().orElseThrow();
    }

    /** CNPs sent and handled over every device. */
    private static long[] totals(SoftFabric fabric) {
        long[] t = new long[2];
        for (SoftRnic d : fabric.devices()) {
            var c = d.counters();
            t[0] += c.getOrDefault("np_cnp_sent", 0L);
            t[1] += c.getOrDefault("rp_cnp_handled", 0L);
        }
        return t;
    }

    /**
     * PFC on the data's priority when asked: each ingress gets an equal share of the buffer, less its headroom, as its
     * XOFF threshold (HPCC shares it dynamically; a static share is the simpler lesson).
     */
    private static Pfc pfc(Scenario s) {
        if (!s.pfc()) return Pfc.OFF;
        Pfc probe = Pfc.on(DATA_DSCP >>> 3, 1, s.gbps(), s.delayNanos(), MTU_FRAME);
        long share = s.bufferBytes() / s.senders() - probe.headroomBytes();
        long xoff = Math.max(3L * MTU_FRAME, Math.min(share, 512 * 1024));
        return Pfc.on(DATA_DSCP >>> 3, xoff, s.gbps(), s.delayNanos(), MTU_FRAME);
    }

    private static SoftRnicConfig config(String name, String ip, Scenario s, double lineGbps, boolean dcqcn) {
        return SoftRnicConfig.builder().name(name).gid(ip).mtu(1024).link("inproc").seed(s.seed() + name.hashCode())
                .cnp(dcqcn ? s.profile() : "off").dcqcn(dcqcn ? s.profile() : "off").lineGbps(lineGbps)
                .maxUnackedPsns(HARDWARE_WINDOW).build();
    }

    /** perftest's RC attributes toward {@code peer}'s QP, the data at DSCP 26. */
    private static QpAttr connect(RdmaContext peer, QueuePair peerQp) {
        QpAttr a = QpAttr.rcConnect(peer.queryGid(1, 0), peerQp.qpn(), Mtu.MTU_1024);
        a.ahAttr = new AddressVector(a.ahAttr.dgid(), 0, 0, 64, DATA_DSCP << 2);
        a.timeout = 14;
        a.retryCnt = 7; // 7: go-back-N retries for ever, as rxe and hardware do
        a.rnrRetry = 7;
        return a;
    }

    private static long millis(double ms) {
        return (long) (ms * 1_000_000);
    }

    /** One flow: its QP, its CQ, the WRITEs it keeps posted, and the bytes they completed per window. */
    private static final class Sender {
        final int id;
        final QueuePair qp;
        final CompletionQueue cq;
        final SendWr wr = new SendWr();
        boolean started;
        long[] windows;
        long measuredBytes;
        String error;

        Sender(int id, QueuePair qp, CompletionQueue cq, MemoryRegion local, MemoryRegion remote, int bytes) {
            this.id = id;
            this.qp = qp;
            this.cq = cq;
            wr.opcode = SendOpcode.RDMA_WRITE;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.sge(local.addr(), bytes, local.lkey());
            wr.remoteAddr = remote.addr();
            wr.rkey = remote.rkey();
        }

        void start() {
            started = true;
            for (int i = 0; i < DEPTH; i++) qp.postSend(wr);
        }

        /** Counts what completed into window {@code w}, and posts a WRITE for each. */
        void reap(WorkCompletion[] wcs, int w, boolean measured) {
            int n;
            while ((n = cq.poll(wcs)) > 0) {
                for (int i = 0; i < n; i++) {
                    if (wcs[i].status != WcStatus.SUCCESS) {
                        if (error == null) error = wcs[i].status.toString();
                        continue;
                    }
                    windows[w] += wr.sgList[0].length; // a WRITE's completion carries no byte count
                    if (measured) measuredBytes += wr.sgList[0].length;
                    if (error == null) qp.postSend(wr);
                }
            }
        }
    }
}
