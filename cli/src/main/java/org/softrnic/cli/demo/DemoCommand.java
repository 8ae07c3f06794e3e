package org.softrnic.cli.demo;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.verbs.Mtu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Play a scenario between two soft RNICs on the in-process fabric and draw the packets between them"
                + " as a ladder: time runs down, each arrow a packet with its opcode, PSN and size, and a line on what it does.",
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic demo --list", "  softrnic demo write", "  softrnic demo multi-packet --mtu 1024 --size 5000",
                "  softrnic demo loss --drop 4", "  softrnic demo write --loss 0.2 --seed 7",
                "  softrnic demo connect", "  softrnic demo connect --loss", "  softrnic demo odp", "  softrnic demo registration",
                "  softrnic demo read --pcap read.pcap --svg read.svg"})
public final class DemoCommand implements Callable<Integer> {
    /** The scenarios' names, for shell completion. */
    static final class Names implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.stream.Stream.concat(java.util.Arrays.stream(Scenario.values()).map(s -> s.id),
                    java.util.stream.Stream.of(REGISTRATION)).iterator();
        }
    }

    /** The scenario that prints a table of measured costs, not a ladder. */
    static final String REGISTRATION = "registration";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", completionCandidates = DemoCommand.Names.class,
            description = "what to play; --list shows them")
    String scenario;

    @Option(names = "--list", description = "list the scenarios")
    boolean list;

    @Option(names = "--mtu", paramLabel = "M", defaultValue = "1024", description = "path MTU: 256, 512, 1024, 2048 or 4096 (default ${DEFAULT-VALUE}); UD: the port's MTU")
    int mtu;

    @Option(names = "--size", paramLabel = "B", description = "message size in bytes, 1..16777216 (default: the scenario's)")
    Integer size;

    @Option(names = "--loss", defaultValue = "0", arity = "0..1", fallbackValue = "-1", paramLabel = "P",
            description = "drop each packet with probability P (0..1); connect: --loss alone loses the REQ")
    double loss;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "where everything random comes from (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--drop", paramLabel = "N", description = "drop the N-th packet on the wire (default: the scenario's)")
    Integer drop;

    @Option(names = "--no-color", description = "no colour (also off when not on a terminal, or when NO_COLOR is set)")
    boolean noColor;

    @Option(names = "--pcap", paramLabel = "FILE", description = "also write the packets as a capture Wireshark opens")
    java.nio.file.Path pcap;

    @Option(names = "--svg", paramLabel = "FILE", description = "also draw the ladder as an SVG picture")
    java.nio.file.Path svg;

    @Option(names = "--json", description = "print the event trace as JSON instead of the ladder")
    boolean json;

    @Option(names = "--states", description = "under each packet, the states its receiver's responder or completer went"
            + " through, by rxe's names (RESPST_*, COMPST_*)")
    boolean states;

    @Override
    public Integer call() throws java.io.IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (list || scenario == null) {
            out.println("scenarios (softrnic demo SCENARIO):");
            for (Scenario s : Scenario.values()) out.printf("  %-15s %s%n", s.id, s.summary);
            out.printf("  %-15s %s%n", REGISTRATION, "a table, not a ladder: registering per message against registering once or through"
                    + " a registration cache, with hardware's cost");
            out.flush();
            return 0;
        }
        if (scenario.equals(REGISTRATION)) {
            if (pcap != null || svg != null || json || states || drop != null || loss != 0) {
                throw new UserError("demo registration prints a table of measured costs, not a ladder: --pcap, --svg, --json, --states,"
                        + " --drop and --loss do not apply");
            }
            if (size != null && (size < 1 || size > 1 << 20)) throw new UserError("--size must be 1..1048576 for registration, not " + size);
            RegistrationDemo.play(out, size == null ? 4096 : size, 20_000, RegistrationDemo.UCX_MODEL);
            return 0;
        }
        Scenario s = Scenario.byId(scenario);
        if (s == null) throw new UserError("no scenario '" + scenario + "'; softrnic demo --list shows them");
        Mtu m = UserError.mtu("--mtu", mtu);
        if (size != null && (size < 1 || size > 1 << 24)) throw new UserError("--size must be 1..16777216, not " + size);
        if (loss == -1) {
            // --loss without P: the connect scenario's own loss, its first REQ
            if (s != Scenario.CONNECT) throw new UserError("--loss needs P, the probability of losing each packet (0..1)");
            if (drop != null) throw new UserError("--loss alone loses the REQ; with --drop, give --loss a probability");
            loss = 0;
            drop = 1;
        }
        if (!(loss >= 0 && loss < 1)) throw new UserError("--loss must lie in [0, 1), not " + loss);
        if (drop != null && drop < 1) throw new UserError("--drop must be positive, not " + drop);
        if (s == Scenario.MW && size != null && size > 4096) {
            throw new UserError("--size " + size + ": the mw scenario's window is 4096 bytes; its first WRITE must fit inside");
        }
        if (s == Scenario.UD && size != null && size > mtu) {
            throw new UserError("--size " + size + ": a UD message must fit one MTU (--mtu " + mtu + ")");
        }
        org.softrnic.cli.OutputFiles.check(pcap, "--pcap");
        org.softrnic.cli.OutputFiles.check(svg, "--svg");
        Demo.Played p = Demo.play(s, new DemoOptions(m, size == null ? 0 : size, loss, seed, drop == null ? 0 : drop, states));
        if (drop != null && loss == 0 && p.steps().stream().noneMatch(WireStep::dropped)) {
            throw new UserError("--drop " + drop + ": this run puts only " + p.steps().size() + " packets on the wire; nothing would be lost");
        }
        if (json) out.println(DemoExports.json(p));
        else Demo.print(p, out, LadderText.colorWanted(noColor));
        out.flush();
        try {
            if (pcap != null) DemoExports.pcap(p, pcap);
        } catch (java.io.IOException e) {
            throw new org.softrnic.cli.RunFailure("--pcap " + pcap + ": cannot write: " + e.getMessage(), e);
        }
        try {
            if (svg != null) java.nio.file.Files.writeString(svg, DemoExports.svg(p));
        } catch (java.io.IOException e) {
            throw new org.softrnic.cli.RunFailure("--svg " + svg + ": cannot write: " + e.getMessage(), e);
        }
        return 0;
    }
}
