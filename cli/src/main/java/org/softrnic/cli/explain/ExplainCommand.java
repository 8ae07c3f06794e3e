package org.softrnic.cli.explain;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.softrnic.cli.UserError;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "Say what an RDMA term means, when it happens and which header fields carry it: an opcode (by name"
                + " or number), an AETH syndrome, an IBV_WC_* status, a QP state, or a transition between two states.",
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic explain RDMA_WRITE_FIRST", "  softrnic explain 0x0c", "  softrnic explain 0x60",
                "  softrnic explain rnr", "  softrnic explain IBV_WC_REM_ACCESS_ERR", "  softrnic explain RTR",
                "  softrnic explain INIT-RTR"})
public final class ExplainCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TOPIC", description = "what to explain")
    String topic;

    @Override
    public Integer call() {
        List<String> lines = Explain.of(topic);
        if (lines == null) {
            throw new UserError("nothing known as '" + topic + "': try an opcode (RDMA_WRITE_FIRST, 0x0c), an AETH syndrome"
                    + " (0x60, rnr), an IBV_WC_* status, a QP state (RTS) or a transition (INIT-RTR)");
        }
        PrintWriter out = spec.commandLine().getOut();
        lines.forEach(out::println);
        out.flush();
        return 0;
    }
}
