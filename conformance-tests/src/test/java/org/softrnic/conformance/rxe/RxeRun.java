package org.softrnic.conformance.rxe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One run against a real rxe guest booted by scripts/rxe-peer (192.0.2.1), on one of three paths:
 * <ul>
 * <li>UDP: a network namespace made for the run with a tap in it (192.0.2.100/24, an address that exists
 * only on that link); the guest sits on the tap and softrnic's UDP socket runs inside the namespace;</li>
 * <li>frames: qemu's socket netdev on 127.0.0.1, softrnic's frame port listening ({@link #framePort}), and
 * the tools' TCP exchange through qemu's user network ({@link #oobPort});</li>
 * <li>tap: a namespace with a bridge (192.0.2.200/24, for the tools' TCP exchange) joining the guest's tap
 * and a second tap that softrnic's frame port opens through FFM as 192.0.2.100.</li>
 * </ul>
 * Closing kills every process it started and deletes the namespace, also after a failure.
 */
public final class RxeRun implements AutoCloseable {
    public static final String HOST_IP = "192.0.2.100";
    public static final String GUEST_IP = "192.0.2.1";
    /** softrnic's MAC on both paths: the frame port makes it from the address, and the tap is given it. */
    public static final String HOST_MAC = "02:00:c0:00:02:64";
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static final Path ROOT = org.softrnic.conformance.Interop.ROOT;

    private final String name = "softrnic-" + ProcessHandle.current().pid() + "-" + NEXT.incrementAndGet();
    private final List<Process> started = new ArrayList<>();
    /** The ways softrnic reaches the guest. */
    public enum Route { UDP, FRAMES, TAP }

    public static final String BRIDGE_IP = "192.0.2.200";
    /** IPv6 runs: addresses from the documentation prefix, on the same link. */
    public static final String GUEST_IP6 = "2001:db8:5::1";
    public static final String HOST_IP6 = "2001:db8:5::100";
    private boolean ipv6;
    private final Route route;
    private final boolean frames;
    /** Frames: the TCP ports of the frame link and of the tools' exchange. */
    public final int framePort;
    public final int oobPort;
    final Path dir;

    private RxeRun(String label, Route route) throws IOException, InterruptedException {
        this.route = route;
        this.frames = route == Route.FRAMES;
        dir = Files.createDirectories(Path.of("target", "rxe-interop", label).toAbsolutePath());
        framePort = frames ? freePort() : 0;
        oobPort = frames ? freePort() : 0;
        if (frames) return;
        sh("ip", "netns", "add", name);
        sh("ip", "-n", name, "link", "set", "lo", "up");
        sh("ip", "netns", "exec", name, "ip", "tuntap", "add", "dev", "srtap0", "mode", "tap");
        // no duplicate address detection on the link: a tentative link-local address sends no solicitations
        sh("ip", "netns", "exec", name, "sysctl", "-qw", "net.ipv6.conf.srtap0.accept_dad=0");
        if (route == Route.UDP) {
            sh("ip", "-n", name, "link", "set", "srtap0", "address", HOST_MAC);
            sh("ip", "-n", name, "addr", "add", HOST_IP + "/24", "dev", "srtap0");
        } else {
            // softrnic's own tap, bridged to the guest's; the bridge's address carries only the tools' TCP
            sh("ip", "netns", "exec", name, "ip", "tuntap", "add", "dev", "srtap1", "mode", "tap");
            sh("ip", "-n", name, "link", "add", "srbr0", "type", "bridge");
            sh("ip", "-n", name, "link", "set", "srtap0", "master", "srbr0");
            sh("ip", "-n", name, "link", "set", "srtap1", "master", "srbr0");
            sh("ip", "-n", name, "addr", "add", BRIDGE_IP + "/24", "dev", "srbr0");
            sh("ip", "-n", name, "link", "set", "srbr0", "up");
            sh("ip", "-n", name, "link", "set", "srtap1", "up");
        }
        sh("ip", "-n", name, "link", "set", "srtap0", "up");
    }

    /** A run on {@code path}: "udp", "frames" or "tap". */
    public static RxeRun on(String path, String label) throws IOException, InterruptedException {
        return new RxeRun(label, Route.valueOf(path.toUpperCase(java.util.Locale.ROOT)));
    }


    private String netem;
    private int linkMtu = 1500;

    /** The link's MTU: the guest's eth0 and, on the UDP path, the tap. */
    public void linkMtu(int mtu) throws IOException, InterruptedException {
        this.linkMtu = mtu;
        if (!frames) sh("ip", "-n", name, "link", "set", "srtap0", "mtu", "" + mtu);
        if (route == Route.TAP) {
            sh("ip", "-n", name, "link", "set", "srtap1", "mtu", "" + mtu);
            sh("ip", "-n", name, "link", "set", "srbr0", "mtu", "" + mtu);
        }
    }

    /**
     * RoCE over IPv6: the guest gets {@link #GUEST_IP6} too (rxe's GID 2) and softrnic uses {@link #HOST_IP6}
     * (its GID 1); the tools' TCP exchange stays on IPv4.
     */
    public void ipv6() throws IOException, InterruptedException {
        ipv6 = true;
        if (route == Route.UDP) sh("ip", "-n", name, "-6", "addr", "add", HOST_IP6 + "/64", "dev", "srtap0", "nodad");
    }

    /** rxe's GID index for the run's address family, as the guest's shell finds it; softrnic's is 1 for both. */
    public String guestGidIndex() {
        return ipv6 ? "$GID6" : "$GID4";
    }

    private String tc;

    /** tc commands for the guest, ';' between them, each without its "tc" (rxe-peer's --tc), or null. */
    public void tc(String lines) {
        this.tc = lines;
    }

    /** tc netem settings for the guest's eth0 (e.g. "loss 5%"), or null. */
    public void netem(String settings) {
        this.netem = settings;
    }

    public boolean isFrames() {
        return frames;
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.ofLiteral("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    /** softrnic's --link on this path; {@code extra} (e.g. ",loss=0.05") is added to a frame port's. */
    public String softrnicLink(String extra) {
        String ip = ipv6 ? HOST_IP6 + "/64" : HOST_IP + "/24";
        return switch (route) {
            case FRAMES -> "qemu-listen:" + framePort + ",ip=" + ip + extra;
            case TAP -> "tap:srtap1,ip=" + ip + extra;
            case UDP -> ipv6 ? "udp:[" + HOST_IP6 + "]" : "udp:" + HOST_IP;
        };
    }

    public String softrnicLink() {
        return softrnicLink("");
    }

    /** True where softrnic owns the frames, so it checks every ICRC and can drop packets itself. */
    public boolean ownsFrames() {
        return route != Route.UDP;
    }

    /** Where the guest's tool reaches softrnic's TCP exchange, and where softrnic reaches the guest's. */
    public String softrnicAddressForGuest() {
        return switch (route) {
            case FRAMES -> "10.0.2.100";
            case TAP -> BRIDGE_IP;
            case UDP -> HOST_IP;
        };
    }

    public String guestAddressForSoftrnic() {
        return frames ? "127.0.0.1" : GUEST_IP;
    }

    private List<String> inRun(List<String> cmd) {
        if (frames) return cmd;
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", name));
        all.addAll(cmd);
        return all;
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

    /**
     * Boots the guest to run {@code command}, recording the link to {@code pcap}; output to guest.out. On the
     * frame path softrnic must already listen; {@code softrnicServes} routes the guest's exchange to it, else
     * softrnic's to the guest.
     */
    public Process guest(String command, Path pcap, boolean softrnicServes) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ROOT.resolve("scripts/rxe-peer").toString(), "--ip", GUEST_IP + "/24",
                "--pcap", pcap.toString(), "--timeout", "240", "--job", dir.resolve("job").toString()));
        if (frames) {
            cmd.addAll(List.of("--net", "connect:" + framePort, softrnicServes ? "--guestfwd" : "--hostfwd", "" + oobPort));
        } else {
            cmd.addAll(List.of("--net", "tap:srtap0"));
        }
        if (ipv6) cmd.addAll(List.of("--ip6", GUEST_IP6 + "/64"));
        if (netem != null) cmd.addAll(List.of("--netem", netem));
        if (tc != null) cmd.addAll(List.of("--tc", tc));
        if (linkMtu != 1500) cmd.addAll(List.of("--link-mtu", "" + linkMtu));
        cmd.addAll(List.of("--", command));
        return start("guest", inRun(cmd));
    }

    /** Runs the softrnic CLI inside the namespace, with the counters printed to its stderr at the end. */
    public Process softrnic(String label, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("-Dsoftrnic.counters=true", "org.softrnic.cli.Main"));
        all.addAll(List.of(args));
        return java(label, all);
    }

    /** Runs java with the tests' class path inside the namespace, from the repository's root, with {@code args}. */
    public Process java(String label, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path")));
        cmd.addAll(args);
        return start(label, inRun(cmd));
    }

    private Process start(String label, List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(frames ? cmd : privileged(cmd)).directory(ROOT.toFile())
                .redirectOutput(dir.resolve(label + ".out").toFile()).redirectError(dir.resolve(label + ".err").toFile()).start();
        started.add(p);
        return p;
    }

    /**
     * A librdmacm example tool ({@code tool}: ucmatose, udaddy) in the guest against softrnic's clone of it, with
     * the same {@code shape} (-c, -C, -S): softrnic serves, or connects to the guest again while it boots. Both
     * must end 0; returns the guest's output and softrnic's.
     */
    public String[] cmToolPair(String tool, String shape, boolean softrnicServes, Path pcap) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(tool, "--link", softrnicLink()));
        args.addAll(List.of(shape.split(" ")));
        if (softrnicServes) args.addAll(List.of("--timeout", "200"));
        else args.addAll(List.of("-s", GUEST_IP, "--wait", "150"));
        Process soft = softrnic("softrnic", args.toArray(String[]::new));
        Thread.sleep(1500);
        String command = (softrnicServes ? tool + " -s " + HOST_IP + " " : tool + " ") + shape;
        Process guest = guest(command + "; echo \"[tool rc=$?]\"", pcap, false);
        guest.waitFor(240, java.util.concurrent.TimeUnit.SECONDS);
        soft.waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
        String g = output("guest");
        String mine = output("softrnic");
        org.junit.jupiter.api.Assertions.assertTrue(g.contains("[tool rc=0]"),
                tool + " in the guest failed:\n" + g + errors("guest") + "\nsoftrnic:\n" + mine + errors("softrnic"));
        org.junit.jupiter.api.Assertions.assertEquals(0, soft.exitValue(), mine + errors("softrnic") + g);
        return new String[] {g, mine};
    }

    /**
     * One run of a tool pair: softrnic (the CLI with {@code softrnicArgs}) as server, listening before the guest
     * boots, or as client, retrying the TCP connection while the guest boots; the guest runs {@code tool}, with
     * softrnic's address after it when softrnic serves, then {@code tail}. Waits for both; returns softrnic's
     * process.
     */
    public Process runPair(boolean softrnicServes, List<String> softrnicArgs, String tool, String tail, Path pcap)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(softrnicArgs);
        if (!softrnicServes) args.addAll(List.of("--wait", "150", guestAddressForSoftrnic()));
        return withGuest(softrnicServes, softrnic("softrnic", args.toArray(String[]::new)), tool, tail, pcap);
    }

    /**
     * The guest's {@code tool} against softrnic's side, already started as {@code soft} (a server listens before the
     * guest boots; on the frame path qemu connects to softrnic's port). Waits for both; returns {@code soft}.
     */
    public Process withGuest(boolean softrnicServes, Process soft, String tool, String tail, Path pcap) throws IOException, InterruptedException {
        if (softrnicServes || frames) Thread.sleep(1500);
        Process guest = guest(tool + (softrnicServes ? " " + softrnicAddressForGuest() : "") + tail, pcap, softrnicServes);
        awaitBoth(guest, soft, 240);
        return soft;
    }

    /** {@code command} in the run's namespace (as root there), with {@code env}; its output to LABEL.out and .err. */
    public Process command(String label, List<String> command, java.util.Map<String, String> env) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("env"));
        env.forEach((k, v) -> cmd.add(k + "=" + v));
        cmd.addAll(command);
        return start(label, inRun(cmd));
    }

    /**
     * Waits until both have ended, at most {@code seconds}; fails at once when softrnic ends with an error
     * before the guest does (the guest's tool would then wait for ever), naming what softrnic said. A softrnic
     * still running {@link #OUTLIVE_SECONDS} after the guest ended has its threads dumped (SIGQUIT) and the
     * failure carries both sides' words and the dump.
     */
    private void awaitBoth(Process guest, Process softrnic, int seconds) throws InterruptedException, IOException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long guestEnded = 0;
        while (guest.isAlive() || softrnic.isAlive()) {
            if (!softrnic.isAlive() && softrnic.exitValue() != 0) return; // the caller's checks report it
            long now = System.nanoTime();
            if (!guest.isAlive() && guestEnded == 0) guestEnded = now;
            boolean outlived = guestEnded != 0 && now - guestEnded > OUTLIVE_SECONDS * 1_000_000_000L;
            if (now > end || outlived) {
                if (softrnic.isAlive()) dumpThreads(softrnic);
                String what = (guest.isAlive() ? "the guest did not finish in " + seconds + " s"
                        : "softrnic did not finish " + (outlived ? OUTLIVE_SECONDS + " s after the guest ended" : "in " + seconds + " s"))
                        + "\n--- guest.out:\n" + tail(output("guest")) + "\n--- guest.err:\n" + tail(errors("guest"))
                        + "\n--- softrnic.err:\n" + tail(errors("softrnic"))
                        + "\n--- softrnic.out (with its thread dump):\n" + tail(output("softrnic"));
                // a guest that ended without a word, while qemu itself ran and ended cleanly, never ran its tool (or
                // lost its output), and softrnic waited for a peer that never spoke. Not when qemu failed: on the
                // frame path that can be softrnic's port refusing it.
                String guestErr = errors("guest");
                if (!guest.isAlive() && output("guest").isBlank() && guestErr.contains("the guest left no output")
                        && !guestErr.contains("qemu exited")) {
                    throw new GuestSilent(what);
                }
                throw new AssertionError(what);
            }
            Thread.sleep(100);
        }
    }

    /**
     * The guest ended having printed nothing, not even its tool's exit code, though qemu ran and ended cleanly
     * (rxe-peer: "the guest left no output"): its tool never ran (seen once in CI, a perftest rung whose softrnic
     * server then waited for a version exchange that never came). Such a run says nothing about softrnic; {@link org.softrnic.conformance.Interop#perftestWithClockRetry} runs it once more.
     */
    public static final class GuestSilent extends AssertionError {
        GuestSilent(String message) {
            super(message);
        }
    }

    /** How long softrnic may run on after the guest's tool and the guest have ended. */
    private static final int OUTLIVE_SECONDS = 45;

    /** SIGQUIT to softrnic's JVM (the process itself on the frame path, under sudo and ip netns on the UDP path). */
    private void dumpThreads(Process softrnic) throws IOException, InterruptedException {
        List<Long> jvms = new ArrayList<>();
        if (softrnic.info().command().orElse("").endsWith("/java")) jvms.add(softrnic.pid());
        softrnic.descendants().filter(h -> h.info().command().orElse("").endsWith("/java")).forEach(h -> jvms.add(h.pid()));
        for (long pid : jvms) {
            List<String> kill = List.of("kill", "-QUIT", "" + pid);
            new ProcessBuilder(frames ? kill : privileged(kill)).redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
        }
        Thread.sleep(2000); // the JVM writes its dump to its stdout
    }

    private static String tail(String s) {
        return s.length() <= 12_000 ? s : "[...]" + s.substring(s.length() - 12_000);
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
        if (!frames) sh("ip", "netns", "del", name);
    }
}
