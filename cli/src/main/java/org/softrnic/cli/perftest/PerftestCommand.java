package org.softrnic.cli.perftest;

import java.util.Locale;
import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import org.softrnic.cli.oob.ToolDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "perftest", sortOptions = false,
        description = "Run perftest 4.5's ib_write_bw, ib_read_bw or ib_send_bw against the real tool (or another softrnic):"
                + " its TCP exchange on port 18515, options and report. Without SERVER it waits for a client.",
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic perftest write_bw --link udp:192.0.2.100 -x 1              (server)",
                "  softrnic perftest read_bw --link udp:192.0.2.100 -x 1 192.0.2.1    (client of ib_read_bw -x 1)"})
public final class PerftestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TEST", description = "write_bw, read_bw or send_bw (the others are not built yet)")
    String test;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SERVER", description = "the server's IP address; none: be the server")
    String server;

    @Option(names = "--link", paramLabel = "SPEC", defaultValue = "udp:127.0.0.1",
            description = "udp:ADDR[:PORT] or a frame port (qemu-listen:PORT,ip=A/N, qemu-connect:PORT,ip=A/N)")
    String link;

    @Option(names = {"-p", "--port"}, defaultValue = "18515", description = "listen on/connect to TCP port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", defaultValue = "softrnic0", description = "the device's name")
    String device;

    @Option(names = {"-s", "--size"}, defaultValue = "65536", description = "message size (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = {"-n", "--iters"}, defaultValue = "-1", description = "iterations (default 5000 for write_bw, 1000 for the others)")
    int iters;

    @Option(names = {"-x", "--gid-index"}, defaultValue = "1", description = "GID index (default ${DEFAULT-VALUE}: the IPv4-mapped one, as on rxe)")
    int gidIndex;

    @Option(names = {"-t", "--tx-depth"}, defaultValue = "128", description = "outstanding requests (default ${DEFAULT-VALUE})")
    int txDepth;

    @Option(names = "--wait", paramLabel = "S", defaultValue = "0", description = "client: keep trying to reach the server for S seconds")
    int waitSeconds;

    @Override
    public Integer call() throws Exception {
        Perftest.Test t = switch (test.toLowerCase(Locale.ROOT)) {
            case "write_bw" -> Perftest.Test.WRITE_BW;
            case "read_bw" -> Perftest.Test.READ_BW;
            case "send_bw" -> Perftest.Test.SEND_BW;
            case "atomic_bw", "write_lat", "read_lat", "send_lat" -> throw new UserError("perftest " + test + " is not built yet; write_bw, read_bw and send_bw are");
            default -> throw new UserError("TEST must be write_bw, read_bw or send_bw, not '" + test + "'");
        };
        if (size < 1 || txDepth < 1 || iters == 0 || iters < -1) throw new UserError("-s, -t and -n must be positive");
        Perftest.Options o = new Perftest.Options(t, server, port, size, iters < 0 ? t.defaultIters : iters, gidIndex, txDepth,
                device, waitSeconds);
        return ToolDevice.run("perftest", device, link, (ctx, progress) -> new Perftest(o, spec.commandLine().getOut(), progress).run(ctx));
    }
}
