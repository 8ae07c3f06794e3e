package org.softrnic.emulator.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.softrnic.emulator.ibverbs.IbverbsProvider;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevice;

/**
 * One real device opened twice, client and server in loopback. Its counters are the kernel's
 * (/sys/class/infiniband/DEV/ports/1/hw_counters, which rxe names as the soft RNIC does), as deltas over the run.
 */
final class IbverbsPerfDevices implements PerfDevices {
    private final RdmaDevice device;
    private final RdmaContext clientCtx;
    private final RdmaContext serverCtx;
    private final Map<String, Long> before;

    IbverbsPerfDevices(String name) {
        device = IbverbsProvider.device(name);
        clientCtx = device.open();
        serverCtx = device.open();
        before = counters();
    }

    private Map<String, Long> counters() {
        Map<String, Long> m = new TreeMap<>();
        Path dir = Path.of("/sys/class/infiniband", device.name(), "ports/1/hw_counters");
        if (!Files.isDirectory(dir)) return m;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                try {
                    m.put(f.getFileName().toString(), Long.parseLong(Files.readString(f).trim()));
                } catch (IOException | NumberFormatException unreadable) {
                    // a counter the kernel does not let us read: left out
                }
            }
        } catch (IOException e) {
            return m;
        }
        return m;
    }

    private Map<String, Long> delta() {
        Map<String, Long> now = counters();
        now.replaceAll((k, v) -> v - before.getOrDefault(k, 0L));
        return now;
    }

    @Override public RdmaContext client() { return clientCtx; }
    @Override public RdmaContext server() { return serverCtx; }
    @Override public long packets() { return delta().getOrDefault("sent_pkts", -1L); }
    @Override public long dropped() { return -1; }
    @Override public Map<String, Long> clientCounters() { return delta(); }
    @Override public Map<String, Long> serverCounters() { return delta(); }

    @Override
    public String describe() {
        return device.name() + " through libibverbs (loopback, two contexts)";
    }

    @Override
    public void close() {
        clientCtx.close();
        serverCtx.close();
    }
}
