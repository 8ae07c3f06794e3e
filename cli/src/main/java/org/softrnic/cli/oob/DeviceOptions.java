package org.softrnic.cli.oob;

import java.nio.file.Path;
import org.softrnic.cli.UserError;
import picocli.CommandLine.Option;

/** The options that choose the device a tool-compatible command runs on (a picocli mixin). */
public final class DeviceOptions {
    @Option(names = "--provider", paramLabel = "NAME", defaultValue = "soft",
            description = "soft (default): a soft RNIC on --link; ibverbs: a real device (hardware or rxe) through libibverbs")
    String provider;

    @Option(names = "--link", paramLabel = "SPEC",
            description = "soft provider: udp:ADDR[:PORT] (default udp:127.0.0.1; RoCE port 4791 unless given), or a frame port:"
                    + " qemu's socket netdev, qemu-listen:PORT,ip=A/N[,mac=M] or qemu-connect:PORT,ip=A/N[,mac=M], or a TAP device,"
                    + " tap:IFNAME,ip=A/N[,mac=M]; a frame port also takes ,loss=P[,seed=S] (that share of RoCE packets dropped each way) and ,ecn=P (that share of"
                    + " the ECN-capable ones that arrive marked CE)")
    String link;

    @Option(names = "--cnp", paramLabel = "MODE", description = "soft provider: DCQCN's notification point, off (default, as rxe),"
            + " firmware (a CNP per QP at most every 4 µs for CE-marked packets) or paper (every 50 µs)")
    String cnp;

    @Option(names = "--dcqcn", paramLabel = "MODE", description = "soft provider: DCQCN's reaction point on each RC/UC QP, off (default),"
            + " firmware or paper: CNPs cut the QP's rate, its data goes out ECT(0)")
    String dcqcn;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "the device's name (soft: softrnic0; ibverbs: the first listed)")
    String device;

    @Option(names = "--trace", paramLabel = "FILE.pcap", description = "soft provider: record every packet sent and received to a capture;"
            + " softrnic ladder draws it")
    Path trace;

    /** The providers every command's --provider takes. */
    public static void checkProvider(String provider) {
        if (!provider.equals("soft") && !provider.equals("ibverbs")) throw new UserError("--provider must be soft or ibverbs, not '" + provider + "'");
    }

    /** soft or ibverbs. */
    public String providerName() {
        return provider;
    }

    /** The device's name, as the tools print it. */
    public String deviceName() {
        return device != null ? device : "softrnic0";
    }

    /**
     * Runs {@code run} with RdmaCm.createEventChannel() on {@code provider}'s rdma_cm (the property it reads), and
     * puts the property back after, so that a command run in a JVM that goes on leaves nothing behind.
     */
    public static int withRdmaCmOn(String provider, java.util.concurrent.Callable<Integer> run) throws Exception {
        String before = System.getProperty("softrnic.provider");
        System.setProperty("softrnic.provider", provider);
        try {
            return run.call();
        } finally {
            if (before == null) System.clearProperty("softrnic.provider");
            else System.setProperty("softrnic.provider", before);
        }
    }

    /** Opens the chosen device, runs {@code body} on it and closes it. */
    public int run(String command, ToolDevice.Body body) throws Exception {
        checkProvider(provider);
        return switch (provider) {
            case "soft" -> {
                org.softrnic.cli.OutputFiles.check(trace, "--trace");
                yield ToolDevice.run(command, deviceName(), link != null ? link : "udp:127.0.0.1", trace,
                        new ToolDevice.Congestion(cnp, dcqcn), body);
            }
            case "ibverbs" -> {
                if (link != null) throw new UserError("--link applies to the soft provider; a real device sends through its own interface");
                if (cnp != null || dcqcn != null) {
                    throw new UserError("--cnp and --dcqcn configure the soft RNIC; a real device's DCQCN is its firmware's"
                            + " (/sys/class/net/IFACE/ecn/roce_np and roce_rp on mlx5)");
                }
                if (trace != null) {
                    throw new UserError("--trace records a soft RNIC's packets; for a real device capture its interface"
                            + " (tcpdump -i IFACE udp port 4791)");
                }
                yield withRdmaCmOn("ibverbs", () -> ToolDevice.runIbverbs(device, body)); // perftest -R: librdmacm's
            }
            default -> throw new IllegalStateException(provider);
        };
    }
}
