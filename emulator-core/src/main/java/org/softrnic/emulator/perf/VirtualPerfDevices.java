package org.softrnic.emulator.perf;

import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftFabric;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.RdmaContext;

/** Two devices on the virtual-time in-process fabric: one thread, and --loss/--seed replay exactly. */
final class VirtualPerfDevices implements PerfDevices {
    private final SoftFabric fabric;
    private final SoftRnic client;
    private final SoftRnic server;
    private final RdmaContext clientCtx;
    private final RdmaContext serverCtx;

    VirtualPerfDevices(double loss, long seed, String trace, org.softrnic.emulator.config.RegCostConfig regCost) {
        fabric = SoftFabric.virtual(seed);
        FaultConfig f = new FaultConfig(loss, 0.0, 0.0, 1_000L, 0L, 0.0, seed);
        client = fabric.add(SoftRnicConfig.builder().name("soft0").gid("10.0.0.1").mtu(4096).seed(seed).faults(f).trace(trace).regCost(regCost).build());
        server = fabric.add(SoftRnicConfig.builder().name("soft1").gid("10.0.0.2").mtu(4096).seed(seed + 1).faults(f).regCost(regCost).build());
        clientCtx = client.open();
        serverCtx = server.open();
    }

    @Override public java.util.Map<String, Long> clientCounters() { return client.counters(); }
    @Override public java.util.Map<String, Long> serverCounters() { return server.counters(); }
    @Override public void progressServer() { server.progress(); }
    @Override public RdmaContext client() { return clientCtx; }
    @Override public RdmaContext server() { return serverCtx; }
    @Override public long packets() { return fabric.simulation().packetCount(); }
    @Override public long dropped() { return fabric.simulation().droppedCount(); }

    @Override
    public String describe() {
        return "inproc (two soft RNICs, one thread, faults in virtual time)";
    }

    @Override
    public void close() {
        clientCtx.close();
        serverCtx.close();
        fabric.close();
    }
}
