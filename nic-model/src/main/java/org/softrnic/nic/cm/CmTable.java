package org.softrnic.nic.cm;

import static org.softrnic.nic.cm.CmInput.*;
import static org.softrnic.nic.cm.CmState.*;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The CM's state machine as the kernel's cm.c runs it for RC over RoCE (no LAP/APR, which rxe's CM refuses):
 * one table of rows, looked up by state and input. An input with no row in a state is not allowed there
 * (for a consumer's verb: EINVAL, as ib_send_cm_* returns; for a message: dropped, counted as the kernel's
 * cm counters do). Duplicates of REQ, REP and DREQ have rows of their own, with the answer the kernel gives.
 */
public final class CmTable {
    private static final List<CmTransition> ROWS = new ArrayList<>();
    private static final Map<CmState, Map<CmInput, CmTransition>> BY_STATE = new EnumMap<>(CmState.class);

    static {
        // active side (ib_send_cm_req, cm_mra_handler, cm_rep_handler, ib_send_cm_rtu)
        row(IDLE, SEND_REQ, "REQ", REQ_SENT, "ib_send_cm_req: the REQ on its timer, max_cm_retries times");
        row(REQ_SENT, RECV_MRA_REQ, null, MRA_REQ_RCVD, "cm_mra_handler: the timer becomes the MRA's service timeout");
        for (CmState s : new CmState[] {REQ_SENT, MRA_REQ_RCVD}) {
            row(s, RECV_REP, null, REP_RCVD, "cm_rep_handler: the REQ's timer stops");
            row(s, RECV_REJ, null, IDLE, "cm_rej_handler: the connection is refused");
            row(s, RECV_REJ_STALE, null, TIMEWAIT, "cm_rej_handler: reason 10 (stale connection) waits out the old one");
            row(s, RETRIES_EXHAUSTED, null, IDLE, "cm_process_send_error: IB_CM_REQ_ERROR, rdma_cm's UNREACHABLE");
            row(s, DESTROY, "REJ", IDLE, "cm_destroy_id: REJ 4 (timeout)");
            row(s, SEND_REJ, "REJ", IDLE, "ib_send_cm_rej before any answer");
        }
        row(REP_RCVD, SEND_MRA, null, MRA_REP_SENT, "ib_send_cm_mra with rdma_cm's DELAY flag: nothing goes out");
        for (CmState s : new CmState[] {REP_RCVD, MRA_REP_SENT}) {
            row(s, SEND_RTU, "RTU", ESTABLISHED, "ib_send_cm_rtu: no timer");
            row(s, SEND_REJ, "REJ", IDLE, "ib_send_cm_rej");
            row(s, RECV_REJ, null, TIMEWAIT, "cm_rej_handler");
            row(s, RECV_REJ_STALE, null, TIMEWAIT, "cm_rej_handler");
            row(s, DESTROY, "REJ", IDLE, "cm_destroy_id: REJ 28 (consumer)");
        }
        row(MRA_REP_SENT, RECV_REP, "MRA", MRA_REP_SENT, "cm_dup_rep_handler: an MRA answers a duplicate REP");
        // passive side (cm_req_handler, ib_send_cm_rep, cm_rtu_handler)
        row(IDLE, START_LISTEN, null, LISTEN, "ib_cm_listen");
        row(LISTEN, RECV_REQ, null, LISTEN, "cm_req_handler: a new id in REQ_RCVD takes the REQ; the listener stays");
        row(IDLE, RECV_REQ, null, REQ_RCVD, "the new id that cm_req_handler makes for a REQ");
        row(REQ_RCVD, SEND_MRA, null, MRA_REQ_SENT, "ib_send_cm_mra with rdma_cm's DELAY flag: nothing goes out");
        row(REQ_RCVD, RECV_REQ, null, REQ_RCVD, "cm_dup_req_handler: a duplicate REQ is dropped");
        row(MRA_REQ_SENT, RECV_REQ, "MRA", MRA_REQ_SENT, "cm_dup_req_handler: an MRA answers a duplicate REQ");
        for (CmState s : new CmState[] {REQ_RCVD, MRA_REQ_SENT}) {
            row(s, SEND_REP, "REP", REP_SENT, "ib_send_cm_rep: on the REQ's local CM response timeout");
            row(s, SEND_REJ, "REJ", IDLE, "ib_send_cm_rej: 28 (consumer) with private data");
            row(s, RECV_REJ, null, IDLE, "cm_rej_handler: the active side gave up");
            row(s, RECV_REJ_STALE, null, TIMEWAIT, "cm_rej_handler: reason 10");
            row(s, DESTROY, "REJ", IDLE, "cm_destroy_id: REJ 28 (consumer)");
        }
        row(REP_SENT, RECV_MRA_REP, null, MRA_REP_RCVD, "cm_mra_handler");
        row(REP_SENT, RECV_REQ, null, REP_SENT, "cm_dup_req_handler: the REP's own retransmission answers it");
        for (CmState s : new CmState[] {REP_SENT, MRA_REP_RCVD}) {
            row(s, RECV_RTU, null, ESTABLISHED, "cm_rtu_handler");
            row(s, RETRIES_EXHAUSTED, null, IDLE, "cm_process_send_error: IB_CM_REP_ERROR, rdma_cm's UNREACHABLE");
            row(s, SEND_REJ, "REJ", TIMEWAIT, "ib_send_cm_rej after the REP");
            row(s, RECV_DREQ, null, DREQ_RCVD, "cm_dreq_handler: a DREQ before the RTU");
            row(s, RECV_REJ, null, IDLE, "cm_rej_handler: the active side refused the REP");
            row(s, RECV_REJ_STALE, null, TIMEWAIT, "cm_rej_handler: reason 10");
            row(s, DESTROY, "REJ", IDLE, "cm_destroy_id: REJ 28 (consumer)");
        }
        // established, and its end (ib_send_cm_dreq, cm_dreq_handler, ib_send_cm_drep, cm_drep_handler)
        row(ESTABLISHED, RECV_REP, "RTU", ESTABLISHED, "cm_dup_rep_handler: the RTU again for a duplicate REP");
        row(ESTABLISHED, SEND_DREQ, "DREQ", DREQ_SENT, "ib_send_cm_dreq: on the id's timeout");
        row(ESTABLISHED, RECV_DREQ, null, DREQ_RCVD, "cm_dreq_handler: the DREQ names this id's QPN");
        row(ESTABLISHED, RECV_REJ, null, TIMEWAIT, "cm_rej_handler");
        row(ESTABLISHED, RECV_REJ_STALE, null, TIMEWAIT, "cm_rej_handler");
        row(ESTABLISHED, DESTROY, "DREQ", TIMEWAIT, "cm_destroy_id: a DREQ, then timewait outlives the id");
        row(DREQ_SENT, RECV_DREQ, null, DREQ_RCVD, "cm_dreq_handler: crossed DREQs; the own one stops");
        row(DREQ_SENT, RECV_DREP, null, TIMEWAIT, "cm_drep_handler");
        row(DREQ_SENT, RETRIES_EXHAUSTED, null, TIMEWAIT, "cm_process_send_error: IB_CM_DREQ_ERROR");
        row(DREQ_SENT, RECV_REJ, null, TIMEWAIT, "cm_rej_handler");
        row(DREQ_SENT, RECV_REJ_STALE, null, TIMEWAIT, "cm_rej_handler");
        row(DREQ_SENT, DESTROY, null, TIMEWAIT, "cm_destroy_id: the DREQ's retries stop");
        row(DREQ_RCVD, DESTROY, "DREP", TIMEWAIT, "cm_destroy_id: the DREP the consumer did not send");
        row(TIMEWAIT, DESTROY, null, TIMEWAIT, "cm_destroy_id: timewait runs out without the id");
        row(LISTEN, DESTROY, null, IDLE, "cm_destroy_id: no more REQs taken");
        row(IDLE, DESTROY, null, IDLE, "cm_destroy_id");
        row(DREQ_RCVD, SEND_DREP, "DREP", TIMEWAIT, "ib_send_cm_drep");
        row(DREQ_RCVD, RECV_DREQ, null, DREQ_RCVD, "cm_dreq_handler: a duplicate, counted and ignored");
        row(DREQ_RCVD, RECV_DREP, null, TIMEWAIT, "cm_drep_handler: after crossed DREQs");
        row(TIMEWAIT, RECV_DREQ, "DREP", TIMEWAIT, "cm_dreq_handler: the DREP again for a duplicate DREQ");
        row(TIMEWAIT, RECV_REQ, "REJ", TIMEWAIT, "cm_dup_req_handler: REJ 10 (stale connection)");
        row(TIMEWAIT, TIMEWAIT_DONE, null, IDLE, "cm_timewait_handler: IB_CM_TIMEWAIT_EXIT after cm_convert_to_ms(av.timeout)");
        // SIDR (UD): one request on its timer, one reply; no connection, so no timewait
        row(IDLE, SEND_SIDR_REQ, "SIDR_REQ", SIDR_REQ_SENT, "ib_send_cm_sidr_req: on its timer (4096 ms), max_cm_retries times");
        row(SIDR_REQ_SENT, RECV_SIDR_REP, null, IDLE, "cm_sidr_rep_handler: the request's timer stops");
        row(SIDR_REQ_SENT, RETRIES_EXHAUSTED, null, IDLE, "cm_process_send_error: IB_CM_SIDR_REQ_ERROR, rdma_cm's UNREACHABLE");
        row(SIDR_REQ_SENT, DESTROY, null, IDLE, "cm_destroy_id: the SIDR_REQ's retries stop");
        row(LISTEN, RECV_SIDR_REQ, null, LISTEN, "cm_sidr_req_handler: a new id in SIDR_REQ_RCVD takes it; the listener stays");
        row(IDLE, RECV_SIDR_REQ, null, SIDR_REQ_RCVD, "the new id that cm_sidr_req_handler makes (a copy of a request still open is dropped)");
        row(SIDR_REQ_RCVD, SEND_SIDR_REP, "SIDR_REP", IDLE, "ib_send_cm_sidr_rep: status 0 (with QPN and Q_Key), 1 (no listener) or 2 (rejected)");
        row(SIDR_REQ_RCVD, DESTROY, "SIDR_REP", IDLE, "cm_destroy_id: SIDR_REP status 2 (IB_SIDR_REJECT)");
    }

    private CmTable() {
    }

    private static void row(CmState from, CmInput input, String wire, CmState to, String why) {
        CmTransition t = new CmTransition(from, input, wire, to, why);
        Map<CmInput, CmTransition> m = BY_STATE.computeIfAbsent(from, k -> new EnumMap<>(CmInput.class));
        if (m.put(input, t) != null) throw new IllegalStateException("two rows for " + from + " on " + input);
        ROWS.add(t);
    }

    /** The row for {@code input} in {@code state}, or null when the input is not allowed there. */
    public static CmTransition next(CmState state, CmInput input) {
        Map<CmInput, CmTransition> m = BY_STATE.get(state);
        return m == null ? null : m.get(input);
    }

    /** Every row, in the order above (for `softrnic explain`). */
    public static List<CmTransition> rows() {
        return List.copyOf(ROWS);
    }
}
