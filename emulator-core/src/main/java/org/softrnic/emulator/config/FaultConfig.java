package org.softrnic.emulator.config;

import org.softrnic.nic.sim.LinkFaults;

/**
 * Fault injection on the in-process fabric's links, from one seed.
 *
 * @param loss      probability of dropping a packet (0..1)
 * @param duplicate probability of delivering a packet twice
 * @param reorder   probability of holding a packet back
 * @param delayNs   one-way latency in nanoseconds
 * @param jitterNs  uniform extra latency in [0, jitterNs)
 * @param ecnMark   probability of marking an ECN-capable packet CE
 * @param seed      makes the faults (and, in virtual time, the whole run) reproducible
 */
public record FaultConfig(Double loss, Double duplicate, Double reorder, Long delayNs, Long jitterNs, Double ecnMark,
                          Long seed) {
    public static final FaultConfig NONE = new FaultConfig(0.0, 0.0, 0.0, 1_000L, 0L, 0.0, 1L);

    public FaultConfig {
        loss = probability("faults.loss", loss);
        duplicate = probability("faults.duplicate", duplicate);
        reorder = probability("faults.reorder", reorder);
        delayNs = nonNegative("faults.delay_ns", delayNs == null ? 1_000L : delayNs);
        jitterNs = nonNegative("faults.jitter_ns", jitterNs == null ? 0L : jitterNs);
        ecnMark = probability("faults.ecn_mark", ecnMark);
        seed = seed == null ? 1L : seed;
    }

    private static double probability(String field, Double p) {
        double v = p == null ? 0 : p;
        if (!(v >= 0 && v <= 1)) throw new ConfigException(field + " must lie in 0..1, not " + p);
        return v;
    }

    private static long nonNegative(String field, long v) {
        if (v < 0) throw new ConfigException(field + " cannot be negative, got " + v);
        return v;
    }

    /** Whether these faults change anything: a loss, duplication, reordering, ECN marking, jitter or a longer delay. */
    public boolean injects() {
        return loss > 0 || duplicate > 0 || reorder > 0 || ecnMark > 0 || jitterNs > 0 || delayNs > NONE.delayNs;
    }

    public LinkFaults toLinkFaults() {
        return new LinkFaults(loss, duplicate, reorder, delayNs, jitterNs, ecnMark);
    }
}
