package org.softrnic.emulator.junit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftFabric;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevices;
import org.softrnic.wire.pcap.LinkType;
import org.softrnic.wire.pcap.PcapWriter;

/**
 * One test's soft RNICs: its seed, its fabric and devices, the contexts handed to it as parameters, and what
 * it leaves behind when it fails (the packets, as a capture and as a listing).
 */
public final class SoftRnicRun {
    /** Where a failed test's packets go, relative to the working directory (the module, under Maven). */
    public static final Path ARTEFACTS = Path.of("target", "softrnic");

    private final String testClass;
    private final String testMethod;
    private final long seed;
    private final SoftFabric fabric;
    private final List<SoftRnic> devices = new ArrayList<>();
    private final List<RdmaContext> contexts = new ArrayList<>();
    private final String realDevice;
    /** softrnic's native memory before the run ({@link org.softrnic.emulator.fabric.CountedArena}): it must be back after. */
    private final long nativeBefore = org.softrnic.emulator.fabric.CountedArena.live();

    SoftRnicRun(String testClass, String testMethod, SoftRnicTest shape, Faults faults) {
        this.testClass = testClass;
        this.testMethod = testMethod;
        this.seed = seedFor(testClass, testMethod);
        String provider = System.getProperty("softrnic.provider", "soft");
        if (provider.equals("ibverbs")) {
            realDevice = System.getProperty("softrnic.device");
            fabric = null;
            return;
        }
        if (!provider.equals("soft")) throw new IllegalArgumentException("-Dsoftrnic.provider must be soft or ibverbs, not " + provider);
        realDevice = null;
        fabric = shape.fabric() == SoftRnicTest.Fabric.VIRTUAL ? SoftFabric.virtual(seed) : SoftFabric.threaded();
        try {
            build(shape, faults);
        } catch (RuntimeException e) {
            fabric.abandon(); // a bad annotation (a loss of 2) must not leave a fabric and its threads behind
            throw e;
        }
    }

    private void build(SoftRnicTest shape, Faults faults) {
        if (fabric.isVirtual()) fabric.simulation().tracing(true);
        for (int i = 0; i < shape.devices(); i++) {
            String name = i < shape.names().length ? shape.names()[i] : "rnic" + i;
            var config = SoftRnicConfig.builder().name(name).gid("10.0.0." + (i + 1)).mtu(shape.mtu()).seed(seed + i);
            if (faults != null) {
                // each device's links draw from the test's seed (on THREADED each port has its own generator)
                config.faults(new FaultConfig(faults.loss(), faults.duplicate(), faults.reorder(), faults.delayMicros() * 1000,
                        faults.jitterMicros() * 1000, faults.ecnMark(), seed + i));
            }
            devices.add(fabric.add(config.build()));
        }
    }

    /** -Dsoftrnic.seed when given, else a value derived from the test's name: the same test, the same run. */
    static long seedFor(String testClass, String testMethod) {
        String fixed = System.getProperty("softrnic.seed");
        if (fixed != null) return Long.parseLong(fixed.trim());
        CRC32 crc = new CRC32();
        crc.update((testClass + "#" + testMethod).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return crc.getValue();
    }

    public long seed() {
        return seed;
    }

    /** The fabric; null when the tests run on a real device. */
    public SoftFabric fabric() {
        return fabric;
    }

    public SoftRnic device(int i) {
        if (fabric == null) throw new IllegalStateException("soft RNICs exist only with -Dsoftrnic.provider=soft");
        return devices.get(i);
    }

    /** A context of the {@code i}th device (of the real device, every time, under ibverbs), closed by the run. */
    RdmaContext context(int i) {
        RdmaContext c = fabric == null ? realDevice().open() : device(i).open();
        contexts.add(c);
        return c;
    }

    /**
     * What {@link Faults} did in this run, over every device's packets: link_dropped, link_duplicated,
     * link_reordered and link_ecn_marked (each device's own are in its counters under the same names), so that a
     * test can assert that the loss it asked for happened.
     */
    public java.util.Map<String, Long> faults() {
        java.util.Map<String, Long> sum = new java.util.LinkedHashMap<>();
        for (String name : org.softrnic.nic.sim.LinkCounts.NAMES) sum.put(name, 0L);
        for (SoftRnic d : devices) {
            var c = d.counters();
            for (String name : org.softrnic.nic.sim.LinkCounts.NAMES) sum.merge(name, c.getOrDefault(name, 0L), Long::sum);
        }
        return sum;
    }

    /** Packets the fault model dropped in this run, over every device: {@code faults().get("link_dropped")}. */
    public long dropped() {
        return faults().get("link_dropped");
    }

    /** Every device's refusals, each named by its device: "rnic1: QP 0x11 refused PSN 5: ...". */
    List<String> refusals() {
        List<String> all = new ArrayList<>();
        for (SoftRnic d : devices) for (String r : d.refusals()) all.add(d.name() + ": " + r);
        return all;
    }

    /** Whether the test closed a context it was given itself (try-with-resources on a parameter). */
    private static boolean isClosed(RdmaContext c) {
        try {
            c.queryPort(1);
            return false;
        } catch (org.softrnic.verbs.VerbsException e) {
            return true;
        }
    }

    /** The real device's name as given (-Dsoftrnic.device), without opening anything. */
    String deviceName() {
        return realDevice != null ? realDevice : "the ibverbs provider's first device";
    }

    /** -Dsoftrnic.device, or else the first device the ibverbs provider lists. */
    private org.softrnic.verbs.RdmaDevice realDevice() {
        if (realDevice != null) return RdmaDevices.byName(realDevice);
        return RdmaDevices.list().stream().filter(d -> d.provider().equals("ibverbs")).findFirst()
                .orElseThrow(() -> new IllegalStateException("-Dsoftrnic.provider=ibverbs, and libibverbs lists no device"));
    }

    /** The line that replays this test exactly. */
    public String replay() {
        String simple = testClass.substring(testClass.lastIndexOf('.') + 1);
        return "-Dsoftrnic.seed=" + seed + " -Dtest=" + simple + "#" + testMethod;
    }

    public Path capture() {
        return ARTEFACTS.resolve(artefactName() + ".pcap");
    }

    public Path listing() {
        return ARTEFACTS.resolve(artefactName() + ".txt");
    }

    private String artefactName() {
        return testClass.substring(testClass.lastIndexOf('.') + 1) + "." + testMethod;
    }

    /** Packets the virtual fabric traced so far; -1 where nothing traces them (THREADED, a real device). */
    long packetsTraced() {
        return fabric == null || !fabric.isVirtual() ? -1 : fabric.simulation().trace().size();
    }

    /** Keeps the run's packets: a capture (raw IP, Wireshark opens it) and a listing. False if nothing was traced. */
    boolean keepPackets() {
        if (fabric == null || !fabric.isVirtual()) return false;
        var trace = fabric.simulation().trace();
        try {
            Files.createDirectories(ARTEFACTS);
            try (OutputStream os = Files.newOutputStream(capture()); PcapWriter w = new PcapWriter(os, LinkType.RAW)) {
                for (var p : trace) if (!p.duplicate()) w.write(p.sentAt(), p.bytes());
            }
            Files.writeString(listing(), PacketListing.of(trace, devices));
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Closes the contexts the run handed out and then the fabric. Returns what the test left open (named as
     * errors name it); those are dropped with the fabric.
     */
    List<String> finish() {
        List<String> handedOut = contexts.stream().map(Object::toString).toList();
        List<String> leaked = new ArrayList<>();
        for (SoftRnic d : devices) leaked.addAll(d.openObjects().stream().filter(o -> !handedOut.contains(o)).toList());
        if (fabric == null) {
            for (RdmaContext c : contexts) {
                try {
                    if (!isClosed(c)) c.close();
                } catch (RuntimeException e) {
                    leaked.add(e.getMessage());
                }
            }
            return leaked;
        }
        if (leaked.isEmpty()) {
            try {
                for (RdmaContext c : contexts) if (!isClosed(c)) c.close(); // a test may close what it was given
            } finally {
                fabric.close();
            }
            long held = org.softrnic.emulator.fabric.CountedArena.live() - nativeBefore;
            if (held != 0) {
                leaked.add(held + " bytes of softrnic's native memory (a device or fabric the test made and did not close)");
            }
        } else {
            fabric.abandon();
        }
        return leaked;
    }
}
