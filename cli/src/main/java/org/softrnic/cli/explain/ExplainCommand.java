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
                + " or number), an AETH syndrome, an IBV_WC_* status, an IBV_EVENT_* event, an IBV_QP_* attribute, a QP"
                + " state, a transition between two states, a header (BTH, RETH, AETH, DETH, ICRC...) or a term (PSN,"
                + " MSN, QPN, rkey, lkey, Q_Key, P_Key), or one of the first words a student meets (QP, RC, UD, PD, MR, CQ,"
                + " SRQ, WQE, WC, GID, AH, RoCEv2...). A bare number, decimal or hex, is told both as an opcode and as"
                + " an AETH syndrome.",
        footerHeading = "%nExamples:%n",
        footer = {"  softrnic explain QP", "  softrnic explain RDMA_WRITE_FIRST", "  softrnic explain 0x0c", "  softrnic explain 0x60",
                "  softrnic explain rnr", "  softrnic explain CNP", "  softrnic explain IBV_WC_REM_ACCESS_ERR",
                "  softrnic explain IBV_EVENT_COMM_EST", "  softrnic explain IBV_QP_RQ_PSN", "  softrnic explain RTR",
                "  softrnic explain INIT-RTR", "  softrnic explain AETH", "  softrnic explain P_Key"})
public final class ExplainCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TOPIC", completionCandidates = Topics.class, description = "what to explain")
    String topic;

    @Override
    public Integer call() {
        List<String> lines = Explain.of(topic);
        if (lines == null) {
            throw new UserError("nothing known as " + org.softrnic.cli.Printable.quote(topic) + ": try an opcode (0x0c), a syndrome (rnr), IBV_WC_*, IBV_EVENT_*,"
                    + " IBV_QP_*, a QP state (RTS), a transition (INIT-RTR), a header (AETH) or a term (QP, MR, PSN); see --help");
        }
        PrintWriter out = spec.commandLine().getOut();
        lines.forEach(out::println);
        out.flush();
        return 0;
    }
}
