package org.softrnic.cli.udaddy;

import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.cli.cmatest.CmatestOptions;
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

    @Mixin
    CmatestOptions tool;

    @Option(names = "-P", paramLabel = "PS", defaultValue = "udp", description = "port space: udp (the only one on RoCE; default)")
    String portSpace;

    @Option(names = "-p", paramLabel = "N", description = "port space as a number: 0x111 (RDMA_PS_UDP), as udaddy's -p")
    String portSpaceNumber;

    @Option(names = "-f", paramLabel = "FMT", defaultValue = "ip", description = "address format: ip (names are not looked up; default)")
    String format;

    @Override
    public Integer call() throws Exception {
        tool.check(4096, " (a UD message fits one MTU)");
        if (!"udp".equalsIgnoreCase(portSpace)) throw new UserError("-P must be udp (RDMA_PS_UDP; ipoib needs InfiniBand), not '" + portSpace + "'");
        if (portSpaceNumber != null && !portSpaceNumber.equalsIgnoreCase("0x111") && !portSpaceNumber.equals("273")) {
            throw new UserError("-p must be 0x111 (RDMA_PS_UDP), not '" + portSpaceNumber + "'");
        }
        if (!"ip".equalsIgnoreCase(format)) throw new UserError("-f must be ip (an address literal), not '" + format + "'");
        return link.run("udaddy", (ctx, progress) -> {
            Udaddy.Options o = new Udaddy.Options(tool.server(), tool.bindOr(ctx), tool.connections(), tool.messages(), tool.size(),
                    tool.tos(), tool.waitSeconds());
            return new Udaddy(o, spec.commandLine().getOut()).run();
        });
    }
}
