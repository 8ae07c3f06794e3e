package org.softrnic.cli.pingpong;

import java.util.Locale;
import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.cli.oob.DeviceOptions;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "pingpong", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Ping-pong with rdma-core's ibv_rc_pingpong, ibv_uc_pingpong, ibv_ud_pingpong or ibv_srq_pingpong (or another softrnic):"
                + " the same TCP exchange on port 18515, options and result lines. Without SERVER it waits for a client.", org.softrnic.cli.oob.RetryNote.HELP},
        footerHeading = "%nExamples:%n",
        footer = {"  # a server, then a client (as of ibv_rc_pingpong -g 1 on 192.0.2.1):",
                "  softrnic pingpong rc --link udp:192.0.2.100 -g 1",
                "  softrnic pingpong rc --link udp:192.0.2.100 -g 1 192.0.2.1"})
public final class PingpongCommand implements Callable<Integer> {
    /** The TYPEs, for shell completion. */
    static final class Types implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.List.of("rc", "uc", "ud", "srq").iterator();
        }
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TYPE", completionCandidates = PingpongCommand.Types.class, description = "rc, uc, ud or srq (RC QPs sharing an SRQ)")
    String type;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SERVER", description = "the server's IP address; none: be the server")
    String server;

    @Mixin
    DeviceOptions dev;

    @Option(names = {"-p", "--port"}, paramLabel = "P", defaultValue = "18515", description = "listen on/connect to TCP port (default ${DEFAULT-VALUE})")
    int port;


    @Option(names = {"-i", "--ib-port"}, paramLabel = "N", defaultValue = "1", description = "port of the device (default ${DEFAULT-VALUE})")
    int ibPort;

    @Option(names = {"-s", "--size"}, paramLabel = "B", description = "size of message to exchange (default 4096; ud: 2048)")
    Integer size;

    @Option(names = {"-m", "--mtu"}, paramLabel = "M", defaultValue = "1024", description = "path MTU: 256, 512, 1024, 2048 or 4096 (default ${DEFAULT-VALUE})")
    int mtu;

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "N", defaultValue = "500", description = "number of receives to post at a time (default ${DEFAULT-VALUE})")
    int rxDepth;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", defaultValue = "1000", description = "number of exchanges (default ${DEFAULT-VALUE})")
    int iters;

    @Option(names = {"-l", "--sl"}, paramLabel = "N", defaultValue = "0", description = "service level value (RoCE: unused)")
    int sl;

    @Option(names = {"-e", "--events"}, description = "sleep on CQ events (default poll)")
    boolean events;

    @Option(names = {"-q", "--num-qp"}, paramLabel = "N", defaultValue = "16", description = "srq: number of QPs to use (default ${DEFAULT-VALUE})")
    int numQp;

    @Option(names = {"-g", "--gid-idx"}, paramLabel = "N", defaultValue = "1",
            description = "local port gid index: 0 is the link-local GID, 1 the IPv4-mapped one, as on rxe (default ${DEFAULT-VALUE})")
    int gidIndex;


    @Option(names = "--wait", paramLabel = "S", defaultValue = "0",
            description = "client: keep trying to reach the server for S seconds (the tools try once)")
    int waitSeconds;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "0",
            description = "give up when no client came within S seconds (server), or no completion came for S seconds"
                    + " (default 0: wait for ever, as the tools); each step of the address exchange waits at most "
                    + org.softrnic.cli.oob.ToolSockets.EXCHANGE_SECONDS + " s")
    int timeout;

    @Option(names = "--verify", description = "softrnic on both sides: every message carries a pattern of its number, and"
            + " each side checks every byte it receives (a mismatch exits 1); not with srq")
    boolean verify;

    @Override
    public Integer call() throws Exception {
        QpType qpType = switch (type.toLowerCase(Locale.ROOT)) {
            case "rc" -> QpType.RC;
            case "uc" -> QpType.UC;
            case "ud" -> QpType.UD;
            case "srq" -> QpType.RC;
            default -> throw new UserError("TYPE must be rc, uc, ud or srq, not '" + type + "'");
        };
        org.softrnic.cli.perftest.PerftestCommand.positive("-s", size);
        int bytes = size != null ? size : qpType == QpType.UD ? 2048 : 4096;
        if (rxDepth < 2) throw new UserError("-r must be at least 2, not " + rxDepth);
        if (iters < 1) throw new UserError("-n must be positive, not " + iters);
        UserError.checkPort("-p", port);
        Mtu pathMtu = UserError.mtu("-m", mtu);
        boolean srq = type.equalsIgnoreCase("srq");
        if (srq && verify) throw new UserError("--verify checks one QP's messages in order; srq spreads them over " + numQp);
        if (srq && (numQp < 1 || numQp > Pingpong.SRQ_MAX_QP)) throw new UserError("-q must be 1.." + Pingpong.SRQ_MAX_QP + ", not " + numQp);
        if (srq && numQp > rxDepth) throw new UserError("-r " + rxDepth + " is too small for " + numQp + " QPs (-q): srq needs at least one receive per QP");
        // no RoCE port's MTU passes 4096; a size between the port's active MTU and 4096 is the device's to refuse
        if (qpType == QpType.UD && bytes > 4096) throw new UserError("-s " + bytes + ": a UD message must fit one MTU, and no MTU passes 4096");
        UserError.checkTimeout(timeout);
        Pingpong.Options o = new Pingpong.Options(qpType, srq, numQp, port, ibPort, bytes, pathMtu, rxDepth, iters, sl, events, gidIndex,
                server, waitSeconds, verify, timeout);
        return dev.run("pingpong", (ctx, progress) -> new Pingpong(o, spec.commandLine().getOut(), progress).run(ctx));
    }

}
