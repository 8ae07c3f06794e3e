package org.softrnic.cli.perf;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.softrnic.cli.RunFailure;
import org.softrnic.cli.UserError;
import org.softrnic.cli.oob.DeviceOptions;
import org.softrnic.emulator.config.ConfigFiles;
import org.softrnic.emulator.perf.Latency;
import org.softrnic.emulator.perf.PerfOp;
import org.softrnic.emulator.perf.PerfOptions;
import org.softrnic.emulator.perf.PerfResult;
import org.softrnic.emulator.perf.PerfRun;
import org.softrnic.verbs.Mtu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "perf", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure RDMA WRITE, READ, SEND or atomic throughput perftest style: between two soft RNICs, or on one"
                + " real device in loopback (--provider ibverbs).",
                org.softrnic.cli.oob.RetryNote.HELP},
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic perf write --size 65536 --iters 2000",
                "  softrnic perf read --qps 4 --mtu 4096 --verify",
                "  softrnic perf send --loss 0.05 --seed 7 --verify --json",
                "  softrnic perf write --link udp:127.0.0.1:14791 --size 65536",
                "  softrnic perf read --link udp:[::1] --verify",
                "  # a server in one process, its client in another:",
                "  softrnic perf --server --link udp:127.0.0.2",
                "  softrnic perf write --connect 127.0.0.2 --link udp:127.0.0.1 --verify",
                "  # every size from 2 B to 8 MiB on two links, and a picture of it:",
                "  softrnic perf write --sweep --link inproc,udp --iters 200 --svg sweep.svg"})
public final class PerfCommand implements Callable<Integer> {
    /** The OPs, for shell completion. */
    static final class Ops implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(PerfOp.values()).map(o -> o.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "OP", completionCandidates = PerfCommand.Ops.class, description = "write, read, send or atomic (not with --server: the client chooses)")
    String op;

    @Option(names = "--provider", paramLabel = "NAME", defaultValue = "soft",
            description = "soft (default): two soft RNICs on --link; ibverbs: one real device (-d) opened twice, in loopback")
    String provider;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "ibverbs: the device (default: the first listed)")
    String device;

    @Option(names = "--link", paramLabel = "SPEC", defaultValue = "inproc",
            description = "inproc (default): both devices in this process, one thread, faults in virtual time;"
                    + " udp[:ADDR[:PORT]]: kernel UDP sockets on loopback ADDR and the next address (127.0.0.1, port 4791);"
                    + " udp:[::1][:PORT]: both ends on IPv6 loopback")
    String link;

    @Option(names = "--size", paramLabel = "B", defaultValue = "65536", description = "message size in bytes (default: ${DEFAULT-VALUE})")
    int size;

    @Option(names = "--iters", paramLabel = "N", defaultValue = "1000",
            description = "messages per QP (default: ${DEFAULT-VALUE}); the table's #iterations is the total over every QP, as perftest's")
    int iters;

    @Option(names = "--qps", paramLabel = "N", defaultValue = "1", description = "QP pairs (default: ${DEFAULT-VALUE})")
    int qps;

    @Option(names = "--mtu", paramLabel = "M", defaultValue = "1024", description = "path MTU: 256, 512, 1024, 2048 or 4096 (default: ${DEFAULT-VALUE})")
    int mtu;

    @Option(names = "--tx-depth", paramLabel = "N", defaultValue = "128", description = "outstanding requests per QP, 1..1024 (default: ${DEFAULT-VALUE})")
    int txDepth;

    @Option(names = "--loss", paramLabel = "P", defaultValue = "0", description = "probability a packet is lost on the link, in [0, 1) (default: ${DEFAULT-VALUE}; on a UDP link, of what each device sends)")
    double loss;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seeds the link's faults and the devices (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--verify", description = "check every byte of the target memory; a mismatch exits 1")
    boolean verify;

    @Option(names = "--json", description = "print one JSON object instead of the table")
    boolean json;

    @Option(names = "--progress", paramLabel = "MODE", defaultValue = "inline",
            description = "UDP links: inline (default): this thread drives the devices, as perftest's one thread polls;"
                    + " thread: each device on its own event loop")
    String progress;

    @Option(names = "--server", description = "serve one client of another process (needs --link udp:ADDR[:PORT]);"
            + " the client chooses the run")
    boolean server;

    @Option(names = "--connect", paramLabel = "HOST", description = "run against a --server at this IP address"
            + " (needs --link udp:ADDR[:PORT] for this side, the same PORT as the server's)")
    String connect;

    @Option(names = "--trace", paramLabel = "FILE.pcap", description = "record every packet of this process's client device"
            + " (both directions) to a capture; softrnic ladder draws it")
    java.nio.file.Path trace;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "0",
            description = "--server: give up when no client came within S seconds (default: wait for ever, as the tools do)")
    int timeout;

    @Option(names = "--sweep", description = "every message size from 2 B to 8 MiB, as perftest's -a: a row a size; with several"
            + " --link specs (--link inproc,udp) a block per link")
    boolean sweep;

    @Option(names = "--svg", paramLabel = "OUT", description = "with --sweep: draw bandwidth and message rate against size on log"
            + " axes, a line per link")
    java.nio.file.Path svg;

    @Option(names = "--reg-per-message", description = "register each message's buffer when it is posted and deregister it when it"
            + " completes, as an application that does not cache registrations (perftest registers once)")
    boolean regPerMessage;

    @Option(names = "--mr-cache", description = "with --reg-per-message: take each registration from a registration cache (MrCache)")
    boolean mrCache;

    @Option(names = "--reg-cost", paramLabel = "CALL_NS,PAGE_NS", description = "soft provider: what each ibv_reg_mr call and each"
            + " 4 KiB page costs, as a real device charges it (deregistration half as much); see softrnic regcost")
    String regCost;

    @Option(names = "--oob-port", paramLabel = "P", defaultValue = "18515",
            description = "TCP port of the out-of-band exchange, as perftest's (default: ${DEFAULT-VALUE})")
    int oobPort;

    /** How the client registers its buffers: once (perftest's way), per message, or per message from a cache. */
    private String registration() {
        if (mrCache && !regPerMessage) throw new UserError("--mr-cache caches the registrations --reg-per-message makes: give both");
        return !regPerMessage ? "once" : mrCache ? "cached" : "per-message";
    }

    private org.softrnic.emulator.config.RegCostConfig cost() {
        if (regCost == null) return null;
        if (provider.equals("ibverbs")) throw new UserError("--reg-cost charges the soft RNIC; a real device's cost is its own");
        return org.softrnic.cli.regcost.RegCostOption.parse(regCost, false);
    }

    /** What a server does not choose: the client's hello brings the run. */
    private static final List<String> RUN_OPTIONS = List.of("--size", "--iters", "--qps", "--mtu", "--tx-depth", "--verify");

    /** Says which of the options given shape a run, which a server takes from its client instead (after validation). */
    private void unusedOnAServer() {
        List<String> given = new java.util.ArrayList<>();
        if (op != null) given.add("OP");
        for (String n : RUN_OPTIONS) if (spec.commandLine().getParseResult().hasMatchedOption(n)) given.add(n);
        if (given.isEmpty()) return;
        spec.commandLine().getErr().println("softrnic perf: --server: the client chooses the run; " + String.join(" ", given)
                + " given here " + (given.size() == 1 ? "is" : "are") + " not used");
        spec.commandLine().getErr().flush();
    }

    @Override
    public Integer call() {
        if (op == null && !server) throw new UserError("OP is required: write, read, send or atomic");
        UserError.checkTimeout(timeout);
        if (timeout > 0 && !server) throw new UserError("--timeout bounds a --server's wait for its client");
        PerfOp operation;
        try {
            operation = PerfOp.valueOf((op == null ? "write" : op).toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UserError("OP must be write, read, send or atomic, not " + org.softrnic.cli.Printable.quote(op));
        }
        PerfOptions o;
        PerfResult r;
        PrintWriter out = spec.commandLine().getOut();
        if (server && connect != null) throw new UserError("--server and --connect exclude each other");
        DeviceOptions.checkProvider(provider);
        if (provider.equals("soft") && device != null) throw new UserError("-d names a real device; give it with --provider ibverbs");
        if (operation == PerfOp.ATOMIC && spec.commandLine().getParseResult().hasMatchedOption("--size") && size != 8) {
            throw new UserError("--size: atomics move 8 bytes, not " + size);
        }
        if (provider.equals("ibverbs") && (server || connect != null || !link.equals("inproc") || loss > 0 || trace != null)) {
            throw new UserError("--provider ibverbs runs both ends in this process on one real device;"
                    + " --link, --loss, --trace, --server and --connect are the soft provider's");
        }
        UserError.checkPort("--oob-port", oobPort);
        // a spec may hold commas of its own (tap:IF,ip=...): a new link starts only where a link kind does
        List<String> links = sweep ? List.of(link.split(",(?=(inproc|udp|qemu-listen|qemu-connect|tap)\\b)")) : List.of(link);
        for (String l : links) checkLink(l);
        if ((sweep || server) && (regPerMessage || mrCache || regCost != null)) {
            throw new UserError("--reg-per-message, --mr-cache and --reg-cost shape one run's client: not with "
                    + (sweep ? "--sweep" : "--server (the client registers its own buffers)"));
        }
        if (sweep) return sweep(operation, links, out);
        if (svg != null) throw new UserError("--svg draws a --sweep");
        try {
            o = new PerfOptions(operation, link, size, iters, qps, UserError.mtu("--mtu", mtu), loss, seed, verify, txDepth, progress,
                    trace == null ? null : trace.toString()).withRegistration(registration(), cost());
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        org.softrnic.cli.OutputFiles.check(trace, "--trace");
        try {
            if (server) {
                unusedOnAServer();
                return serve(o, out);
            }
            r = provider.equals("ibverbs")
                    ? PerfRun.runIbverbs(device, o, ProgressBar.forTerminal(spec.commandLine().getErr()))
                    : connect != null
                    ? PerfRun.connect(o, connect, oobPort, ProgressBar.forTerminal(spec.commandLine().getErr()))
                    : PerfRun.run(o, ProgressBar.forTerminal(spec.commandLine().getErr()));
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage()); // a --link or --connect that cannot serve this run
        } catch (org.softrnic.verbs.VerbsException e) {
            // the library, the kernel or the device is missing: the environment's
            if (e.verb().equals("ibv_get_device_list") || e.verb().equals("dlopen")) throw new RunFailure(e.getMessage(), e);
            throw e;
        } catch (java.io.UncheckedIOException e) {
            throw new RunFailure(e.getMessage(), e);
        } catch (OutOfMemoryError e) {
            throw new RunFailure("cannot allocate " + qps + " x " + size + " bytes of registered memory on each side: " + e.getMessage());
        }
        if (json) out.println(jsonLine(r));
        else table(out, o, r, provider.equals("soft"));
        out.flush();
        if (r.error() != null) {
            String note = r.error().startsWith(org.softrnic.verbs.WcStatus.RETRY_EXC_ERR.ibvName())
                    ? org.softrnic.cli.oob.RetryNote.after(org.softrnic.verbs.WcStatus.RETRY_EXC_ERR) : "";
            spec.commandLine().getErr().println("softrnic perf: " + r.error() + note);
            spec.commandLine().getErr().flush();
            return 1;
        }
        return Boolean.FALSE.equals(r.verified()) ? 1 : 0;
    }

    private static void checkLink(String link) {
        try {
            var kind = org.softrnic.emulator.link.LinkSpec.parse(link).kind();
            if (kind != org.softrnic.emulator.link.LinkSpec.Kind.INPROC && kind != org.softrnic.emulator.link.LinkSpec.Kind.UDP) {
                throw new UserError("--link " + link + ": perf takes --link inproc or udp[:ADDR[:PORT]]; frame ports (qemu-listen,"
                        + " qemu-connect, tap) are for pingpong and perftest");
            }
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }

    /** perftest's -a on each link: a table (or JSON Lines), and the picture. Exit 1 if a run failed. */
    private int sweep(PerfOp operation, List<String> links, PrintWriter out) {
        var given = spec.commandLine().getParseResult();
        if (operation == PerfOp.ATOMIC) throw new UserError("--sweep: atomics move 8 bytes only; sweep write, read or send");
        if (given.hasMatchedOption("--size")) throw new UserError("--sweep runs every size from 2 B to 8 MiB; leave out --size");
        if (server || connect != null) throw new UserError("--sweep runs both ends in this process; not with --server or --connect");
        if (trace != null) throw new UserError("--trace records one run; not with --sweep");
        org.softrnic.cli.OutputFiles.check(svg, "--svg");
        Mtu m = UserError.mtu("--mtu", mtu);
        java.util.function.BiFunction<String, Integer, PerfOptions> options = (l, s) -> {
            try {
                return new PerfOptions(operation, l, s, iters, qps, m, loss, seed, verify, txDepth, progress, null);
            } catch (IllegalArgumentException e) {
                throw new UserError(e.getMessage());
            }
        };
        options.apply(links.getFirst(), 2); // a bad option is refused before anything runs
        if (!json) header(out, operation.title + " BW Test, every size (--sweep)", null, provider.equals("soft"), qps, m.bytes, txDepth,
                loss, seed);
        List<PerfSweep.Line> lines = PerfSweep.run(links, options, o -> provider.equals("ibverbs")
                ? PerfRun.runIbverbs(device, o, org.softrnic.emulator.perf.PerfProgress.NONE)
                : PerfRun.run(o, org.softrnic.emulator.perf.PerfProgress.NONE), out, json);
        if (!json) out.println(RULE);
        out.flush();
        int code = 0;
        for (PerfSweep.Line l : lines) {
            if (l.error() == null) continue;
            spec.commandLine().getErr().println("softrnic perf: --link " + l.link() + ": " + l.error());
            code = 1;
        }
        spec.commandLine().getErr().flush();
        if (svg != null) {
            try {
                java.nio.file.Files.writeString(svg, SweepSvg.render("softrnic perf " + operation.name().toLowerCase(Locale.ROOT)
                        + " --sweep: the emulator's figures on this machine's CPU, not an RDMA NIC's", lines));
            } catch (java.io.IOException e) {
                throw new RunFailure("--svg: cannot write " + svg + ": " + e.getMessage(), e);
            }
        }
        return code;
    }

    /** Serves one client; prints what it verified. Exit 1 on a mismatch. */
    private int serve(PerfOptions o, PrintWriter out) {
        var report = PerfRun.serve(o, oobPort, timeout, () -> {
            spec.commandLine().getErr().println("softrnic perf: serving on " + link + ", out-of-band TCP port " + oobPort);
            spec.commandLine().getErr().flush();
        });
        if (json) {
            out.println(jsonLine(serverJson(report)));
        } else {
            out.printf("served %s: %d x %d B over %d QP%s from %s, %d completed%s%n", report.run().op().title,
                    report.run().iters(), report.run().size(), report.run().qps(), report.run().qps() == 1 ? "" : "s", report.client(), report.completed(),
                    report.verified() == null ? "" : report.verified() ? ", verified: every byte matches" : ", verified: MISMATCH");
        }
        out.flush();
        return Boolean.FALSE.equals(report.verified()) ? 1 : 0;
    }

    /** The server's JSON in the client's schema: the same names, and the MTU in bytes. */
    static java.util.Map<String, Object> serverJson(org.softrnic.emulator.perf.PerfServerReport report) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("op", report.run().op());
        m.put("size", report.run().size());
        m.put("iterations", (long) report.run().iters() * report.run().qps());
        m.put("qps", report.run().qps());
        m.put("mtu", report.run().mtu().bytes);
        m.put("link", report.run().link());
        m.put("client", report.client());
        m.put("completed", report.completed());
        m.put("verified", report.verified());
        m.put("server_counters", report.counters());
        return m;
    }

    static final String RULE = "-".repeat(87);

    private static void table(PrintWriter out, PerfOptions o, PerfResult r, boolean soft) {
        header(out, r.op().title + " BW Test", r.link(), soft, r.qps(), r.mtu(), o.txDepth(), o.loss(), o.seed());
        if (!o.registration().equals("once") || o.regCost().charges()) {
            // above the rule's last line: perftest's header ends with it
            out.printf(" Registration    : %s%s%n", switch (o.registration()) {
                case "per-message" -> "each message's buffer, at its post, deregistered at its completion";
                case "cached" -> "each message's buffer, from a registration cache";
                default -> "once, for the run";
            }, o.regCost().charges() ? String.format("; reg_cost %d ns a call, %d ns a page", o.regCost().callNs(), o.regCost().pageNs()) : "");
            out.println(RULE);
        }
        columns(out);
        row(out, r);
        out.println(RULE);
        if (o.txDepth() == 1 && r.latency() != null) {
            // one request outstanding: the post-to-completion time is the round trip, as in perftest's _lat tests
            Latency l = r.latency();
            out.printf(" %-12s %-16s %-14s %-14s %-14s%n", "t_min[usec]", "t_typical[usec]", "t_99%[usec]",
                    "t_99.9%[usec]", "t_max[usec]");
            out.printf(" %-12.2f %-16.2f %-14.2f %-14.2f %-14.2f%n", l.minUsec(), l.typicalUsec(), l.p99Usec(),
                    l.p999Usec(), l.maxUsec());
            out.println(RULE);
        }
        out.printf(" packets %s  dropped %s  retry episodes %d%s%n", count(r.packets()), count(r.dropped()), r.retryEpisodes(),
                r.verified() == null ? "" : r.verified() ? "  verified: every byte matches" : "  verified: MISMATCH");
    }

    /** A JSON object on one line: --json prints JSON Lines. */
    static String jsonLine(Object value) {
        return ConfigFiles.toJson(value).replaceAll("\\s*\\n\\s*", " ");
    }

    /** perftest's header; a null link is printed with the rows (a sweep's blocks). */
    static void header(PrintWriter out, String title, String link, boolean soft, int qps, int mtuBytes, int txDepth, double loss,
                       long seed) {
        out.println(RULE);
        out.printf("%40s%n", title);
        if (link != null) out.printf(" Link            : %s%n", link);
        // a student reads MB/s as an RDMA NIC's speed: say whose it is
        if (soft) out.println(" Figures         : the emulator's, in software on this machine's CPU; not an RDMA NIC's");
        out.printf(" Number of qps   : %-12d Transport type : RoCEv2 RC%n", qps);
        out.printf(" Mtu             : %-12s Tx depth       : %d%n", mtuBytes + "[B]", txDepth);
        out.printf(" Loss            : %-12.4f Seed           : %d%n", loss, seed);
        out.println(RULE);
    }

    /** perftest's column heads for the bandwidth rows. */
    static void columns(PrintWriter out) {
        out.printf(" %-10s %-14s %-18s %-20s %-12s%n", "#bytes", "#iterations", "BW peak[MB/sec]", "BW average[MB/sec]", "MsgRate[Mpps]");
    }

    /** One bandwidth row, as perftest prints it. */
    static void row(PrintWriter out, PerfResult r) {
        out.printf(" %-10d %-14d %-18.2f %-20.2f %-12.6f%n", r.size(), r.iterations(), r.bwPeakMBps(), r.bwAverageMBps(), r.msgRateMpps());
    }

    /** A count, or n/a where the device does not report it (a real device's drops on the wire). */
    private static String count(long n) {
        return n < 0 ? "n/a" : String.valueOf(n);
    }
}
