package org.softrnic.cli.oob;

import java.net.InetAddress;
import org.softrnic.cli.UserError;
import picocli.CommandLine.Option;

/**
 * The options of the librdmacm tools' clones (rping, ucmatose), a picocli mixin: the soft RNIC's link and its
 * trace. No device option: librdmacm picks the device by address, and rping's -d is its debug flag.
 */
public final class CmLinkOptions {
    @Option(names = "--link", paramLabel = "SPEC", defaultValue = "udp:127.0.0.1",
            description = "the soft RNIC's link: udp:ADDR[:PORT] (default ${DEFAULT-VALUE}) or a frame port (qemu-listen:PORT,ip=A/N,"
                    + " qemu-connect:PORT,ip=A/N, tap:IFNAME,ip=A/N); its address is the one the tool binds to or connects from")
    String link;

    @Option(names = "--trace", paramLabel = "FILE.pcap", description = "record every packet sent and received to a capture")
    java.nio.file.Path trace;

    @Option(names = "--provider", paramLabel = "NAME", defaultValue = "soft",
            description = "soft (default: a soft RNIC on --link) or ibverbs (the host's RDMA devices, through librdmacm)")
    String provider;

    /**
     * Opens the soft RNIC on the link, runs {@code body}, closes it; with --provider ibverbs, rdma_cm is
     * librdmacm's on the host's devices, and the tool runs on them (the device is the one its address names).
     */
    public int run(String command, ToolDevice.Body body) throws Exception {
        DeviceOptions.checkProvider(provider);
        if (provider.equals("ibverbs")) return DeviceOptions.withRdmaCmOn("ibverbs", () -> ToolDevice.runIbverbs(null, body));
        org.softrnic.cli.OutputFiles.check(trace, "--trace");
        return ToolDevice.run(command, "softrnic0", link, trace, body);
    }

    /** An IPv4 or IPv6 address literal (never a name to look up), or null for none. */
    public static InetAddress address(String text, String option) {
        if (text == null) return null;
        try {
            return InetAddress.ofLiteral(text);
        } catch (IllegalArgumentException e) {
            throw new UserError(option + " must be an IPv4 or IPv6 address, not '" + text + "'");
        }
    }
}
