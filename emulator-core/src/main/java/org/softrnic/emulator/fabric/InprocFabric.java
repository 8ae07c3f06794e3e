package org.softrnic.emulator.fabric;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.softrnic.nic.mem.IntMap;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.verbs.Gid;
import org.softrnic.wire.Be;

/**
 * The threaded, wall-clock in-process fabric: any number of soft RNICs in one JVM, each on its own event
 * loop, joined by links that can lose, duplicate, reorder, delay and ECN-mark packets, each link with its
 * own seeded random source. (The deterministic, single-threaded mode is nic-model's SimFabric.) Packets are
 * routed by destination IP address; the routing table and fault matrix are replaced whole when devices come
 * and go, so senders read them without locks.
 */
public final class InprocFabric implements AutoCloseable {
    private final Arena arena = new CountedArena();
    private volatile InprocPort[] ports = new InprocPort[0];
    private volatile IntMap<InprocPort> byIpv4 = new IntMap<>();
    /** IPv6 GIDs with their ports, searched in order: few devices have them. */
    private volatile Route6[] byIpv6 = new Route6[0];
    /** By sending and receiving port index; null where the sender's own faults apply. */
    private volatile LinkFaults[][] links = new LinkFaults[0][];
    /** Faults named before one of the two devices joined: "from->to". */
    private final Map<String, LinkFaults> pending = new HashMap<>();
    private boolean closed;

    private record Route6(MemorySegment gid, InprocPort port) {}

    Arena arena() {
        return arena;
    }

    /**
     * Joins a device with these GIDs. {@code faults} apply on its outgoing links unless a link has its own
     * ({@link #faults}); {@code seed} seeds them.
     */
    public synchronized InprocPort attach(String name, List<Gid> gids, LinkFaults faults, long seed) {
        if (closed) throw new IllegalStateException("the fabric is closed");
        for (InprocPort p : ports) {
            if (p != null && p.name.equals(name)) throw new IllegalArgumentException("a device named " + name + " is already on this fabric");
        }
        InprocPort port = new InprocPort(this, ports.length, name, gids, faults, seed);
        IntMap<InprocPort> v4 = copyIpv4();
        Route6[] v6 = byIpv6;
        for (Gid g : gids) {
            if (g.isIpv4Mapped()) {
                if (v4.get((int) g.lo()) != null) throw new IllegalArgumentException(g + " is already on this fabric");
                v4.put((int) g.lo(), port);
            } else {
                v6 = Arrays.copyOf(v6, v6.length + 1);
                v6[v6.length - 1] = new Route6(MemorySegment.ofArray(g.raw()), port);
            }
        }
        InprocPort[] grown = Arrays.copyOf(ports, ports.length + 1);
        grown[port.index] = port;
        LinkFaults[][] matrix = Arrays.copyOf(links, grown.length);
        for (int i = 0; i < matrix.length; i++) matrix[i] = matrix[i] == null ? new LinkFaults[grown.length] : Arrays.copyOf(matrix[i], grown.length);
        for (InprocPort p : grown) {
            if (p == null || p == port) continue;
            LinkFaults out = pending.remove(name + "->" + p.name);
            if (out != null) matrix[port.index][p.index] = out;
            LinkFaults in = pending.remove(p.name + "->" + name);
            if (in != null) matrix[p.index][port.index] = in;
        }
        links = matrix;
        byIpv4 = v4;
        byIpv6 = v6;
        ports = grown;
        return port;
    }

    private IntMap<InprocPort> copyIpv4() {
        IntMap<InprocPort> copy = new IntMap<>();
        for (InprocPort p : ports) {
            if (p == null) continue;
            for (Gid g : p.gids) if (g.isIpv4Mapped()) copy.put((int) g.lo(), p);
        }
        return copy;
    }

    synchronized void detach(InprocPort port) {
        InprocPort[] shrunk = ports.clone();
        shrunk[port.index] = null;
        ports = shrunk;
        byIpv4 = copyIpv4();
        byIpv6 = Arrays.stream(byIpv6).filter(r -> r.port() != port).toArray(Route6[]::new);
    }

    /**
     * Faults on the one-way link from device {@code from} to device {@code to} (by name), in place of the
     * sender's own; either device may join later.
     */
    public synchronized void faults(String from, String to, LinkFaults f) {
        InprocPort a = byName(from);
        InprocPort b = byName(to);
        if (a == null || b == null) {
            pending.put(from + "->" + to, f);
            return;
        }
        LinkFaults[][] matrix = links.clone();
        matrix[a.index] = matrix[a.index].clone();
        matrix[a.index][b.index] = f;
        links = matrix;
    }

    private InprocPort byName(String name) {
        for (InprocPort p : ports) if (p != null && p.name.equals(name)) return p;
        return null;
    }

    LinkFaults faults(InprocPort from, InprocPort to) {
        LinkFaults[][] m = links;
        LinkFaults f = from.index < m.length && to.index < m[from.index].length ? m[from.index][to.index] : null;
        return f != null ? f : from.faults;
    }

    /** The port the IP packet at {@code ip} is addressed to, or null. */
    InprocPort route(MemorySegment s, int ip) {
        int version = (s.get(ValueLayout.JAVA_BYTE, ip) & 0xf0) >>> 4;
        if (version == 4) return byIpv4.get(Be.u32(s, ip + 16));
        for (Route6 r : byIpv6) {
            if (MemorySegment.mismatch(s, ip + 24, ip + 40, r.gid(), 0, 16) == -1) return r.port();
        }
        return null;
    }

    /** Frees the fabric's packet memory; every device on it must be closed first. */
    @Override
    public synchronized void close() {
        if (closed) return;
        for (InprocPort p : ports) {
            if (p != null) throw new IllegalStateException(p.name + " is still on the fabric; close its device first");
        }
        closed = true;
        arena.close();
    }
}
