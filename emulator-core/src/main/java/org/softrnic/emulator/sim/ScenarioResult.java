package org.softrnic.emulator.sim;

import java.util.List;

/**
 * What a {@link Scenario} measured over [from, duration]: each flow's goodput (the bytes its WRITEs completed) in
 * Gb/s, on average and per window over the whole run; the bottleneck port's throughput with Ethernet framing, its
 * drops and the fraction of arrivals they were, its queue's mean and maximum; the CNPs sent and handled and the
 * pause frames sent; the sum of the flows' goodput. {@code wallMillis} is how long the run took on this machine.
 */
public record ScenarioResult(Scenario scenario, List<Flow> flows, double aggregateGbps, long drops, double dropFraction,
                             double queueMeanBytes, long queueMaxBytes, long cnpSent, long cnpHandled, long pfcPauseFrames,
                             double goodputGbps, List<QueueSample> queue, long wallMillis, long heapBytes) {
    /** One flow: its number (1 for the first sender), average goodput, and goodput per window. */
    public record Flow(int id, double avgGbps, List<Window> windows, String error) { }

    /** A window starting at {@code tMs}: the rate in it. */
    public record Window(double tMs, double gbps) { }

    /** The bottleneck queue's depth at {@code tMs}, sampled at each window's end. */
    public record QueueSample(double tMs, long bytes) { }
}
