package org.softrnic.nic.sim;

/**
 * A switch's ECN marking law, RED on the instantaneous queue as HPCC's and ns3-rdma's simulators apply it at dequeue:
 * no mark up to {@code kminBytes}, then a probability rising linearly to {@code pmax} at {@code kmaxBytes}, and every
 * packet above it. Only ECN-capable packets are marked.
 */
public record EcnMarking(long kminBytes, long kmaxBytes, double pmax) {
    public static final EcnMarking OFF = new EcnMarking(Long.MAX_VALUE, Long.MAX_VALUE, 0);

    public EcnMarking {
        if (kminBytes < 0 || kmaxBytes < kminBytes) throw new IllegalArgumentException("ECN needs 0 <= Kmin <= Kmax, not " + kminBytes + ", " + kmaxBytes);
        if (!(pmax >= 0 && pmax <= 1)) throw new IllegalArgumentException("Pmax must lie in 0..1, not " + pmax);
    }

    /** HPCC's scaling to a link of {@code gbps}: Kmin 100 KB and Kmax 400 KB per 25 Gb/s, Pmax 0.2 (40 KB, 160 KB at 10 G). */
    public static EcnMarking hpcc(double gbps) {
        return new EcnMarking((long) (100_000 * gbps / 25), (long) (400_000 * gbps / 25), 0.2);
    }

    public boolean enabled() {
        return kminBytes != Long.MAX_VALUE;
    }

    /** The marking probability with {@code queueBytes} in the queue. */
    public double probability(long queueBytes) {
        if (queueBytes <= kminBytes) return 0;
        if (queueBytes > kmaxBytes) return 1;
        return pmax * (queueBytes - kminBytes) / Math.max(1, kmaxBytes - kminBytes);
    }
}
