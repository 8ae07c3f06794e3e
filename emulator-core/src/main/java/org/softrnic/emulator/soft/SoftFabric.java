package org.softrnic.emulator.soft;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.fabric.InprocFabric;
import org.softrnic.emulator.fabric.InprocPort;
import org.softrnic.nic.Nic;
import org.softrnic.nic.sim.SimFabric;

/**
 * The in-process fabric as the verbs API sees it, in one of two modes:
 * <ul>
 * <li>{@link #threaded()}: every soft RNIC on its own event loop, wall-clock time, faults per link from
 * their own seeds (the order in which threads interleave is not reproducible);</li>
 * <li>{@link #virtual(long)}: the whole fabric on the caller's thread in virtual time; verbs run at once,
 * and a poll or wait that finds nothing runs the fabric until it is idle. A seed replays a run exactly.</li>
 * </ul>
 * A device's {@code faults} apply on its outgoing links, its {@code link_faults} on the link to one named
 * peer, and {@link #faults} sets a link in code.
 */
public final class SoftFabric implements AutoCloseable {
    private static SoftFabric shared;

    private final InprocFabric threaded;
    private final SimFabric virtual;
    private final List<SoftRnic> devices = new ArrayList<>();
    private final List<Nic> nics = new ArrayList<>();

    /** The one thread the virtual fabric's devices run on (null when threaded). */
    private final FabricThread virtualThread;

    private SoftFabric(InprocFabric threaded, SimFabric virtual) {
        this.threaded = threaded;
        this.virtual = virtual;
        this.virtualThread = virtual == null ? null : new FabricThread();
    }

    public static SoftFabric threaded() {
        return new SoftFabric(new InprocFabric(), null);
    }

    public static SoftFabric virtual(long seed) {
        return new SoftFabric(null, new SimFabric(seed));
    }

    /**
     * A virtual-time fabric whose devices are the hosts of {@code topology}, by name: their packets cross its links
     * and switches, queue, serialise, get ECN-marked, paused or dropped on the way.
     */
    public static SoftFabric virtual(long seed, org.softrnic.nic.sim.Topology topology) {
        SimFabric sim = new SimFabric(seed);
        sim.topology(topology);
        return new SoftFabric(null, sim);
    }

    /** The JVM's own threaded fabric, which devices whose link is {@code inproc} join. */
    public static synchronized SoftFabric shared() {
        if (shared == null) shared = threaded();
        return shared;
    }

    public boolean isVirtual() {
        return virtual != null;
    }

    /** The virtual-time fabric underneath, for tracing and drop rules; null in threaded mode. */
    public SimFabric simulation() {
        return virtual;
    }

    /** Adds a soft RNIC configured by {@code config} (its link is this fabric, whatever the config says). */
    public synchronized SoftRnic add(SoftRnicConfig config) {
        for (SoftRnic d : devices) {
            if (d.name().equals(config.name())) throw new IllegalArgumentException("a device named " + config.name() + " is already on this fabric");
        }
        SoftRnic device;
        if (virtual != null) {
            Nic nic = virtual.add(config.toNicConfig());
            for (int i = 0; i < devices.size(); i++) {
                SoftRnic peer = devices.get(i);
                virtual.faults(nic, nics.get(i), faultsTo(config, peer.name()).toLinkFaults());
                virtual.faults(nics.get(i), nic, faultsTo(peer.config(), config.name()).toLinkFaults());
            }
            nics.add(nic);
            device = SoftRnic.virtual(config, virtual, virtualThread, nic);
        } else {
            FaultConfig f = config.faults();
            InprocPort port = threaded.attach(config.name(), config.toNicConfig().gids(), f.toLinkFaults(), f.seed());
            for (Map.Entry<String, FaultConfig> e : config.linkFaults().entrySet()) {
                threaded.faults(config.name(), e.getKey(), e.getValue().toLinkFaults());
            }
            try {
                device = SoftRnic.attached(config, port, () -> removed(config.name()));
            } catch (RuntimeException e) {
                port.close();
                throw e;
            }
        }
        devices.add(device);
        return device;
    }

    private static FaultConfig faultsTo(SoftRnicConfig from, String peer) {
        return from.linkFaults().getOrDefault(peer, from.faults());
    }

    private synchronized void removed(String name) {
        devices.removeIf(d -> d.name().equals(name));
    }

    /** Faults on the one-way link from device {@code from} to device {@code to}, both on this fabric. */
    public synchronized void faults(SoftRnic from, SoftRnic to, FaultConfig f) {
        if (virtual != null) {
            virtual.faults(nicOf(from), nicOf(to), f.toLinkFaults());
        } else {
            threaded.faults(from.name(), to.name(), f.toLinkFaults());
        }
    }

    private Nic nicOf(SoftRnic d) {
        int i = devices.indexOf(d);
        if (i < 0) throw new IllegalArgumentException(d + " is not on this fabric");
        return nics.get(i);
    }

    public synchronized List<SoftRnic> devices() {
        return List.copyOf(devices);
    }

    /** Closes every device on the fabric whatever is still open on it (a test harness, after its leak check). */
    public void abandon() {
        for (SoftRnic d : devices()) d.abandon();
        close();
    }

    /** Closes every device on the fabric (EBUSY if one still has open contexts), then frees its memory. */
    @Override
    public void close() {
        RuntimeException first = null;
        for (SoftRnic d : devices()) {
            try {
                d.close(); // every device, even after one failed (a trace that could not be written)
            } catch (RuntimeException e) {
                if (first == null) first = e;
                else first.addSuppressed(e);
            }
        }
        if (threaded != null) threaded.close();
        synchronized (SoftFabric.class) {
            if (shared == this) shared = null;
        }
        if (first != null) throw first;
    }
}
