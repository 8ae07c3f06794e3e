package org.softrnic.nic.sim;

/**
 * What the simulated link does to packets, each decided from the fabric's seeded generator.
 *
 * @param loss      probability a packet is dropped
 * @param duplicate probability a packet is delivered twice
 * @param reorder   probability a packet is held back by an extra {@code delayNanos}
 * @param delayNanos one-way latency
 * @param jitterNanos uniform extra latency in [0, jitter)
 * @param ecnMark   probability an ECN-capable packet (ECT(0) or ECT(1)) is marked CE, as a congested switch
 *                  does; the ICRC masks the ECN bits, so a marked packet still verifies
 */
public record LinkFaults(double loss, double duplicate, double reorder, long delayNanos, long jitterNanos,
                         double ecnMark) {
    public static final LinkFaults NONE = new LinkFaults(0, 0, 0, 1_000, 0, 0);

    public LinkFaults(double loss, double duplicate, double reorder, long delayNanos, long jitterNanos) {
        this(loss, duplicate, reorder, delayNanos, jitterNanos, 0);
    }

    public LinkFaults {
        for (double p : new double[] {loss, duplicate, reorder, ecnMark}) {
            if (p < 0 || p > 1) throw new IllegalArgumentException("a probability must lie in 0..1, not " + p);
        }
        if (delayNanos < 0 || jitterNanos < 0) throw new IllegalArgumentException("delays cannot be negative");
    }

    public static LinkFaults lossy(double loss) {
        return new LinkFaults(loss, 0, 0, 1_000, 0);
    }
}
