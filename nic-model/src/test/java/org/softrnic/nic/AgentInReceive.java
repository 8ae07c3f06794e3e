package org.softrnic.nic;

import org.softrnic.nic.sim.SimFabric;

/**
 * A device agent for tests of the virtual fabric's bursts: it runs inside the device's receive, after the packet
 * itself was handled, and now and then either runs the fabric from there (not from inside its own run) or fails.
 */
final class AgentInReceive implements DeviceAgent {
    private final SimFabric fabric;
    private final int runEvery;
    private final int failAt;
    private final boolean failAgain;
    private int polls;
    private boolean inside;

    private AgentInReceive(SimFabric fabric, int runEvery, int failAt, boolean failAgain) {
        this.fabric = fabric;
        this.runEvery = runEvery;
        this.failAt = failAt;
        this.failAgain = failAgain;
    }

    /** Runs {@code fabric}, up to the present, at every {@code every}-th poll. */
    static AgentInReceive runningTheFabric(SimFabric fabric, int every) {
        return new AgentInReceive(fabric, every, 0, false);
    }

    /** Throws an IllegalStateException at poll {@code at}, and at every {@code at}-th after it if {@code again}. */
    static AgentInReceive failing(int at, boolean again) {
        return new AgentInReceive(null, 0, at, again);
    }

    @Override
    public boolean poll() {
        polls++;
        if (failAt > 0 && (polls == failAt || (failAgain && polls % failAt == 0))) throw new IllegalStateException("the agent fails");
        if (runEvery > 0 && !inside && polls % runEvery == 0) {
            inside = true;
            try {
                fabric.run(fabric.clock().nanoTime());
            } finally {
                inside = false;
            }
        }
        return false;
    }

    @Override
    public long nextDeadline() {
        return Long.MAX_VALUE;
    }

    @Override
    public void runTimers(long now) {
    }
}
