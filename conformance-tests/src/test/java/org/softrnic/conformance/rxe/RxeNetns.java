package org.softrnic.conformance.rxe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The UDP path to a real rxe guest: a network namespace made for one test with a tap in it (192.0.2.100/24,
 * an address that exists only on that link), the guest booted by scripts/rxe-peer on the tap (192.0.2.1),
 * and softrnic run inside the namespace. Closing kills every process it started and deletes the namespace,
 * also after a failure.
 */
public final class RxeNetns implements AutoCloseable {
    public static final String HOST_IP = "192.0.2.100";
    public static final String GUEST_IP = "192.0.2.1";
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private final String name = "softrnic-" + ProcessHandle.current().pid() + "-" + NEXT.incrementAndGet();
    private final List<Process> started = new ArrayList<>();
    final Path dir;

    public RxeNetns(String label) throws IOException, InterruptedException {
        dir = Files.createDirectories(Path.of("target", "rxe-interop", label).toAbsolutePath());
        sh("ip", "netns", "add", name);
        sh("ip", "-n", name, "link", "set", "lo", "up");
        sh("ip", "netns", "exec", name, "ip", "tuntap", "add", "dev", "srtap0", "mode", "tap");
        sh("ip", "-n", name, "addr", "add", HOST_IP + "/24", "dev", "srtap0");
        sh("ip", "-n", name, "link", "set", "srtap0", "up");
    }

    private static final List<String> ROOT_PREFIX = org.softrnic.conformance.Interop.asRoot();

    private static List<String> privileged(List<String> cmd) {
        List<String> all = new ArrayList<>(ROOT_PREFIX);
        all.addAll(cmd);
        return all;
    }

    private static void sh(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(privileged(List.of(cmd))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException(String.join(" ", cmd) + " failed: " + out);
    }

    /** Boots the guest on the tap, recording the link to {@code pcap}, to run {@code command}; output to guest.out. */
    public Process guest(String command, Path pcap) throws IOException {
        return start("guest", List.of("ip", "netns", "exec", name, ROOT.resolve("scripts/rxe-peer").toString(), "--net",
                "tap:srtap0", "--ip", GUEST_IP + "/24", "--pcap", pcap.toString(), "--timeout", "240", "--", command));
    }

    /** Runs the softrnic CLI inside the namespace, with the counters printed to its stderr at the end. */
    public Process softrnic(String label, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", name,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Dsoftrnic.counters=true",
                "-cp", System.getProperty("java.class.path"), "org.softrnic.cli.Main"));
        cmd.addAll(List.of(args));
        return start(label, cmd);
    }

    private Process start(String label, List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(privileged(cmd)).directory(ROOT.toFile())
                .redirectOutput(dir.resolve(label + ".out").toFile()).redirectError(dir.resolve(label + ".err").toFile()).start();
        started.add(p);
        return p;
    }

    /**
     * Waits until both have ended, at most {@code seconds}; fails at once when softrnic ends with an error
     * before the guest does (the guest's tool would then wait for ever), naming what softrnic said.
     */
    public static void awaitBoth(Process guest, Process softrnic, int seconds) throws InterruptedException, IOException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (guest.isAlive() || softrnic.isAlive()) {
            if (!softrnic.isAlive() && softrnic.exitValue() != 0) return; // the caller's checks report it
            if (System.nanoTime() > end) throw new AssertionError((guest.isAlive() ? "the guest" : "softrnic") + " did not finish in " + seconds + " s");
            Thread.sleep(100);
        }
    }

    public String output(String label) throws IOException {
        return Files.readString(dir.resolve(label + ".out"));
    }

    public String errors(String label) throws IOException {
        return Files.readString(dir.resolve(label + ".err"));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly); // qemu under timeout under the script
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        sh("ip", "netns", "del", name);
    }
}
