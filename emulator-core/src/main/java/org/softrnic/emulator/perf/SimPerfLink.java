package org.softrnic.emulator.perf;

import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.qp.Gid;
import org.softrnic.nic.qp.Mtu;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.nic.sim.SimFabric;

/** The in-process fabric: both devices on this thread, the link's faults in virtual time. */
final class SimPerfLink implements PerfLink {
    private final SimFabric fabric;
    private final Nic client;
    private final Nic server;

    SimPerfLink(double loss, long seed) {
        fabric = new SimFabric(seed);
        if (loss > 0) fabric.faults(LinkFaults.lossy(loss));
        client = fabric.add(NicConfig.of("soft0", Gid.parse("192.0.2.1"), seed).withMtu(Mtu.MTU_4096));
        server = fabric.add(NicConfig.of("soft1", Gid.parse("192.0.2.2"), seed + 1).withMtu(Mtu.MTU_4096));
    }

    @Override public Nic client() { return client; }
    @Override public Nic server() { return server; }
    @Override public void progress(CompletionQueue clientCq) { fabric.runUntilIdle(); }
    @Override public long packets() { return fabric.packetCount(); }
    @Override public long dropped() { return fabric.droppedCount(); }
    @Override public String describe() { return "inproc (two soft RNICs, one thread, faults in virtual time)"; }
    @Override public void close() { }
}
