package org.softrnic.cli.udaddy;

import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.cli.oob.CmLinkOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "udaddy", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Connect UD QPs through the RDMA CM as librdmacm's udaddy does: SIDR on RDMA_PS_UDP port 7174 finds each"
                + " server QP, then -C datagrams of -S bytes each way; without -s it is the server. Either side can be the real"
                + " udaddy (rdmacm-utils).",
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic udaddy --link udp:127.0.0.2", "  softrnic udaddy --link udp:127.0.0.3 -s 127.0.0.2 -C 10 -S 512"})
public final class UdaddyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CmLinkOptions link;

    @Option(names = "-s", paramLabel = "ADDR", description = "the server's address: makes this the client")
    String server;

    @Option(names = "-b", paramLabel = "ADDR", description = "the address to bind to")
    String bind;

    @Option(names = "-c", paramLabel = "N", defaultValue = "1", description = "connections (default ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "-C", paramLabel = "N", defaultValue = "10", description = "datagrams each way on each (default ${DEFAULT-VALUE})")
    int count;

    @Option(names = "-S", paramLabel = "B", defaultValue = "100", description = "datagram size, at most the MTU (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "-t", paramLabel = "TOS", description = "type of service (rdma_set_option RDMA_OPTION_ID_TOS)")
    Integer tos;

    @Option(names = "-P", paramLabel = "PS", defaultValue = "udp", description = "port space: udp (the only one on RoCE; default)")
    String portSpace;

    @Option(names = "-p", paramLabel = "N", description = "port space as a number: 0x111 (RDMA_PS_UDP), as udaddy's -p")
    String portSpaceNumber;

    @Option(names = "-f", paramLabel = "FMT", defaultValue = "ip", description = "address format: ip (names are not looked up; default)")
    String format;

    @Option(names = "--wait", paramLabel = "S", defaultValue = "0",
            description = "client: while S seconds last, ask again when nobody answers (a server still starting); default 0: once")
    int waitSeconds;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "0", description = "server: give up after S seconds without every request (default 0: wait for ever)")
    int timeout;

    @Override
    public Integer call() throws Exception {
        if (connections < 1) throw new UserError("-c must be at least 1, not " + connections);
        if (count < 0) throw new UserError("-C must not be negative, not " + count);
        if (size < 0 || size > 4096) throw new UserError("-S must be 0..4096 (a UD message fits one MTU), not " + size);
        if (tos != null && (tos < 0 || tos > 255)) throw new UserError("-t must be 0..255, not " + tos);
        if (!"udp".equalsIgnoreCase(portSpace)) throw new UserError("-P must be udp (RDMA_PS_UDP; ipoib needs InfiniBand), not '" + portSpace + "'");
        if (portSpaceNumber != null && !portSpaceNumber.equalsIgnoreCase("0x111") && !portSpaceNumber.equals("273")) {
            throw new UserError("-p must be 0x111 (RDMA_PS_UDP), not '" + portSpaceNumber + "'");
        }
        if (!"ip".equalsIgnoreCase(format)) throw new UserError("-f must be ip (an address literal), not '" + format + "'");
        UserError.checkTimeout(timeout);
        if (waitSeconds < 0) throw new UserError("--wait must not be negative, not " + waitSeconds);
        if (waitSeconds > 0 && server == null) throw new UserError("--wait is a client's option (with -s); a server waits with --timeout");
        int messages = size == 0 ? 0 : count; // udaddy: a size of 0 sends nothing
        Udaddy.Options o = new Udaddy.Options(CmLinkOptions.address(server, "-s"), CmLinkOptions.address(bind, "-b"), connections,
                messages, size, tos == null ? -1 : tos, server == null ? timeout : waitSeconds);
        return link.run("udaddy", (ctx, progress) -> new Udaddy(o, spec.commandLine().getOut()).run());
    }
}
