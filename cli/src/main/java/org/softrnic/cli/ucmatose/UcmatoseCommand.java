package org.softrnic.cli.ucmatose;

import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.cli.cmatest.CmatestOptions;
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

    @Mixin
    CmatestOptions tool;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7471", description = "the rdma_cm port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "-a", paramLabel = "T", description = "ACK timeout (rdma_set_option RDMA_OPTION_ID_ACK_TIMEOUT)")
    Integer ackTimeout;

    @Override
    public Integer call() throws Exception {
        tool.check(1 << 30, "");
        if (ackTimeout != null && (ackTimeout < 0 || ackTimeout > 31)) throw new UserError("-a must be 0..31, not " + ackTimeout);
        UserError.checkPort("-p", port);
        return link.run("ucmatose", (ctx, progress) -> {
            Ucmatose.Options o = new Ucmatose.Options(tool.server(), tool.bindOr(ctx), tool.connections(), tool.messages(), tool.size(), port,
                    tool.tos(), ackTimeout == null ? -1 : ackTimeout, tool.waitSeconds());
            return new Ucmatose(o, spec.commandLine().getOut()).run();
        });
    }
}
