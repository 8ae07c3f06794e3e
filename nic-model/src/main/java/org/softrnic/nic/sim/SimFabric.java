package org.softrnic.nic.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.time.VirtualClock;
import org.softrnic.verbs.Gid;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.Ecn;

/**
 * Several soft RNICs on one thread under virtual time, joined by a link that can lose, duplicate, reorder
 * and delay packets. Everything random comes from one seed, so a seed replays a run exactly.
 */
public final class SimFabric {
    /** A PFC pause frame a switch sent while tracing: when, from which node to which, the priority and its quanta (0: resume). */
    public record Pause(long sentAt, long arrivesAt, String from, String to, int priority, int quanta) {}

    private final List<Pause> pauses = new ArrayList<>();

    /** The pause frames switches sent since tracing was turned on, in the order sent. */
    public List<Pause> pauses() {
        return pauses;
    }

    /** A switch sent a pause frame: kept when tracing (only then made: under PFC they come by the thousand). */
    void paused(long sentAt, long arrivesAt, String from, String to, int priority, int quanta) {
        if (tracing) pauses.add(new Pause(sentAt, arrivesAt, from, to, priority, quanta));
    }

    /** A packet on the wire: when it left, when it arrives, and whether the link dropped it. */
    public record Packet(long sentAt, long arrivesAt, int from, byte[] bytes, boolean dropped, boolean duplicate) {}

    private final VirtualClock clock = new VirtualClock();
    private final SplittableRandom random;
    private final List<Nic> nics = new ArrayList<>();
    private final Map<Gid, Integer> byGid = new HashMap<>();
    private final org.softrnic.nic.mem.IntMap<Integer> byIpv4 = new org.softrnic.nic.mem.IntMap<>();
    private final MostlyOrderedQueue<Flight> inFlight = new MostlyOrderedQueue<>();
    private final List<Packet> trace = new ArrayList<>();
    /** Delivery leaves room in front of the IP header, as a link does for its own header. */
    private static final int RX_HEADROOM = org.softrnic.wire.PacketBuffer.HEADROOM;
    private static final int RX_BYTES = 16384;
    /** A burst on its way into a device (see {@link #deliver}); its buffers are made when first needed. */
    private final PacketBuffer[] rx = new PacketBuffer[Nic.BURST];
    private final int[] rxOffsets = new int[Nic.BURST];
    private final int[] rxLengths = new int[Nic.BURST];
    private final Flight[] burst = new Flight[Nic.BURST];
    /** A burst is being received: a device that runs the fabric from inside it gets its packets one by one. */
    private boolean delivering;
    private int burstSize;
    private int burstNext;
    private PacketBuffer nestedRx;
    private LinkFaults faults = LinkFaults.NONE;
    /** By sending and receiving device index; null where the fabric-wide faults apply. */
    private LinkFaults[][] linkFaults = new LinkFaults[0][];
    private Predicate<Packet> dropRule;
    private boolean tracing;
    private long seq;
    private long packetCount;

    public SimFabric(long seed) {
        this.random = new SplittableRandom(seed);
    }

    public VirtualClock clock() {
        return clock;
    }

    public Nic add(NicConfig config) {
        int index = nics.size();
        Nic nic = new Nic(config, clock, (buf, off, len) -> {
            send(index, buf, off, len);
            return true; // the fabric takes every packet; its faults decide what arrives
        });
        nics.add(nic);
        if (network != null) network.hostAdded(config.name(), index, nic);
        for (Gid g : config.gids()) {
            byGid.put(g, index);
            if (g.isIpv4Mapped()) byIpv4.put((int) g.lo(), index);
        }
        return nic;
    }

    private Network network;

    /**
     * Joins the devices by {@code t}'s links and switches instead of one faulty link: each device, added after this,
     * is the host of its name, and its packets queue, serialise, get marked and paused on their way. The link faults
     * do not apply on such a fabric; its switches drop what their buffers cannot hold.
     */
    public void topology(Topology t) {
        if (!nics.isEmpty()) throw new IllegalStateException("a topology is set before any device is added");
        network = new Network(t, this, random);
        arrays.keep(ByteArrayPool.KEPT_SWITCHED);
    }

    /** What the port from node {@code from} to node {@code to} did; null when no link joins them (or no topology). */
    public PortStatistics portStatistics(String from, String to) {
        return network == null ? null : network.statistics(from, to, clock.nanoTime());
    }

    /** Every port's statistics; empty without a topology. */
    public List<PortStatistics> portStatistics() {
        return network == null ? List.of() : network.statistics(clock.nanoTime());
    }

    /** Starts every port's statistics (drops, marks, queue mean and maximum) over from now. */
    public void resetPortStatistics() {
        if (network != null) network.resetStatistics(clock.nanoTime());
    }

    public void faults(LinkFaults f) {
        this.faults = f;
    }

    /** Faults on the one-way link from {@code from} to {@code to} only, in place of the fabric-wide ones. */
    public void faults(Nic from, Nic to, LinkFaults f) {
        int i = nics.indexOf(from);
        int j = nics.indexOf(to);
        if (i < 0 || j < 0) throw new IllegalArgumentException("both devices must be on this fabric");
        if (linkFaults.length < nics.size()) linkFaults = java.util.Arrays.copyOf(linkFaults, nics.size());
        if (linkFaults[i] == null || linkFaults[i].length < nics.size()) {
            linkFaults[i] = linkFaults[i] == null ? new LinkFaults[nics.size()] : java.util.Arrays.copyOf(linkFaults[i], nics.size());
        }
        linkFaults[i][j] = f;
    }

    private LinkFaults faults(int from, int to) {
        if (to < 0 || from >= linkFaults.length || linkFaults[from] == null || to >= linkFaults[from].length) return faults;
        LinkFaults f = linkFaults[from][to];
        return f != null ? f : faults;
    }

    /** Drops every packet the rule selects, besides the random faults: e.g. "the 3rd packet". */
    public void dropWhen(Predicate<Packet> rule) {
        this.dropRule = rule;
    }

    private Predicate<Packet> markRule;

    /** Marks CE each ECN-capable packet the rule selects, as a congested switch would: e.g. "the 3rd packet". */
    public void markWhen(Predicate<Packet> rule) {
        this.markRule = rule;
    }

    /** Keeps every packet in {@link #trace()}; off by default, since long lossy runs send millions. */
    public void tracing(boolean on) {
        this.tracing = on;
    }

    /** Every packet put on the wire since tracing was turned on, dropped ones marked. */
    public List<Packet> trace() {
        return trace;
    }

    /** Arrays and in-flight objects of packets that arrived, for the next ones. */
    private final ByteArrayPool arrays = new ByteArrayPool();
    private final java.util.ArrayDeque<Flight> spare = new java.util.ArrayDeque<>();

    /** A packet in flight, in an object that arrived before if there is one. */
    private Flight flying(long at, int to, byte[] bytes, int length, boolean pooled) {
        Flight p = spare.pollLast();
        if (p == null) p = new Flight();
        p.kind = Flight.DELIVER;
        p.at = at;
        p.seq = seq++;
        p.to = to;
        p.bytes = bytes;
        p.length = length;
        p.pooled = pooled;
        return p;
    }

    /** A network event of {@code kind} at port {@code port}, due at {@code at}, in a recycled object. */
    Flight event(long at, byte kind, int port) {
        Flight f = flying(at, -1, null, 0, false);
        f.kind = kind;
        f.port = port;
        return f;
    }

    void schedule(Flight f) {
        f.seq = seq++;
        inFlight.add(f);
    }

    /** A packet a switch dropped: counted against its sender, traced, and its array reused. */
    void dropped(Flight f, long now) {
        linkCounts(f.from).dropped();
        if (tracing) trace.add(new Packet(f.sentAt, now, f.from, f.bytes, true, false));
        recycle(f);
    }

    /** A packet or event done with: its array and the object go back for the next ones. */
    void recycle(Flight p) {
        if (p.pooled) arrays.give(p.bytes);
        p.bytes = null;
        if (spare.size() < arrays.limit()) spare.addLast(p);
    }

    public long packetCount() {
        return packetCount;
    }

    /** What the fault model did to the packets {@code nic} sent. */
    public LinkCounts linkCounts(Nic nic) {
        int i = nics.indexOf(nic);
        if (i < 0) throw new IllegalArgumentException(nic + " is not on this fabric");
        return linkCounts(i);
    }

    private LinkCounts linkCounts(int from) {
        if (from >= linkCounts.length) linkCounts = java.util.Arrays.copyOf(linkCounts, Math.max(from + 1, linkCounts.length * 2));
        LinkCounts c = linkCounts[from];
        if (c == null) linkCounts[from] = c = new LinkCounts();
        return c;
    }

    private LinkCounts[] linkCounts = new LinkCounts[4];

    /** Packets the link dropped (loss, drop rule, or no device at the destination address). */
    public long droppedCount() {
        long n = 0;
        for (LinkCounts c : linkCounts) if (c != null) n += c.droppedCount();
        return n;
    }

    private void send(int from, PacketBuffer buf, int off, int len) {
        // the trace and a drop rule may keep the bytes they are shown: those get an array of their own
        boolean pooled = !tracing && dropRule == null && markRule == null;
        byte[] bytes = pooled ? arrays.take(len) : new byte[len];
        java.lang.foreign.MemorySegment.copy(buf.segment, java.lang.foreign.ValueLayout.JAVA_BYTE, off, bytes, 0, len);
        packetCount++;
        if (network != null) {
            Flight f = flying(clock.nanoTime(), -1, bytes, len, pooled);
            network.send(from, f, clock.nanoTime());
            return;
        }
        int to = destination(bytes, len);
        LinkFaults faults = faults(from, to);
        long now = clock.nanoTime();
        long at = now + faults.delayNanos() + (faults.jitterNanos() > 0 ? random.nextLong(faults.jitterNanos()) : 0);
        boolean lost = faults.loss() > 0 && random.nextDouble() < faults.loss();
        boolean reordered = faults.reorder() > 0 && random.nextDouble() < faults.reorder();
        if (reordered) at += faults.delayNanos() + 1;
        Packet p = tracing || dropRule != null || markRule != null ? new Packet(now, at, from, bytes, false, false) : null;
        LinkCounts counts = linkCounts(from);
        if (lost || to < 0 || (dropRule != null && dropRule.test(p))) {
            counts.dropped();
            if (tracing) trace.add(new Packet(now, at, from, bytes, true, false));
            if (pooled) arrays.give(bytes);
            return;
        }
        if (reordered) counts.reordered();
        if (markRule != null && markRule.test(p) && Network.markCe(bytes)) counts.ecnMarked();
        if (faults.ecnMark() > 0 && random.nextDouble() < faults.ecnMark()) {
            Ecn.markCongestion(java.lang.foreign.MemorySegment.ofArray(bytes).asSlice(0, len), 0);
            counts.ecnMarked();
        }
        if (tracing) trace.add(p);
        inFlight.add(flying(at, to, bytes, len, pooled));
        if (faults.duplicate() > 0 && random.nextDouble() < faults.duplicate()) {
            counts.duplicated();
            long dupAt = at + 1 + random.nextLong(faults.delayNanos() + 1);
            if (tracing) trace.add(new Packet(now, dupAt, from, bytes, false, true));
            byte[] copy = bytes;
            if (pooled) {
                copy = arrays.take(len); // each packet in flight owns its array, to give it back when it arrives
                System.arraycopy(bytes, 0, copy, 0, len);
            }
            inFlight.add(flying(dupAt, to, copy, len, pooled));
        }
    }

    /** Injects raw bytes as if they arrived at {@code nic} now. */
    public void inject(Nic nic, byte[] packet) {
        nic.receive(PacketBuffer.wrap(packet.clone()), 0, packet.length);
    }

    /** The index of the device the packet's destination address belongs to, or -1. */
    int destination(byte[] ip, int length) {
        if (length >= 20 && (ip[0] & 0xf0) == 0x40) {
            int a = (ip[16] & 0xff) << 24 | (ip[17] & 0xff) << 16 | (ip[18] & 0xff) << 8 | (ip[19] & 0xff);
            Integer i = byIpv4.get(a);
            return i == null ? -1 : i;
        }
        if (length >= 40) {
            Integer i = byGid.get(Gid.of(ip, 24)); // the IPv6 destination address
            return i == null ? -1 : i;
        }
        return -1;
    }

    /**
     * Delivers packets and fires timers in time order until nothing is in flight and no timer is armed,
     * or until virtual time passes {@code limitNanos}. Returns the number of events processed.
     */
    public long run(long limitNanos) {
        return run(limitNanos, () -> false);
    }

    /** {@link #run(long)}, stopping as soon as {@code done} holds after an event (a consumer has what it waits for). */
    public long run(long limitNanos, java.util.function.BooleanSupplier done) {
        // run from inside a device's receive: the rest of the burst being received is in flight again, first
        if (delivering) putBack();
        long events = 0;
        while (!done.getAsBoolean()) {
            long nextTimer = Long.MAX_VALUE;
            for (Nic n : nics) nextTimer = Math.min(nextTimer, n.nextDeadline());
            Flight next = inFlight.peek();
            long nextPacket = next == null ? Long.MAX_VALUE : next.at;
            if (nextTimer < nextPacket) {
                // the clock would move to a timer: to exactly the earliest, never to one since moved or cleared
                nextTimer = Long.MAX_VALUE;
                for (Nic n : nics) nextTimer = Math.min(nextTimer, n.exactNextDeadline());
            }
            long t = Math.min(nextTimer, nextPacket);
            if (t == Long.MAX_VALUE || t > limitNanos) return events;
            clock.advanceTo(Math.max(t, clock.nanoTime()));
            events++;
            if (nextPacket <= nextTimer && next.to < 0) {
                network.handle(inFlight.poll(), t);
            } else if (nextPacket <= nextTimer) {
                events += deliver(t, done) - 1;
            } else {
                for (Nic n : nics) if (n.nextDeadline() <= t) n.runTimers();
            }
        }
        return events;
    }

    /**
     * Delivers the packets due at {@code t} to the device the first of them goes to, the next ones too while
     * they go there (at most {@link Nic#BURST}): the device is handed them as one burst, so that it loads
     * their QPs' state together. They arrive one by one as before, {@code done} asked after each; the ones
     * left when it holds go back in flight, in their place. Returns how many arrived.
     */
    private int deliver(long t, java.util.function.BooleanSupplier done) {
        if (delivering) return deliverOne();
        int to = inFlight.peek().to;
        int n = 0;
        while (n < Nic.BURST && inFlight.peek() != null && inFlight.peek().at == t && inFlight.peek().to == to) {
            Flight p = inFlight.poll();
            copyIn(p, rx[n] == null ? rx[n] = buffer() : rx[n]);
            burst[n] = p;
            rxOffsets[n] = RX_HEADROOM;
            rxLengths[n++] = p.length;
        }
        Nic nic = nics.get(to);
        burstSize = n;
        burstNext = 0;
        delivering = true;
        try {
            nic.warm(rx, rxOffsets, rxLengths, 0, n);
            while (burstNext < burstSize) {
                int i = burstNext++;
                Flight p = burst[i];
                burst[i] = null;
                traceArrival(p);
                nic.receive(rx[i], RX_HEADROOM, rxLengths[i]);
                recycle(p);
                if (burstNext < burstSize && done.getAsBoolean()) break;
            }
            return burstNext;
        } finally {
            delivering = false;
            putBack();
        }
    }

    /** The packets of the burst not yet received go back in flight, each with its own time and sequence number. */
    private void putBack() {
        for (int j = burstNext; j < burstSize; j++) {
            inFlight.add(burst[j]);
            burst[j] = null;
        }
        burstSize = burstNext;
    }

    /** On a switched fabric a packet is traced when it arrives, since only then is its arrival known. */
    private void traceArrival(Flight p) {
        if (tracing && network != null) trace.add(new Packet(p.sentAt, clock.nanoTime(), p.from, p.bytes, false, false));
    }

    /** The next packet alone, in a buffer of its own: for a run inside a burst's delivery. */
    private int deliverOne() {
        Flight p = inFlight.poll();
        if (nestedRx == null) nestedRx = buffer();
        copyIn(p, nestedRx);
        traceArrival(p);
        nics.get(p.to).receive(nestedRx, RX_HEADROOM, p.length);
        recycle(p);
        return 1;
    }

    // native like the devices' own buffers: mixing heap and native segments slows every accessor site
    private static PacketBuffer buffer() {
        return PacketBuffer.allocate(java.lang.foreign.Arena.ofAuto(), RX_BYTES);
    }

    private static void copyIn(Flight p, PacketBuffer b) {
        java.lang.foreign.MemorySegment.copy(p.bytes, 0, b.segment, java.lang.foreign.ValueLayout.JAVA_BYTE, RX_HEADROOM, p.length);
    }

    /** Runs until idle, with a generous bound against livelock, and never past the {@link #horizon}. */
    public long runUntilIdle() {
        return run(Math.min(horizon, clock.nanoTime() + 600_000_000_000L));
    }

    private long horizon = Long.MAX_VALUE;

    /**
     * Bounds {@link #runUntilIdle}, which a poll that finds nothing calls: a driver that runs a fabric that is never
     * idle (senders that always have data) a slice at a time sets it to the slice's end.
     */
    public void horizon(long nanos) {
        horizon = nanos;
    }
}
