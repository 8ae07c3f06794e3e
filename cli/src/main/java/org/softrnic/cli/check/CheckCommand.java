package org.softrnic.cli.check;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.cli.oob.DeviceOptions;
import org.softrnic.cli.oob.ToolDevice;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftFabric;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.Gids;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run the verbs contract: RC send, write, read and atomics, UD, SRQ, completion channels, async events,"
                + " the error statuses and object lifetimes, with data and completions checked. The soft provider runs it"
                + " between two soft RNICs; ibverbs on one real device in loopback (two contexts). Exit 0 when every scenario passes.",
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic check", "  softrnic check --provider ibverbs -d rxe0", "  softrnic check rc-read ud-send"})
public final class CheckCommand implements Callable<Integer> {
    /** The scenarios' names, for shell completion. */
    static final class Names implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Contract.SCENARIOS.keySet().iterator();
        }
    }

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "SCENARIO", completionCandidates = CheckCommand.Names.class, description = "run only these (default: all)")
    List<String> only = new ArrayList<>();

    @Option(names = "--provider", paramLabel = "NAME", defaultValue = "soft", description = "soft (default) or ibverbs")
    String provider;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "ibverbs: the device (default: the first listed)")
    String device;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "N", defaultValue = "-1",
            description = "ibverbs: the GID index to use (default: the first IPv4-mapped one, RoCEv2 over IPv4)")
    int gidIndex;

    @Override
    public Integer call() throws Exception {
        for (String name : only) {
            if (!Contract.SCENARIOS.containsKey(name)) throw new UserError("no scenario " + org.softrnic.cli.Printable.quote(name) + "; there are "
                    + String.join(", ", Contract.SCENARIOS.keySet()));
        }
        PrintWriter out = spec.commandLine().getOut();
        DeviceOptions.checkProvider(provider);
        if (provider.equals("soft") && device != null) throw new UserError("-d names a real device; give it with --provider ibverbs");
        if (provider.equals("soft") && gidIndex != -1) {
            throw new UserError("-x picks a real device's GID; the soft provider's two RNICs have one GID each (use --provider ibverbs)");
        }
        if (gidIndex < -1) throw new UserError("-x: must be a GID index, 0 or more, not " + gidIndex);
        List<Contract.Result> results = provider.equals("soft") ? soft() : ibverbs();
        int failed = 0;
        for (Contract.Result r : results) {
            out.printf("%-4s %-18s %s%n", r.ok() ? "ok" : "FAIL", r.name(), r.detail());
            if (!r.ok()) failed++;
        }
        out.printf("%d of %d scenarios passed on %s%n", results.size() - failed, results.size(), provider);
        return failed == 0 ? 0 : 1;
    }

    private List<Contract.Result> soft() {
        try (SoftFabric fabric = SoftFabric.threaded()) {
            SoftRnic devA = fabric.add(SoftRnicConfig.builder().name("softrnic0").gid("10.0.0.1").build());
            SoftRnic devB = fabric.add(SoftRnicConfig.builder().name("softrnic1").gid("10.0.0.2").build());
            try (RdmaContext a = devA.open(); RdmaContext b = devB.open();
                 Endpoint ea = new Endpoint(a, 0, devA.rocePort()); Endpoint eb = new Endpoint(b, 0, devB.rocePort())) {
                return Contract.run(ea, eb, only);
            }
        }
    }

    private List<Contract.Result> ibverbs() {
        RdmaDevice chosen = ToolDevice.chosen(device);
        try (RdmaContext a = chosen.open(); RdmaContext b = chosen.open()) {
            int gid = gidIndex >= 0 ? gidIndex : Gids.ipv4OrFirst(a);
            try (Endpoint ea = new Endpoint(a, gid, 0); Endpoint eb = new Endpoint(b, gid, 0)) {
                return Contract.run(ea, eb, only);
            }
        }
    }
}
