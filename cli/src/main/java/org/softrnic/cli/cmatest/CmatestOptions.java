package org.softrnic.cli.cmatest;

import java.net.InetAddress;
import org.softrnic.cli.UserError;
import org.softrnic.cli.oob.CmLinkOptions;
import picocli.CommandLine.Option;

/** The options cmatose and udaddy share, a picocli mixin, with the checks both make of them. */
public final class CmatestOptions {
    @Option(names = "-s", paramLabel = "ADDR", description = "the server's address: makes this the client")
    String server;

    @Option(names = "-b", paramLabel = "ADDR", description = "the address to bind to")
    String bind;

    @Option(names = "-c", paramLabel = "N", defaultValue = "1", description = "connections (default ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "-C", paramLabel = "N", defaultValue = "10", description = "messages each way on each connection (default ${DEFAULT-VALUE})")
    int count;

    @Option(names = "-S", paramLabel = "B", defaultValue = "100", description = "message size (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "-t", paramLabel = "TOS", description = "type of service (rdma_set_option RDMA_OPTION_ID_TOS)")
    Integer tos;

    @Option(names = "--wait", paramLabel = "S", defaultValue = "0",
            description = "client: while S seconds last, try again when refused or unanswered (a server still starting); default 0: once")
    int waitSeconds;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "0", description = "server: give up after S seconds without every connection (default 0: wait for ever)")
    int timeout;

    /** Every value in range; -S at most {@code maxSize}, {@code why} said when it is not. */
    public void check(int maxSize, String why) {
        server();
        CmLinkOptions.address(bind, "-b");
        if (connections < 1) throw new UserError("-c must be at least 1, not " + connections);
        if (count < 0) throw new UserError("-C must not be negative, not " + count);
        if (size < 0 || size > maxSize) throw new UserError("-S must be 0.." + maxSize + why + ", not " + size);
        if (tos != null && (tos < 0 || tos > 255)) throw new UserError("-t must be 0..255, not " + tos);
        UserError.checkTimeout(timeout);
        if (waitSeconds < 0) throw new UserError("--wait must not be negative, not " + waitSeconds);
        if (waitSeconds > 0 && server == null) throw new UserError("--wait is a client's option (with -s); a server waits with --timeout");
    }

    public InetAddress server() {
        return CmLinkOptions.address(server, "-s");
    }

    /**
     * -b, or else the soft RNIC's own address. The tools bind the wildcard, which on a host of one device names
     * it; softrnic names it outright, so that a listener in a JVM with several soft RNICs is on its own.
     */
    public InetAddress bindOr(org.softrnic.verbs.RdmaContext ctx) {
        InetAddress b = CmLinkOptions.address(bind, "-b");
        return b != null ? b : ctx.queryGid(1, 1).toInetAddress();
    }

    public int connections() {
        return connections;
    }

    /** The messages to send: none at size 0, as the tools do. */
    public int messages() {
        return size == 0 ? 0 : count;
    }

    public int size() {
        return size;
    }

    /** -t, or -1 when not given. */
    public int tos() {
        return tos == null ? -1 : tos;
    }

    /** A client's --wait, a server's --timeout. */
    public int waitSeconds() {
        return server == null ? timeout : waitSeconds;
    }
}
