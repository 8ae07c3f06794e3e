package org.softrnic.cli.perftest;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.softrnic.cli.UserError;
import org.softrnic.cli.oob.DeviceOptions;
import org.softrnic.verbs.Mtu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "perftest", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run one of perftest 4.5's tools (ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw, ib_write_lat,"
                + " ib_read_lat, ib_send_lat) against the real tool or another softrnic: its TCP exchange on port 18515,"
                + " its options and its report. Without SERVER it waits for a client.", org.softrnic.cli.oob.RetryNote.HELP},
        footerHeading = "%nExamples:%n",
        footer = {"  # a server for ib_write_bw -x 1:",
                "  softrnic perftest write_bw --link udp:192.0.2.100 -x 1",
                "  # a client of ib_read_lat -x 1 on 192.0.2.1:",
                "  softrnic perftest read_lat --link udp:192.0.2.100 -x 1 192.0.2.1",
                "  # a client over a qemu guest's socket network:",
                "  softrnic perftest atomic_bw -A CMP_AND_SWAP \\",
                "      --link qemu-listen:5555,ip=192.0.2.100/24 192.0.2.1"})
public final class PerftestCommand implements Callable<Integer> {
    /** The TESTs, for shell completion. */
    static final class Tests implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Arrays.stream(PerftestTest.values()).map(PerftestTest::toolName).iterator();
        }
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TEST", completionCandidates = PerftestCommand.Tests.class, description = "write_bw, read_bw, send_bw, atomic_bw, write_lat, read_lat or send_lat")
    String test;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SERVER", description = "the server's IP address; none: be the server")
    String server;

    @Mixin
    DeviceOptions dev;

    @Option(names = {"-p", "--port"}, paramLabel = "P", defaultValue = "18515", description = "listen on/connect to TCP port (default ${DEFAULT-VALUE})")
    int port;


    @Option(names = {"-s", "--size"}, paramLabel = "B", description = "message size (default 65536 for bw, 2 for lat; atomics: 8)")
    Integer size;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "iterations (default 5000 for write_bw, 1000 for the others)")
    Integer iters;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "N", defaultValue = "1", description = "GID index (default ${DEFAULT-VALUE}: the IPv4-mapped one, as on rxe)")
    int gidIndex;

    @Option(names = {"-m", "--mtu"}, paramLabel = "M", description = "path MTU: 256, 512, 1024, 2048 or 4096 (default: the port's active MTU; the smaller side's wins)")
    Integer mtu;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N", description = "outstanding requests (default 128 for bw, 1 for lat)")
    Integer txDepth;

    @Option(names = {"-Q", "--cq-mod"}, paramLabel = "N", description = "bw: a completion every N requests (default 100; 1 above 8192 B)")
    Integer cqMod;

    @Option(names = {"-A", "--atomic_type"}, paramLabel = "TYPE", defaultValue = "FETCH_AND_ADD",
            description = "atomic_bw: FETCH_AND_ADD or CMP_AND_SWAP (default ${DEFAULT-VALUE})")
    String atomicType;

    @Option(names = {"-q", "--qp"}, paramLabel = "N", defaultValue = "1", description = "bw: number of QPs (default ${DEFAULT-VALUE})")
    int qps;

    @Option(names = {"-a", "--all"}, description = "run every size from 2 to 2^23")
    boolean all;

    @Option(names = {"-D", "--duration"}, paramLabel = "SEC", defaultValue = "0",
            description = "run for SEC seconds instead of -n iterations; the middle half is measured")
    int duration;


    @Option(names = "--timeout", paramLabel = "S", defaultValue = "0",
            description = "give up when no client came within S seconds (server), or the peer's run has not ended S seconds"
                    + " after this side's (default 0: wait for ever, as perftest); every other step of the exchange waits"
                    + " at most " + org.softrnic.cli.oob.ToolSockets.EXCHANGE_SECONDS + " s")
    int timeout;

    @Option(names = "--verify", description = "softrnic's own, on both sides (not a perftest option): read_bw checks every READ's bytes,"
            + " one READ at a time; write_bw reads every WRITE back and checks it. Any difference: exit 1")
    boolean verify;

    @Option(names = "--wait", paramLabel = "S", defaultValue = "0", description = "client: keep trying to reach the server for S seconds")
    int waitSeconds;

    @Option(names = {"-R", "--rdma_cm"}, description = "connect the QPs through the RDMA CM, and exchange through an"
            + " rdma_cm connection to port -p instead of TCP (perftest's -R; on --provider ibverbs through librdmacm)")
    boolean rdmaCm;

    /** A value the user gave must be positive; not giving it means the tool's default. */
    public static void positive(String option, Integer value) {
        if (value != null && value < 1) throw new UserError(option + " must be positive, not " + value);
    }

    @Override
    public Integer call() throws Exception {
        PerftestTest t = PerftestTest.byName(test).orElseThrow(() -> new UserError("TEST must be one of "
                + Arrays.stream(PerftestTest.values()).map(PerftestTest::toolName).collect(Collectors.joining(", ")) + ", not '" + test + "'"));
        positive("-s", size);
        positive("-t", txDepth);
        positive("-n", iters);
        positive("-Q", cqMod);
        int s = size == null ? t.defaultSize() : size;
        if (s > PerftestOptions.MAX_SIZE) throw new UserError("-s must be at most " + PerftestOptions.MAX_SIZE);
        if (t.verb == PerftestTest.Verb.ATOMIC && (s != PerftestTest.ATOMIC_SIZE || all)) {
            throw new UserError("Message size cannot be changed for Atomic tests");
        }
        int n = iters == null ? t.defaultIters : iters;
        if (t.kind == PerftestTest.Kind.LAT && n < 5) throw new UserError("the latency tests need -n of at least 5");
        if (qps < 1 || qps > 16384) throw new UserError("-q must be 1..16384, not " + qps);
        if (qps > 1 && t.kind != PerftestTest.Kind.BW) throw new UserError("Multiple QPs only available on bw tests");
        if (spec.commandLine().getParseResult().hasMatchedOption("-D")) positive("-D", duration);
        UserError.checkPort("-p", port);
        UserError.checkTimeout(timeout);
        if (duration > 0 && all) throw new UserError("Duration mode currently doesn't support running on all sizes.");
        if (verify && (t.kind != PerftestTest.Kind.BW || (t.verb != PerftestTest.Verb.READ && t.verb != PerftestTest.Verb.WRITE))) {
            throw new UserError("--verify is for read_bw and write_bw");
        }
        if (verify && (all || duration > 0 || qps > 1)) throw new UserError("--verify runs one size on one QP by count: no -a, -D or -q");
        if (rdmaCm && verify) throw new UserError("--verify reads back through QPs it connects itself: not with -R");
        Mtu pathMtu = mtu == null ? null : UserError.mtu("-m", mtu);
        PerftestOptions.AtomicType atomic;
        try {
            atomic = PerftestOptions.AtomicType.valueOf(atomicType.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UserError("-A must be FETCH_AND_ADD or CMP_AND_SWAP, not '" + atomicType + "'");
        }
        int depth = txDepth == null ? t.kind.defaultTxDepth : txDepth;
        if (duration == 0) depth = Math.min(depth, n); // by count, no more can be outstanding than will be sent
        if (verify) depth = Math.max(depth, 2); // write_bw --verify posts a WRITE and its READ back together
        // moderation is off for large messages, unless asked for or running every size
        int mod = cqMod != null ? cqMod : s > PerftestOptions.CQ_MOD_LIMIT && !all ? 1 : PerftestOptions.DEFAULT_CQ_MOD;
        PerftestOptions o = new PerftestOptions(t, server, port, s, n, gidIndex, depth, dev.deviceName(), waitSeconds, pathMtu, atomic,
                Math.min(mod, depth), qps, all, duration, duration / 4, verify, timeout, rdmaCm);
        return dev.run("perftest", (ctx, progress) -> new Perftest(o.withDevice(ctx.device().name()), spec.commandLine().getOut(), progress).run(ctx));
    }
}
