package org.softrnic.cli.oob;

import org.softrnic.cli.UserError;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.ibverbs.IbverbsProvider;
import org.softrnic.emulator.link.LinkSpec;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevice;
import org.softrnic.verbs.VerbsException;

/**
 * The soft RNIC a tool-compatible command runs on: laid out as rxe's, so that the tools' GID indexes mean
 * the same (0 link-local, 1 the link's address: IPv4-mapped, or IPv6), with an active MTU of 4096, driven inline by the
 * command's own thread. With -Dsoftrnic.counters=true its counters go to stderr at the end.
 */
public final class ToolDevice {
    /** The command's work on the open device; {@code progress} moves the device while it waits on TCP. */
    @FunctionalInterface
    public interface Body {
        int run(RdmaContext ctx, Runnable progress) throws Exception;
    }

    private ToolDevice() {
    }

    /**
     * Opens the device on {@code link} (udp:ADDR[:PORT] or a frame port), runs {@code body}, closes it;
     * {@code trace}, when not null, records every packet it sends and receives.
     */
    public static int run(String command, String device, String link, java.nio.file.Path trace, Body body) throws Exception {
        return run(command, device, link, trace, Congestion.OFF, body);
    }

    /** The soft RNIC's DCQCN: its notification point and its reaction point, each off, firmware or paper (null: off). */
    public record Congestion(String cnp, String dcqcn) {
        public static final Congestion OFF = new Congestion(null, null);
    }

    /** {@link #run(String, String, String, java.nio.file.Path, Body)} with DCQCN as {@code cc} says. */
    public static int run(String command, String device, String link, java.nio.file.Path trace, Congestion cc, Body body) throws Exception {
        LinkSpec spec;
        try {
            spec = LinkSpec.parse(link);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (spec.kind() == LinkSpec.Kind.INPROC) {
            throw new UserError("--link " + link + ": " + command + " needs udp:ADDR[:PORT] or a frame port"
                    + " (qemu-listen:PORT,ip=A/N, qemu-connect:PORT,ip=A/N or tap:IFNAME,ip=A/N)");
        }
        if (!spec.frames() && spec.port() == 0) {
            throw new UserError("--link " + link + ": the UDP port must be 1..65535 here, not 0: a peer sends to a port it"
                    + " knows (rxe's is 4791)");
        }
        SoftRnicConfig config;
        try {
            config = SoftRnicConfig.builder().name(device).gid(linkLocal(spec.address().getAddress()))
                    .gid(spec.address().getHostAddress()).mtu(4096).link(link)
                    // keys unlike any other run's, as a real device's are (a fixed seed is for replaying a model run)
                    .seed(System.nanoTime() ^ ProcessHandle.current().pid() << 32).trace(trace == null ? null : trace.toString())
                    .udpPort(spec.frames() ? 4791 : spec.port()).progress("inline").cnp(cc.cnp()).dcqcn(cc.dcqcn()).build();
        } catch (org.softrnic.emulator.config.ConfigException e) {
            throw new UserError((e.getMessage().startsWith("cnp") || e.getMessage().startsWith("dcqcn") ? "--" : "--link " + link + ": ")
                    + e.getMessage());
        }
        try (SoftRnic dev = SoftRnic.open(config); RdmaContext ctx = dev.open()) {
            int status = body.run(ctx, dev::progress);
            linger(dev);
            if (Boolean.getBoolean("softrnic.counters")) System.err.println(dev.countersJson());
            return status;
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        } catch (java.io.UncheckedIOException e) {
            // the link: an address in use, a frame port's peer refusing or gone
            throw new org.softrnic.cli.RunFailure(e.getMessage(), e);
        }
    }

    /**
     * Opens the real device called {@code name} (the first libibverbs lists when null), runs {@code body}, closes
     * it. The device moves on its own, so {@code progress} does nothing.
     */
    static int runIbverbs(String name, Body body) throws Exception {
        try (RdmaContext ctx = chosen(name).open()) {
            return body.run(ctx, () -> { });
        }
    }

    /** {@link IbverbsProvider#device}; no such device, or no RDMA at all, is the environment's: exit 1. */
    public static RdmaDevice chosen(String name) {
        try {
            return IbverbsProvider.device(name);
        } catch (VerbsException e) {
            throw new org.softrnic.cli.RunFailure(e.getMessage(), e);
        }
    }

    /** Half a second of quiet ends the linger; five seconds end it anyway. */
    private static final long QUIET_NANOS = 500_000_000L;
    private static final long LINGER_NANOS = 5_000_000_000L;

    /**
     * The tools exit as soon as their own last completion comes; the peer may still be retrying a request
     * whose ACK was lost, and rxe retries for ever. A NIC answers as long as its QP exists, so the device
     * keeps answering until the link has been quiet for a moment.
     */
    private static void linger(SoftRnic dev) throws InterruptedException {
        long start = System.nanoTime();
        long lastHeard = start;
        while (true) {
            long now = System.nanoTime();
            if (now - lastHeard > QUIET_NANOS || now - start > LINGER_NANOS) return;
            if (dev.progress()) lastHeard = now;
            else Thread.sleep(1);
        }
    }

    /**
     * fe80::/64 with an interface identifier made from the address (IPv4: its 4 bytes; IPv6: its last 8): stands
     * in for rxe's MAC-based one, so that GID 1 is the address itself with either family.
     */
    private static String linkLocal(byte[] a) {
        StringBuilder sb = new StringBuilder("fe80:");
        for (int i = Math.max(0, a.length - 8); i < a.length; i += 2) sb.append(':').append(Integer.toHexString((a[i] & 0xff) << 8 | (a[i + 1] & 0xff)));
        return sb.toString();
    }
}
