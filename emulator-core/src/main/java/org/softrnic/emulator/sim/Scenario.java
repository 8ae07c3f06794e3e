package org.softrnic.emulator.sim;

import org.softrnic.nic.sim.EcnMarking;

/**
 * A congestion scenario in virtual time: {@code senders} hosts WRITE, over RC, to one receiver through one switch,
 * each on its own link of {@code gbps} and {@code delayNanos}; the first starts at 0, each next one {@code joinMs}
 * later. Rates are measured over [{@code measureFromMs}, {@code durationMs}] in windows of {@code windowMs}.
 *
 * @param cc        {@code dcqcn}: each sender a reaction point and the receiver a notification point, of {@code profile}
 *                  ({@code firmware} or {@code paper}); {@code none}: neither
 * @param pfc       priority 3, the data's (DSCP 26), lossless at the switch
 * @param ecn       the switch's marking law
 * @param bufferBytes each switch egress port's drop-tail buffer
 * @param topology  hosts, switches and links in place of the star the other parameters describe (null: the star); its
 *                  first host receives, the others send, each at its own link's rate
 */
public record Scenario(String name, int senders, double gbps, long delayNanos, long bufferBytes, String cc, String profile,
                       boolean pfc, EcnMarking ecn, double durationMs, double measureFromMs, double windowMs, double joinMs,
                       int messageBytes, long seed, org.softrnic.nic.sim.Topology topology) {
    public Scenario {
        if (senders < 1 || senders > 4096) throw new IllegalArgumentException("senders must be 1..4096, not " + senders);
        if (!(gbps > 0)) throw new IllegalArgumentException("the link rate must be above 0 Gb/s");
        if (bufferBytes < 4096) throw new IllegalArgumentException("a switch buffer needs at least 4096 bytes");
        if (!cc.equals("dcqcn") && !cc.equals("none")) throw new IllegalArgumentException("cc must be dcqcn or none, not " + cc);
        if (!profile.equals("firmware") && !profile.equals("paper")) throw new IllegalArgumentException("profile must be firmware or paper, not " + profile);
        if (!(durationMs > 0) || measureFromMs < 0 || measureFromMs >= durationMs) {
            throw new IllegalArgumentException("the measurement must start in [0, duration): " + measureFromMs + " of " + durationMs + " ms");
        }
        if (!(windowMs > 0)) throw new IllegalArgumentException("the window must be above 0 ms");
        if (joinMs < 0) throw new IllegalArgumentException("the join time cannot be negative");
        if (messageBytes < 1) throw new IllegalArgumentException("a message needs at least a byte");
        if (topology != null && topology.hosts().size() < 2) throw new IllegalArgumentException("a topology needs a receiver and a sender");
        if (topology != null) senders = topology.hosts().size() - 1;
    }

    /** The spec's common set-up: 1 µs links, 64 KiB WRITEs, HPCC's marking at the rate, 32 MB of buffer. */
    public static Scenario incast(int senders, double gbps, String cc, String profile, boolean pfc, double durationMs, long seed) {
        return new Scenario("incast", senders, gbps, 1_000, 32_000_000, cc, profile, pfc, EcnMarking.hpcc(gbps), durationMs,
                durationMs / 2, 1, 0, 65536, seed, null);
    }

    public Scenario withBuffer(long bytes) {
        return new Scenario(name, senders, gbps, delayNanos, bytes, cc, profile, pfc, ecn, durationMs, measureFromMs, windowMs, joinMs, messageBytes, seed, topology);
    }

    public Scenario withJoin(String newName, double ms) {
        return new Scenario(newName, senders, gbps, delayNanos, bufferBytes, cc, profile, pfc, ecn, durationMs, measureFromMs, windowMs, ms, messageBytes, seed, topology);
    }

    public Scenario withMeasurement(double fromMs, double window) {
        return new Scenario(name, senders, gbps, delayNanos, bufferBytes, cc, profile, pfc, ecn, durationMs, fromMs, window, joinMs, messageBytes, seed, topology);
    }

    public Scenario withEcn(EcnMarking marking) {
        return new Scenario(name, senders, gbps, delayNanos, bufferBytes, cc, profile, pfc, marking, durationMs, measureFromMs, windowMs, joinMs, messageBytes, seed, topology);
    }

    public Scenario withTopology(org.softrnic.nic.sim.Topology t) {
        return new Scenario(name, senders, gbps, delayNanos, bufferBytes, cc, profile, pfc, ecn, durationMs, measureFromMs, windowMs, joinMs, messageBytes, seed, t);
    }

    public Scenario withSeed(long s) {
        return new Scenario(name, senders, gbps, delayNanos, bufferBytes, cc, profile, pfc, ecn, durationMs, measureFromMs, windowMs, joinMs, messageBytes, s, topology);
    }
}
