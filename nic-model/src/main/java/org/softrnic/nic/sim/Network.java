package org.softrnic.nic.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.lang.foreign.MemorySegment;
import org.softrnic.nic.Nic;
import org.softrnic.wire.frame.Ecn;

/**
 * A {@link Topology} in virtual time, as one more agent of the fabric's scheduler: every port a queue served at its
 * link's rate, every switch routing by destination address, marking ECN at dequeue and sending PFC pause frames
 * upstream. Its events ({@link Flight}) share the fabric's one time-ordered queue with the packets due at devices,
 * and their objects and arrays are the fabric's pooled ones: nothing is allocated per packet.
 */
final class Network {
    /** A host's port holds its requesters back once this much waits in it (see {@link org.softrnic.nic.TxGate}). */
    static final int GATE_BYTES = 8 * 1024;

    private final SimFabric fabric;
    private final SplittableRandom random;
    private final Topology topology;
    /** Nodes: the hosts in the topology's order, then the switches. */
    private final Map<String, Integer> nodeByName = new HashMap<>();
    private final List<String> names = new ArrayList<>();
    private final List<List<EgressPort>> portsOf = new ArrayList<>();
    private final List<EgressPort> ports = new ArrayList<>();
    private final int hostCount;
    /** By node: the device on a host node, -1 until it is added. */
    private final int[] deviceOfNode;
    /** By device index: its host node and its port. */
    private int[] nodeOfDevice = new int[0];
    private EgressPort[] uplink = new EgressPort[0];
    private Nic[] nics = new Nic[0];
    /** By switch (node − hosts) and device index: the port toward that device. */
    private EgressPort[][] routes;

    Network(Topology t, SimFabric fabric, SplittableRandom random) {
        this.topology = t;
        this.fabric = fabric;
        this.random = random;
        this.hostCount = t.hosts().size();
        for (String h : t.hosts()) node(h);
        for (Topology.Switch s : t.switches()) node(s.name());
        deviceOfNode = new int[nodeByName.size()];
        java.util.Arrays.fill(deviceOfNode, -1);
        routes = new EgressPort[t.switches().size()][];
        for (Topology.Link l : t.links()) {
            int a = nodeByName.get(l.a());
            int b = nodeByName.get(l.b());
            EgressPort ab = port(l.a() + "->" + l.b(), l, a, b);
            EgressPort ba = port(l.b() + "->" + l.a(), l, b, a);
            ab.reverse = ba;
            ba.reverse = ab;
        }
    }

    private void node(String name) {
        nodeByName.put(name, nodeByName.size());
        names.add(name);
        portsOf.add(new ArrayList<>());
    }

    private EgressPort port(String name, Topology.Link l, int owner, int peer) {
        long buffer = owner < hostCount ? Long.MAX_VALUE : sw(owner).bufferBytes();
        EgressPort p = new EgressPort(ports.size(), name, l.gbps(), l.delayNanos(), owner, peer, buffer);
        ports.add(p);
        portsOf.get(owner).add(p);
        return p;
    }

    private Topology.Switch sw(int node) {
        return topology.switches().get(node - hostCount);
    }

    /** Device {@code device}, named {@code name}, joins as the host of that name; its port gates its requesters. */
    void hostAdded(String name, int device, Nic nic) {
        Integer node = nodeByName.get(name);
        if (node == null || node >= hostCount) throw new IllegalArgumentException("the topology has no host named " + name);
        if (deviceOfNode[node] >= 0) throw new IllegalArgumentException("host " + name + " has its device already");
        deviceOfNode[node] = device;
        if (device >= uplink.length) {
            int n = Math.max(device + 1, uplink.length * 2);
            uplink = java.util.Arrays.copyOf(uplink, n);
            nics = java.util.Arrays.copyOf(nics, n);
            nodeOfDevice = java.util.Arrays.copyOf(nodeOfDevice, n);
        }
        EgressPort up = portsOf.get(node).getFirst();
        uplink[device] = up;
        nics[device] = nic;
        nodeOfDevice[device] = node;
        nic.txGate(() -> open(up));
        route(node, device);
    }

    private boolean open(EgressPort up) {
        return up.queuedBytes < GATE_BYTES && !up.paused(fabric.clock().nanoTime());
    }

    /** Every switch's port toward {@code device}: the first hop back along a breadth-first walk from its host. */
    private void route(int hostNode, int device) {
        boolean[] seen = new boolean[nodeByName.size()];
        java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>();
        seen[hostNode] = true;
        todo.add(hostNode);
        while (!todo.isEmpty()) {
            int u = todo.poll();
            for (EgressPort p : portsOf.get(u)) {
                int v = p.peerNode;
                if (seen[v] || v < hostCount) continue;
                seen[v] = true;
                EgressPort[] r = routes[v - hostCount];
                if (r == null || r.length <= device) routes[v - hostCount] = r = java.util.Arrays.copyOf(r == null ? new EgressPort[0] : r, device + 1);
                r[device] = p.reverse;
                todo.add(v);
            }
        }
    }

    /** A packet device {@code from} put on the wire: into its port's queue. */
    void send(int from, Flight f, long now) {
        f.from = from;
        f.sentAt = now;
        f.wire = f.length + org.softrnic.wire.frame.Ethernet.FRAMING_BYTES;
        f.prio = priority(f.bytes);
        EgressPort up = uplink[from];
        up.arrivals++;
        up.enqueue(f, now);
        kick(up, now);
    }

    /** A network event due now. */
    void handle(Flight f, long now) {
        EgressPort p = ports.get(f.port);
        switch (f.kind) {
            case Flight.ARRIVE -> arrive(f, p, now);
            case Flight.PORT_FREE -> {
                p.busy = false;
                fabric.recycle(f);
                kick(p, now);
                portMayOpen(p, now);
            }
            case Flight.PAUSE -> {
                paused(p, f.priority, (int) f.stamp, now);
                fabric.recycle(f);
            }
            case Flight.RESUME -> {
                int prio = f.priority;
                if (p.pausedUntil[prio] == f.stamp) p.pausedUntil[prio] = 0;
                fabric.recycle(f);
                kick(p, now);
                portMayOpen(p, now);
            }
            case Flight.PFC_REFRESH -> {
                int prio = f.priority;
                if (p.upstreamPaused[prio] && p.pauseEpoch[prio] == f.stamp) sendPause(p, prio, true, now);
                fabric.recycle(f);
            }
            default -> throw new IllegalStateException("no network event of kind " + f.kind);
        }
    }

    /** A host's port that may have let go: its requesters go on. */
    private void portMayOpen(EgressPort p, long now) {
        if (p.owner >= hostCount) return;
        int device = deviceOfNode[p.owner];
        if (device >= 0 && open(p)) nics[device].portReady();
    }

    /** A packet reached switch port {@code in} (the port's ingress side): admitted into its egress queue, or dropped. */
    private void arrive(Flight f, EgressPort in, long now) {
        Topology.Switch s = sw(in.owner);
        int to = fabric.destination(f.bytes, f.length);
        EgressPort[] r = routes[in.owner - hostCount];
        EgressPort out = to < 0 || r == null || to >= r.length ? null : r[to];
        Pfc pfc = s.pfc();
        boolean lossless = pfc.lossless(f.prio);
        if (out == null) {
            in.drops++; // no host at that address
            fabric.dropped(f, now);
            return;
        }
        out.arrivals++;
        if ((lossless && in.ingressBytes[f.prio] + f.wire > pfc.xoffBytes() + pfc.headroomBytes())
                || out.queuedBytes + f.wire > out.bufferBytes) {
            out.drops++;
            fabric.dropped(f, now);
            return;
        }
        f.ingress = in.id;
        out.enqueue(f, now);
        if (lossless) {
            in.ingressBytes[f.prio] += f.wire;
            if (!in.upstreamPaused[f.prio] && in.ingressBytes[f.prio] >= pfc.xoffBytes()) sendPause(in, f.prio, true, now);
        }
        kick(out, now);
    }

    /** Starts the next packet on port {@code p} if it is idle and has one it may send. */
    private void kick(EgressPort p, long now) {
        if (p.busy) return;
        Flight f = p.dequeue(now);
        if (f == null) return;
        if (p.owner >= hostCount) left(f, p, now);
        else f.sentAt = now; // a host's packet leaves when its port starts sending it, not when the device queued it
        long ser = p.serialisation(f.wire);
        p.busy = true;
        p.txPackets++;
        p.txBytes += f.wire;
        Flight free = fabric.event(now + ser, Flight.PORT_FREE, p.id);
        fabric.schedule(free);
        long at = now + ser + p.delayNanos;
        if (p.peerNode < hostCount) {
            f.at = at;
            f.to = deviceOfNode[p.peerNode];
            f.kind = Flight.DELIVER;
            if (f.to < 0) {
                fabric.dropped(f, now); // a host in the topology with no device yet
                return;
            }
        } else {
            f.at = at;
            f.to = -1;
            f.kind = Flight.ARRIVE;
            f.port = p.reverse.id;
        }
        fabric.schedule(f);
    }

    /** Packet {@code f} leaves switch port {@code p}: ECN marking at dequeue, and its room in the ingress PFC count. */
    private void left(Flight f, EgressPort p, long now) {
        Topology.Switch s = sw(p.owner);
        EcnMarking ecn = s.ecn();
        if (ecn.enabled() && f.prio < 6) {
            double prob = ecn.probability(p.queuedByPrio[f.prio]);
            if (prob > 0 && (prob >= 1 || random.nextDouble() < prob) && markCe(f.bytes)) p.marks++;
        }
        Pfc pfc = s.pfc();
        if (pfc.lossless(f.prio)) {
            EgressPort in = ports.get(f.ingress);
            in.ingressBytes[f.prio] -= f.wire;
            if (in.upstreamPaused[f.prio] && in.ingressBytes[f.prio] <= pfc.xonBytes()) sendPause(in, f.prio, false, now);
        }
    }

    /** A pause frame (or its release) for {@code prio} from switch port {@code in} to the node upstream of it. */
    private void sendPause(EgressPort in, int prio, boolean xoff, long now) {
        Pfc pfc = sw(in.owner).pfc();
        in.upstreamPaused[prio] = xoff;
        in.pauseEpoch[prio]++;
        in.pauseFramesSent++;
        // a MAC control frame goes out between two frames, ahead of every queue
        long at = now + in.serialisation(Pfc.FRAME_WIRE_BYTES) + in.delayNanos;
        Flight pause = fabric.event(at, Flight.PAUSE, in.reverse.id);
        pause.priority = prio;
        pause.stamp = xoff ? pfc.quanta() : 0;
        fabric.schedule(pause);
        fabric.paused(now, at, names.get(in.owner), names.get(in.peerNode), prio, (int) pause.stamp);
        if (xoff) {
            // as ns3-rdma: sent again at half its time while the ingress stays above XON
            Flight refresh = fabric.event(now + Math.max(1, Pfc.pauseNanos(pfc.quanta(), in.gbps) / 2), Flight.PFC_REFRESH, in.id);
            refresh.priority = prio;
            refresh.stamp = in.pauseEpoch[prio];
            fabric.schedule(refresh);
        }
    }

    /** A pause frame reached port {@code p}'s node: {@code p} stops sending {@code prio}, or resumes. */
    private void paused(EgressPort p, int prio, int quanta, long now) {
        if (quanta == 0) {
            p.pausedUntil[prio] = 0;
            kick(p, now);
            portMayOpen(p, now);
            return;
        }
        long until = now + Pfc.pauseNanos(quanta, p.gbps);
        p.pausedUntil[prio] = until;
        Flight resume = fabric.event(until, Flight.RESUME, p.id);
        resume.priority = prio;
        resume.stamp = until;
        fabric.schedule(resume);
    }

    /** Sets CE on an ECN-capable IP packet, its IPv4 checksum with it, as the wire's {@link Ecn} does; false for Not-ECT or CE. */
    static boolean markCe(byte[] ip) {
        return Ecn.markCongestion(MemorySegment.ofArray(ip), 0);
    }

    /** The priority of an IP packet: its DSCP's class selector (DSCP 26 is 3, a CNP's 48 is 6), as switches map it by default. */
    static int priority(byte[] ip) {
        int dscp = (ip[0] & 0xf0) == 0x40 ? (ip[1] & 0xff) >>> 2 : (((ip[0] & 0x0f) << 4) | ((ip[1] & 0xf0) >>> 4)) >>> 2;
        return dscp >>> 3;
    }

    /** Starts every port's statistics over at {@code now}. */
    void resetStatistics(long now) {
        for (EgressPort p : ports) p.resetStatistics(now);
    }

    /** What the port from node {@code from} to node {@code to} did, or null when no link joins them. */
    PortStatistics statistics(String from, String to, long now) {
        String name = from + "->" + to;
        for (EgressPort p : ports) if (p.name.equals(name)) return statistics(p, now);
        return null;
    }

    /** Every port's statistics. */
    List<PortStatistics> statistics(long now) {
        List<PortStatistics> out = new ArrayList<>();
        for (EgressPort p : ports) out.add(statistics(p, now));
        return out;
    }

    private static PortStatistics statistics(EgressPort p, long now) {
        return new PortStatistics(p.name, p.arrivals, p.txPackets, p.txBytes, p.drops, p.marks, p.pauseFramesSent,
                p.meanQueueBytes(now), p.maxQueueBytes, p.queuedBytes);
    }
}
