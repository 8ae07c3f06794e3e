package org.softrnic.cli.oob;

import org.softrnic.verbs.WcStatus;

/**
 * retry_cnt 7, which these tools (as perftest and rdma-core's) set, is seven retries here, as the IBTA says;
 * rxe never counts 7 down and retries for ever. Said in each tool's help and beside the error it causes.
 */
public final class RetryNote {
    public static final String HELP = "RC QPs get retry_cnt 7: seven retries (the IBTA's meaning); rxe retries for ever.";

    private RetryNote() {
    }

    /** What to add after a completion error's line: the note for IBV_WC_RETRY_EXC_ERR, else nothing. */
    public static String after(WcStatus status) {
        return status == WcStatus.RETRY_EXC_ERR
                ? " (retry_cnt 7: seven retries, as the IBTA says; rxe would have retried for ever)" : "";
    }
}
