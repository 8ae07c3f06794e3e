package org.softrnic.cli.rping;

import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.cli.oob.CmLinkOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "rping", sortOptions = false,
        description = "Ping through the RDMA CM as librdmacm's rping does: the client SENDs where its buffer is, the server"
                + " READs it and WRITEs it back, -C times; either side can be the real rping (rdmacm-utils).",
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic rping -s -a 127.0.0.2 --link udp:127.0.0.2 -v", "  softrnic rping -c -a 127.0.0.2 --link udp:127.0.0.3 -C 10 -V -v"})
public final class RpingCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CmLinkOptions link;



    // no --version: rping's -V validates
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Option(names = "-s", description = "server side")
    boolean server;

    @Option(names = "-c", description = "client side")
    boolean client;

    @Option(names = "-a", paramLabel = "ADDR", description = "server: the address to listen on (default: any); client: the server's address")
    String address;

    @Option(names = "-I", paramLabel = "ADDR", description = "client: the source address to bind to")
    String source;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7174", description = "the rdma_cm port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "64", description = "ping data size, 26..65535 (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "0", description = "ping count (default 0: for ever)")
    int count;

    @Option(names = "-v", description = "display ping data to stdout")
    boolean verbose;

    @Option(names = "-V", description = "validate ping data")
    boolean validate;

    @Option(names = "-d", description = "debug printfs: the RDMA CM's events")
    boolean debug;

    @Option(names = "-P", description = "persistent server: one connection after another (rping serves each on a thread)")
    boolean persistent;

    @Option(names = "--wait", paramLabel = "S", defaultValue = "0",
            description = "client: while S seconds last, connect again when refused or unanswered (a server still starting); default 0: once, as rping")
    int waitSeconds;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "0", description = "server: give up after S seconds without a client (default 0: wait for ever)")
    int timeout;

    /** RPING_MIN_BUFSIZE: the message's text and a number fit. */
    static final int MIN_SIZE = 26;

    @Override
    public Integer call() throws Exception {
        if (server == client) throw new UserError("one of -s (server) and -c (client) is required, not " + (server ? "both" : "neither"));
        if (client && address == null) throw new UserError("-c needs -a, the server's address");
        if (size < MIN_SIZE || size > 65535) throw new UserError("Invalid size " + size + " (valid range is " + MIN_SIZE + " to 65535)");
        if (count < 0) throw new UserError("Invalid count " + count);
        if (persistent && client) throw new UserError("-P is a server's option");
        UserError.checkPort("-p", port);
        UserError.checkTimeout(timeout);
        if (waitSeconds < 0) throw new UserError("--wait must not be negative, not " + waitSeconds);
        if (waitSeconds > 0 && server) throw new UserError("--wait is a client's option; a server waits with --timeout");
        Rping.Options o = new Rping.Options(server, CmLinkOptions.address(address, "-a"), CmLinkOptions.address(source, "-I"), port, size, count, verbose,
                validate, debug, persistent, server ? timeout : waitSeconds);
        return link.run("rping", (ctx, progress) -> new Rping(o, spec.commandLine().getOut(), spec.commandLine().getErr()).run());
    }

}
