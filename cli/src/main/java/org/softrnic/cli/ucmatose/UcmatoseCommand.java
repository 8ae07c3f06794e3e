package org.softrnic.cli.ucmatose;

import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.cli.oob.CmLinkOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "ucmatose", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Connect through the RDMA CM as librdmacm's cmatose (ucmatose) does: -c connections, -C messages of -S"
                + " bytes each way on each; without -s it is the server. Either side can be the real ucmatose (rdmacm-utils).",
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic ucmatose --link udp:127.0.0.2 -c 4", "  softrnic ucmatose --link udp:127.0.0.3 -s 127.0.0.2 -c 4 -C 100 -S 4096"})
public final class UcmatoseCommand implements Callable<Integer> {
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

    @Option(names = "-C", paramLabel = "N", defaultValue = "10", description = "messages each way on each connection (default ${DEFAULT-VALUE})")
    int count;

    @Option(names = "-S", paramLabel = "B", defaultValue = "100", description = "message size (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7471", description = "the rdma_cm port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "-t", paramLabel = "TOS", description = "type of service (rdma_set_option RDMA_OPTION_ID_TOS)")
    Integer tos;

    @Option(names = "-a", paramLabel = "T", description = "ACK timeout (rdma_set_option RDMA_OPTION_ID_ACK_TIMEOUT)")
    Integer ackTimeout;



    @Option(names = "--wait", paramLabel = "S", defaultValue = "0",
            description = "client: while S seconds last, connect again when refused (a server still starting); default 0: once, as cmatose")
    int waitSeconds;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "0", description = "server: give up after S seconds without every connection (default 0: wait for ever)")
    int timeout;

    @Override
    public Integer call() throws Exception {
        if (connections < 1) throw new UserError("-c must be at least 1, not " + connections);
        if (count < 0) throw new UserError("-C must not be negative, not " + count);
        if (size < 0 || size > 1 << 30) throw new UserError("-S must be 0..1073741824, not " + size);
        if (tos != null && (tos < 0 || tos > 255)) throw new UserError("-t must be 0..255, not " + tos);
        if (ackTimeout != null && (ackTimeout < 0 || ackTimeout > 31)) throw new UserError("-a must be 0..31, not " + ackTimeout);
        UserError.checkPort("-p", port);
        UserError.checkTimeout(timeout);
        if (waitSeconds < 0) throw new UserError("--wait must not be negative, not " + waitSeconds);
        if (waitSeconds > 0 && server == null) throw new UserError("--wait is a client's option (with -s); a server waits with --timeout");
        // cmatose: a size of 0 sends nothing
        int messages = size == 0 ? 0 : count;
        Ucmatose.Options o = new Ucmatose.Options(CmLinkOptions.address(server, "-s"), CmLinkOptions.address(bind, "-b"), connections, messages, size, port,
                tos == null ? -1 : tos, ackTimeout == null ? -1 : ackTimeout, server == null ? timeout : waitSeconds);
        return link.run("ucmatose", (ctx, progress) -> new Ucmatose(o, spec.commandLine().getOut()).run());
    }

}
