package org.softrnic.cli.oob;

import java.net.Inet4Address;
import org.softrnic.cli.UserError;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.link.LinkSpec;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.RdmaContext;

/**
 * The soft RNIC a tool-compatible command runs on: laid out as rxe's, so that the tools' GID indexes mean
 * the same (0 link-local, 1 the IPv4-mapped address), with an active MTU of 4096, driven inline by the
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

    /** Opens the device on {@code link} (udp:A.B.C.D[:PORT] or a frame port), runs {@code body}, closes it. */
    public static int run(String command, String device, String link, Body body) throws Exception {
        LinkSpec spec;
        try {
            spec = LinkSpec.parse(link);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (spec.kind() == LinkSpec.Kind.INPROC || !(spec.address() instanceof Inet4Address)) {
            throw new UserError("--link " + link + ": " + command + " needs udp:A.B.C.D[:PORT] or a frame port"
                    + " (qemu-listen:PORT,ip=A/N or qemu-connect:PORT,ip=A/N)");
        }
        SoftRnicConfig config = SoftRnicConfig.builder().name(device).gid(linkLocal(spec.address().getAddress()))
                .gid(spec.address().getHostAddress()).mtu(4096).link(link).udpPort(spec.frames() ? 4791 : spec.port())
                .progress("inline").build();
        try (SoftRnic dev = SoftRnic.open(config); RdmaContext ctx = dev.open()) {
            int status = body.run(ctx, dev::progress);
            if (Boolean.getBoolean("softrnic.counters")) System.err.println(dev.countersJson());
            return status;
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new UserError(e.getMessage());
        }
    }

    /** fe80::/64 with an interface identifier made from the IPv4 address: stands in for rxe's MAC-based one. */
    private static String linkLocal(byte[] a) {
        return String.format("fe80::%x:%x", (a[0] & 0xff) << 8 | (a[1] & 0xff), (a[2] & 0xff) << 8 | (a[3] & 0xff));
    }
}
