package org.softrnic.cli.explain;

import java.util.EnumMap;
import java.util.Map;
import org.softrnic.verbs.QpState;

/** What each QP state means (IBTA 10.3.1) and what a QP in it does with packets and posts. */
final class StateText {
    private static final Map<QpState, String> MEANING = new EnumMap<>(QpState.class);

    static {
        MEANING.put(QpState.RESET, "just created, or reset: nothing is posted or processed; the only way on is to INIT");
        MEANING.put(QpState.INIT, "given a port, P_Key index and access flags: receives may be posted, nothing is sent or received yet");
        MEANING.put(QpState.RTR, "ready to receive: knows its peer (AV, dest QPN, the PSN to expect, path MTU) and answers requests, sends nothing");
        MEANING.put(QpState.RTS, "ready to send: also has its own start PSN, ACK timeout and retry counts; the normal working state");
        MEANING.put(QpState.SQD, "send queue drained: finishes what is in flight, takes no new sends, until moved back to RTS");
        MEANING.put(QpState.SQE, "send queue error (UC and UD only): a send failed; receives still work, sends are flushed");
        MEANING.put(QpState.ERR, "error: every outstanding and new work request completes with IBV_WC_WR_FLUSH_ERR; only RESET leads back");
    }

    private StateText() {
    }

    static String meaning(QpState s) {
        return MEANING.get(s);
    }
}
