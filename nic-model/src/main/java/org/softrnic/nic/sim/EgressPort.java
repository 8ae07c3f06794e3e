package org.softrnic.nic.sim;

import java.util.ArrayDeque;

/**
 * One direction of a link: the queues of the node that sends on it, one per priority, served strictly by priority
 * and not while paused, each packet taking its serialisation time at the link's rate and then the propagation
 * delay to the node at the other end. On a switch it is also where packets that came in over this link are counted
 * for PFC (the ingress side of the same port), and where their marks and drops are counted.
 */
final class EgressPort {
    final int id;
    final String name;
    final double gbps;
    final long delayNanos;
    /** The node that sends on it, and the one it reaches, as {@link Network} numbers nodes. */
    final int owner;
    final int peerNode;
    /** The same link's other direction. */
    EgressPort reverse;
    final long bufferBytes;

    @SuppressWarnings("unchecked")
    final ArrayDeque<Flight>[] queues = new ArrayDeque[8];
    final long[] queuedByPrio = new long[8];
    long queuedBytes;
    boolean busy;
    /** Until when each priority is paused by the peer's PFC; 0 for not. */
    final long[] pausedUntil = new long[8];
    /** PFC at this port's ingress side: bytes in the switch that came in here, and whether the peer is paused. */
    final long[] ingressBytes = new long[8];
    final boolean[] upstreamPaused = new boolean[8];
    final int[] pauseEpoch = new int[8];

    // ---- what it did
    long txPackets;
    long txBytes;
    long arrivals;
    long drops;
    long marks;
    long pauseFramesSent;
    long maxQueueBytes;
    private double queueArea;
    private long areaFrom;
    private long lastChange;

    EgressPort(int id, String name, double gbps, long delayNanos, int owner, int peerNode, long bufferBytes) {
        this.id = id;
        this.name = name;
        this.gbps = gbps;
        this.delayNanos = delayNanos;
        this.owner = owner;
        this.peerNode = peerNode;
        this.bufferBytes = bufferBytes;
    }

    /** Nanoseconds {@code wireBytes} take on this link. */
    long serialisation(int wireBytes) {
        return (long) Math.ceil(wireBytes * 8 / gbps);
    }

    void enqueue(Flight f, long now) {
        ArrayDeque<Flight> q = queues[f.prio];
        if (q == null) queues[f.prio] = q = new ArrayDeque<>();
        q.addLast(f);
        queued(f.prio, f.wire, now);
    }

    /** The next packet to send at {@code now}: the highest priority not paused; null for none. */
    Flight dequeue(long now) {
        for (int p = 7; p >= 0; p--) {
            ArrayDeque<Flight> q = queues[p];
            if (q == null || q.isEmpty() || pausedUntil[p] > now) continue;
            Flight f = q.pollFirst();
            queued(p, -f.wire, now);
            return f;
        }
        return null;
    }

    boolean paused(long now) {
        for (long u : pausedUntil) if (u > now) return true;
        return false;
    }

    private void queued(int prio, int delta, long now) {
        queueArea += (double) queuedBytes * (now - lastChange);
        lastChange = now;
        queuedByPrio[prio] += delta;
        queuedBytes += delta;
        if (queuedBytes > maxQueueBytes) maxQueueBytes = queuedBytes;
    }

    /** Starts the statistics over at {@code now}: the mean and the maximum count from here. */
    void resetStatistics(long now) {
        queueArea = 0;
        areaFrom = now;
        lastChange = now;
        maxQueueBytes = queuedBytes;
        txPackets = txBytes = arrivals = drops = marks = pauseFramesSent = 0;
    }

    /** The queue's time-weighted mean in bytes since the statistics started, up to {@code now}. */
    double meanQueueBytes(long now) {
        double area = queueArea + (double) queuedBytes * (now - lastChange);
        return now > areaFrom ? area / (now - areaFrom) : queuedBytes;
    }
}
