package org.softrnic.cli.sim;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.emulator.sim.Scenario;
import org.softrnic.emulator.sim.ScenarioResult;
import org.softrnic.emulator.sim.ScenarioRunner;
import org.softrnic.nic.sim.EcnMarking;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "sim", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a congestion scenario in virtual time: soft RNICs WRITE over RC, through the verbs API, to one receiver"
                + " through one switch, which queues, marks ECN, pauses (PFC) or drops; DCQCN or nothing reacts.",
                "incast: every sender starts at once. two-flow: the second sender joins --join-ms after the first."},
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic sim incast --senders 2 --cc dcqcn --duration-ms 20",
                "  softrnic sim two-flow --cc dcqcn --profile firmware --duration-ms 60 --measure-from-ms 30 --json",
                "  softrnic sim incast --senders 2 --cc none --pfc off --buffer 1000000 --duration-ms 300",
                "  softrnic sim incast --senders 2 --cc none --pfc on --buffer 1000000 --svg pfc.svg"})
public final class SimCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "incast or two-flow")
    String scenario;

    @Option(names = "--senders", paramLabel = "N", defaultValue = "2", description = "senders (default: ${DEFAULT-VALUE}; two-flow: 2)")
    int senders;

    @Option(names = "--gbps", paramLabel = "G", defaultValue = "10", description = "every link's rate in Gb/s (default: ${DEFAULT-VALUE})")
    double gbps;

    @Option(names = "--buffer", paramLabel = "BYTES", defaultValue = "32000000", description = "each switch port's buffer (default: ${DEFAULT-VALUE})")
    long buffer;

    @Option(names = "--cc", paramLabel = "CC", defaultValue = "dcqcn", description = "dcqcn or none (default: ${DEFAULT-VALUE})")
    String cc;

    @Option(names = "--profile", paramLabel = "P", defaultValue = "firmware", description = "DCQCN's: firmware or paper (default: ${DEFAULT-VALUE})")
    String profile;

    @Option(names = "--pfc", paramLabel = "on|off", defaultValue = "off", description = "PFC on the data's priority, 3 (default: ${DEFAULT-VALUE})")
    String pfc;

    @Option(names = "--ecn", paramLabel = "KMIN,KMAX,PMAX", description = "RED marking in bytes and a probability (default: HPCC's, 40000,160000,0.2 at 10 Gb/s)")
    String ecn;

    @Option(names = "--duration-ms", paramLabel = "D", defaultValue = "20", description = "virtual time to run (default: ${DEFAULT-VALUE})")
    double durationMs;

    @Option(names = "--measure-from-ms", paramLabel = "F", description = "averages over [F, D] (default: D/2)")
    Double measureFromMs;

    @Option(names = "--window-ms", paramLabel = "W", defaultValue = "1", description = "rate windows (default: ${DEFAULT-VALUE})")
    double windowMs;

    @Option(names = "--join-ms", paramLabel = "J", defaultValue = "10", description = "two-flow: when the second flow starts (default: ${DEFAULT-VALUE})")
    double joinMs;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "the run's seed: a seed replays it exactly (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--topology", paramLabel = "FILE", description = "hosts, switches and links from a JSON or YAML file instead of the"
            + " star the options describe: the first host receives, the others send (see docs/congestion.md)")
    java.nio.file.Path topology;

    @Option(names = "--json", description = "one JSON object")
    boolean json;

    @Option(names = "--svg", paramLabel = "FILE", description = "draw each flow's rate and the queue's depth against time")
    java.nio.file.Path svg;

    @Override
    public Integer call() throws Exception {
        if (!scenario.equals("incast") && !scenario.equals("two-flow")) {
            throw new UserError("SCENARIO must be incast or two-flow, not " + org.softrnic.cli.Printable.quote(scenario));
        }
        if (!pfc.equals("on") && !pfc.equals("off")) throw new UserError("--pfc must be on or off, not " + org.softrnic.cli.Printable.quote(pfc));
        Scenario s;
        try {
            boolean two = scenario.equals("two-flow");
            s = new Scenario(scenario, two ? 2 : senders, gbps, 1_000, buffer, cc, profile, pfc.equals("on"), marking(),
                    durationMs, measureFromMs == null ? durationMs / 2 : measureFromMs, windowMs, two ? joinMs : 0, 65536, seed, null);
            if (topology != null) s = s.withTopology(org.softrnic.emulator.config.ConfigFiles.readTopology(topology));
        } catch (IllegalArgumentException | org.softrnic.emulator.config.ConfigException e) {
            throw new UserError(e.getMessage());
        }
        ScenarioResult r = ScenarioRunner.run(s);
        PrintWriter out = spec.commandLine().getOut();
        if (svg != null) java.nio.file.Files.writeString(svg, SimSvg.render(r));
        if (json) out.println(toJson(r));
        else print(r, out);
        return 0;
    }

    private EcnMarking marking() {
        if (ecn == null) return EcnMarking.hpcc(gbps);
        String[] p = ecn.split(",");
        if (p.length != 3) throw new UserError("--ecn takes KMIN,KMAX,PMAX, not " + org.softrnic.cli.Printable.quote(ecn));
        try {
            return new EcnMarking(Long.parseLong(p[0].trim()), Long.parseLong(p[1].trim()), Double.parseDouble(p[2].trim()));
        } catch (IllegalArgumentException e) {
            throw new UserError("--ecn " + ecn + ": " + e.getMessage());
        }
    }

    static void print(ScenarioResult r, PrintWriter out) {
        Scenario s = r.scenario();
        String shape = s.topology() != null ? "its topology's links and switches"
                : "at " + fmt(s.gbps()) + " Gb/s, buffer " + s.bufferBytes() + " B, pfc " + (s.pfc() ? "on" : "off");
        out.printf(Locale.ROOT, "%s: %d sender(s) %s, cc %s%s, seed %d; over [%s, %s] ms:%n", s.name(), s.senders(), shape, s.cc(),
                s.cc().equals("dcqcn") ? " (" + s.profile() + ")" : "", s.seed(), fmt(s.measureFromMs()), fmt(s.durationMs()));
        for (ScenarioResult.Flow f : r.flows()) {
            out.printf(Locale.ROOT, "  flow %d: %.3f Gb/s%s%n", f.id(), f.avgGbps(), f.error() == null ? "" : "  (stopped: " + f.error() + ")");
        }
        out.printf(Locale.ROOT, "  goodput %.3f Gb/s; bottleneck %.3f Gb/s on the wire%n", r.goodputGbps(), r.aggregateGbps());
        out.printf(Locale.ROOT, "  drops %d (%.1f %% of arrivals); queue mean %.0f B, max %d B%n", r.drops(), 100 * r.dropFraction(),
                r.queueMeanBytes(), r.queueMaxBytes());
        out.printf(Locale.ROOT, "  CNPs sent %d, handled %d; PFC pause frames %d%n", r.cnpSent(), r.cnpHandled(), r.pfcPauseFrames());
        out.printf(Locale.ROOT, "  ran in %d ms of wall-clock time; heap in use at the end %d MB%n", r.wallMillis(), r.heapBytes() >> 20);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    static String toJson(ScenarioResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("flows", r.flows().stream().map(f -> {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("id", f.id());
            o.put("avg_gbps", f.avgGbps());
            o.put("windows", f.windows().stream().map(w -> Map.of("t_ms", w.tMs(), "gbps", w.gbps())).toList());
            if (f.error() != null) o.put("error", f.error());
            return o;
        }).toList());
        m.put("aggregate_gbps", r.aggregateGbps());
        m.put("drops", r.drops());
        m.put("drop_fraction", r.dropFraction());
        m.put("queue", Map.of("mean_bytes", r.queueMeanBytes(), "max_bytes", r.queueMaxBytes()));
        m.put("cnp_sent", r.cnpSent());
        m.put("cnp_handled", r.cnpHandled());
        m.put("pfc_pause_frames", r.pfcPauseFrames());
        m.put("goodput_gbps", r.goodputGbps());
        m.put("wall_ms", r.wallMillis());
        m.put("heap_bytes", r.heapBytes());
        return new tools.jackson.databind.ObjectMapper().writeValueAsString(m);
    }
}
