package org.softrnic.nic.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ladders rdma_cm walks, row by row through the table, with what each step puts on the wire. */
class CmTableTest {
    /** Walks {@code inputs} from {@code start}; returns "STATE(wire)" per step. */
    private static List<String> walk(CmState start, CmInput... inputs) {
        List<String> steps = new ArrayList<>();
        CmState s = start;
        for (CmInput in : inputs) {
            CmTransition t = CmTable.next(s, in);
            if (t == null) throw new AssertionError(in + " is not allowed in " + s);
            s = t.to();
            steps.add(s + (t.wire() == null ? "" : "(" + t.wire() + ")"));
        }
        return steps;
    }

    @Test
    void aConnectionAndItsEndOnBothSides() {
        assertEquals(List.of("REQ_SENT(REQ)", "REP_RCVD", "MRA_REP_SENT", "ESTABLISHED(RTU)", "DREQ_SENT(DREQ)", "TIMEWAIT", "IDLE"),
                walk(CmState.IDLE, CmInput.SEND_REQ, CmInput.RECV_REP, CmInput.SEND_MRA, CmInput.SEND_RTU, CmInput.SEND_DREQ,
                        CmInput.RECV_DREP, CmInput.TIMEWAIT_DONE), "the active side, as rdma_connect and rdma_disconnect drive it");
        assertEquals(List.of("REQ_RCVD", "MRA_REQ_SENT", "REP_SENT(REP)", "ESTABLISHED", "DREQ_RCVD", "TIMEWAIT(DREP)", "IDLE"),
                walk(CmState.IDLE, CmInput.RECV_REQ, CmInput.SEND_MRA, CmInput.SEND_REP, CmInput.RECV_RTU, CmInput.RECV_DREQ,
                        CmInput.SEND_DREP, CmInput.TIMEWAIT_DONE), "the passive side, as rdma_accept drives it");
    }

    @Test
    void duplicatesGetTheKernelsAnswers() {
        assertEquals("RTU", CmTable.next(CmState.ESTABLISHED, CmInput.RECV_REP).wire(), "a duplicate REP: the RTU again");
        assertEquals("DREP", CmTable.next(CmState.TIMEWAIT, CmInput.RECV_DREQ).wire(), "a duplicate DREQ: the DREP again");
        assertEquals("MRA", CmTable.next(CmState.MRA_REQ_SENT, CmInput.RECV_REQ).wire(), "a duplicate REQ while the consumer decides");
        assertNull(CmTable.next(CmState.REQ_RCVD, CmInput.RECV_REQ).wire(), "a duplicate REQ before that: dropped");
        assertEquals(List.of("DREQ_SENT(DREQ)", "DREQ_RCVD", "TIMEWAIT(DREP)"),
                walk(CmState.ESTABLISHED, CmInput.SEND_DREQ, CmInput.RECV_DREQ, CmInput.SEND_DREP), "crossed DREQs");
    }

    @Test
    void failuresEndAsTheKernelEndsThem() {
        assertEquals(CmState.IDLE, CmTable.next(CmState.REQ_SENT, CmInput.RETRIES_EXHAUSTED).to(), "a REQ nobody answers");
        assertEquals(CmState.IDLE, CmTable.next(CmState.REQ_SENT, CmInput.RECV_REJ).to(), "no listener: REJ 8");
        assertEquals(CmState.TIMEWAIT, CmTable.next(CmState.REQ_SENT, CmInput.RECV_REJ_STALE).to(), "REJ 10 waits out the old connection");
        assertEquals(CmState.TIMEWAIT, CmTable.next(CmState.DREQ_SENT, CmInput.RETRIES_EXHAUSTED).to(), "a DREQ nobody answers");
        assertEquals(CmState.IDLE, CmTable.next(CmState.REP_SENT, CmInput.RECV_REJ).to(), "the active side refused the REP");
        assertEquals("MRA", CmTable.next(CmState.MRA_REP_SENT, CmInput.RECV_REP).wire(), "a duplicate REP while the consumer decides");
        for (CmState s : CmState.values()) {
            assertTrue(CmTable.next(s, CmInput.DESTROY) != null, "rdma_destroy_id is allowed in " + s);
        }
        assertNull(CmTable.next(CmState.IDLE, CmInput.SEND_RTU), "no RTU without a REP");
        assertNull(CmTable.next(CmState.ESTABLISHED, CmInput.SEND_REQ), "no second REQ on an established id");
    }

    @Test
    void sidrIsOneRequestAndOneReply() {
        assertEquals(List.of("SIDR_REQ_SENT(SIDR_REQ)", "IDLE"), walk(CmState.IDLE, CmInput.SEND_SIDR_REQ, CmInput.RECV_SIDR_REP),
                "the active side, as rdma_connect on RDMA_PS_UDP drives it");
        assertEquals(List.of("SIDR_REQ_RCVD", "IDLE(SIDR_REP)"), walk(CmState.IDLE, CmInput.RECV_SIDR_REQ, CmInput.SEND_SIDR_REP),
                "the passive side, as rdma_accept drives it");
        assertEquals("SIDR_REP", CmTable.next(CmState.SIDR_REQ_RCVD, CmInput.DESTROY).wire(), "a request destroyed unanswered is rejected");
        assertNull(CmTable.next(CmState.SIDR_REQ_RCVD, CmInput.RECV_SIDR_REQ), "a copy of an open request has no row: dropped");
        assertNull(CmTable.next(CmState.IDLE, CmInput.SEND_SIDR_REP), "no reply without a request");
    }

    @Test
    void everyStateButListenHasAWayOut() {
        for (CmState s : CmState.values()) {
            if (s == CmState.LISTEN) continue;
            boolean out = CmTable.rows().stream().anyMatch(t -> t.from() == s && t.to() != s);
            assertTrue(out, s + " has no row that leaves it");
        }
    }
}
