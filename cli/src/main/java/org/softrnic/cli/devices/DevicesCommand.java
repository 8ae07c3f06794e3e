package org.softrnic.cli.devices;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.softrnic.emulator.ibverbs.IbverbsProvider;
import org.softrnic.verbs.PortAttr;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevice;
import org.softrnic.verbs.VerbsException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "devices", mixinStandardHelpOptions = true, sortOptions = false,
        description = "List the RDMA devices the commands can use, as ibv_devices does: the soft RNIC, and every real device"
                + " (hardware, rxe, siw) that libibverbs finds (--provider ibverbs).",
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic devices", "  softrnic devices -v        (ports and GID tables too, as ibv_devinfo -v)"})
public final class DevicesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-v", "--verbose"}, description = "open each real device and show port 1 and its GID table")
    boolean verbose;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.printf("    %-16s\t%16s\t%s%n", "device", "node GUID", "provider");
        out.printf("    %-16s\t%16s\t%s%n", "------", "----------------", "--------");
        out.printf("    %-16s\t%16s\t%s%n", "softrnic0", "(made per run)", "soft: each command makes its own on --link");
        List<RdmaDevice> real;
        try {
            real = IbverbsProvider.require();
        } catch (VerbsException e) {
            out.println("ibverbs: " + e.getMessage());
            return 0;
        }
        for (RdmaDevice d : real) out.printf("    %-16s\t%016x\t%s%n", d.name(), d.guid(), d.provider());
        if (verbose) for (RdmaDevice d : real) describe(d, out);
        return 0;
    }

    private static void describe(RdmaDevice d, PrintWriter out) {
        out.println();
        try (RdmaContext ctx = d.open()) {
            PortAttr p = ctx.queryPort(1);
            out.printf("%s port 1: %s, active MTU %d (max %d), link layer %s, %d GIDs%n", d.name(), p.state(), p.activeMtu().bytes,
                    p.maxMtu().bytes, p.linkLayer(), p.gidTblLen());
            for (int i = 0; i < p.gidTblLen(); i++) {
                try {
                    out.printf("    GID[%3d]: %s%n", i, ctx.queryGid(1, i));
                } catch (VerbsException empty) {
                    // an empty slot: ibv_devinfo leaves it out too
                }
            }
        } catch (VerbsException e) {
            out.println(d.name() + ": " + e.getMessage());
        }
    }
}
