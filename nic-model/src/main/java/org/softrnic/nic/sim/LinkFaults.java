package org.softrnic.nic.sim;

/**
 * What the simulated link does to packets, each decided from the fabric's seeded generator.
 *
 * @param loss      probability a packet is dropped
 * @param duplicate probability a packet is delivered twice
 * @param reorder   probability a packet is held back by an extra {@code delayNanos}
 * @param delayNanos one-way latency
 * @param jitterNanos uniform extra latency in [0, jitter)
 */
public record LinkFaults(double loss, double duplicate, double reorder, long delayNanos, long jitterNanos) {
    public static final LinkFaults NONE = new LinkFaults(0, 0, 0, 1_000, 0);

    public LinkFaults {
        for (double p : new double[] {loss, duplicate, reorder}) {
            if (p < 0 || p > 1) throw new IllegalArgumentException("a probability must lie in 0..1, not " + p);
        }
        if (delayNanos < 0 || jitterNanos < 0) throw new IllegalArgumentException("delays cannot be negative");
    }

    public static LinkFaults lossy(double loss) {
        return new LinkFaults(loss, 0, 0, 1_000, 0);
    }
}
