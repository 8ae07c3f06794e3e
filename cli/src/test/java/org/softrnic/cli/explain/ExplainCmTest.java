package org.softrnic.cli.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.wire.mad.CmMessage;

/** explain on the CM: each message from the layout and state tables, a REJ's reasons in the kernel's words. */
class ExplainCmTest {
    @Test
    void eachCmMessageHasItsAttributeIdFieldsAndWhenItIsSent() {
        for (CmMessage m : CmMessage.values()) {
            List<String> l = ExplainSpecTest.explain(m.name());
            assertTrue(l.getFirst().startsWith(m.name() + ": CM message, attribute ID 0x" + String.format("%04x", m.attrId)), l.toString());
            String fields = ExplainSpecTest.line(l, "  fields:");
            for (var f : m.fields) assertTrue(fields.contains(f.name()), m + " names " + f.name() + ": " + fields);
            assertTrue(fields.contains(m.privateDataSize() + " bytes"), fields);
        }
        List<String> req = ExplainSpecTest.explain("REQ");
        assertTrue(req.stream().anyMatch(x -> x.startsWith("  when:   IDLE on send_req, then REQ_SENT")), req.toString());
        assertTrue(ExplainSpecTest.line(req, "  cma:").contains("56 bytes for the application"), req.toString());
        List<String> rtu = ExplainSpecTest.explain("rtu");
        assertTrue(rtu.stream().anyMatch(x -> x.contains("ESTABLISHED on recv_rep") && x.contains("duplicate REP")), rtu.toString());
    }

    @Test
    void rejReasonsAreTheKernelsAndOneReasonSaysWhenItIsSent() {
        List<String> all = ExplainSpecTest.explain("REJ_REASONS");
        assertTrue(all.stream().anyMatch(x -> x.matches("\\s+8\\s+invalid service ID\\s+IB_CM_REJ_INVALID_SERVICE_ID")), all.toString());
        assertTrue(all.stream().anyMatch(x -> x.matches("\\s+28\\s+consumer defined\\s+IB_CM_REJ_CONSUMER_DEFINED")), all.toString());
        assertTrue(all.stream().noneMatch(x -> x.matches("\\s+34\\s.*")), "34 is unassigned");
        List<String> eight = ExplainSpecTest.explain("REJ 8");
        assertEquals("REJ reason 8 (invalid service ID): IB_CM_REJ_INVALID_SERVICE_ID", eight.getFirst());
        assertTrue(eight.get(1).contains("no one listens"), eight.toString());
        assertEquals("REJ reason 34 (unrecognized reason)", ExplainSpecTest.explain("REJ 34").getFirst());
    }

    @Test
    void qp1AndTheMadAreExplained() {
        assertTrue(ExplainSpecTest.explain("QP1").get(2).contains("0x80010000"));
        assertTrue(ExplainSpecTest.explain("MAD").getFirst().startsWith("MAD: management datagram, 256 bytes"));
    }

    @Test
    void sidrStatusesAreTheKernelsAndASidrRepPointsToThem() {
        List<String> all = ExplainSpecTest.explain("SIDR_STATUS");
        assertTrue(all.stream().anyMatch(x -> x.matches("\\s+1\\s+IB_SIDR_UNSUPPORTED\\s+no one listens.*")), all.toString());
        assertTrue(all.stream().anyMatch(x -> x.matches("\\s+2\\s+IB_SIDR_REJECT\\s+.*rdma_reject.*")), all.toString());
        assertEquals(1 + 6 + 1, all.size(), "a heading, statuses 0 to 5, and what the kernel sends: " + all);
        assertTrue(ExplainSpecTest.line(ExplainSpecTest.explain("SIDR_REP"), "  status:").contains("SIDR_STATUS"));
        assertEquals("1 (IB_SIDR_UNSUPPORTED: no one listens for the service ID)", org.softrnic.wire.mad.SidrStatus.describe(1));
        assertEquals("9 (reserved)", org.softrnic.wire.mad.SidrStatus.describe(9));
    }
}
