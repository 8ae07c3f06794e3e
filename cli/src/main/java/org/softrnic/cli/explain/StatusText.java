package org.softrnic.cli.explain;

import java.util.EnumMap;
import java.util.Map;
import org.softrnic.verbs.WcStatus;

/** What each IBV_WC_* status tells the application, and what on the wire or in the NIC leads to it. */
final class StatusText {
    private static final Map<WcStatus, String> WHEN = new EnumMap<>(WcStatus.class);

    static {
        WHEN.put(WcStatus.SUCCESS, "the work request did what it asked; for RC sends, the peer acknowledged it");
        WHEN.put(WcStatus.LOC_LEN_ERR, "a receive buffer was too small for the message that came, or a send was longer than the QP allows");
        WHEN.put(WcStatus.LOC_QP_OP_ERR, "the request could not be carried out on this QP (e.g. bad inline size or opcode for its type)");
        WHEN.put(WcStatus.LOC_PROT_ERR, "an SGE's lkey or address range does not lie inside a local MR with the access it needs");
        WHEN.put(WcStatus.WR_FLUSH_ERR, "the QP went to the error state before this request was done: every outstanding one is flushed");
        WHEN.put(WcStatus.MW_BIND_ERR, "a memory window bind (or local invalidate) was refused: wrong MR, access or range");
        WHEN.put(WcStatus.BAD_RESP_ERR, "the responder answered with something the requester did not expect (e.g. a wrong opcode)");
        WHEN.put(WcStatus.LOC_ACCESS_ERR, "incoming data would have landed where the local MR does not allow it");
        WHEN.put(WcStatus.REM_INV_REQ_ERR, "the responder NAKed with 'invalid request' (AETH NAK code 1): e.g. a message longer than its receive");
        WHEN.put(WcStatus.REM_ACCESS_ERR, "the responder NAKed with 'remote access error' (AETH NAK code 2): the rkey, range or access check failed");
        WHEN.put(WcStatus.REM_OP_ERR, "the responder NAKed with 'remote operational error' (AETH NAK code 3): it could not complete the request");
        WHEN.put(WcStatus.RETRY_EXC_ERR, "no ACK came within the timeout retry_cnt + 1 times: the peer is gone or the path loses everything");
        WHEN.put(WcStatus.RNR_RETRY_EXC_ERR, "the responder answered RNR NAK (no receive posted) more than rnr_retry times");
        WHEN.put(WcStatus.REM_INV_RD_REQ_ERR, "an RD-only error: reliable datagram is not used on RoCE");
        WHEN.put(WcStatus.REM_ABORT_ERR, "the responder aborted the operation");
        WHEN.put(WcStatus.FATAL_ERR, "the device hit an error it cannot recover from");
        WHEN.put(WcStatus.RESP_TIMEOUT_ERR, "a response did not come in time");
        WHEN.put(WcStatus.GENERAL_ERR, "an error no other status describes");
    }

    private StatusText() {
    }

    static String when(WcStatus s) {
        return WHEN.getOrDefault(s, "not produced on RoCE (InfiniBand end-to-end contexts or RD only)");
    }
}
