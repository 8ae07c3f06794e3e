package org.softrnic.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The demo's layout as the newcomer's review asked for it (rows 22 and 38 of cli-newcomer.md). */
class DemoLayoutTest {
    private static String print(Demo.Played p) {
        StringWriter out = new StringWriter();
        Demo.print(p, new PrintWriter(out), false);
        return out.toString();
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void headerFieldsNeverTouchALane(Scenario s) {
        for (String line : print(Demo.play(s, DemoOptions.DEFAULT)).lines().toList()) {
            if (!line.startsWith(" ".repeat(14) + "|") || !line.endsWith("|")) continue;
            String inside = line.substring(15, line.length() - 1);
            assertEquals(LadderText.LANE, inside.length(), line);
            assertTrue(inside.startsWith(" ") && inside.endsWith(" "), "a field touches a lane: " + line);
        }
    }

    @Test
    void wrappingBreaksBetweenFieldsAndKeepsEveryField() {
        String fields = "AtomicETH va=0x7fb2682eb000 rkey=0xeb50afd add/swap=18446744073709551615 compare=42  AckReq";
        List<String> lines = LadderText.wrap(fields, 40);
        for (String l : lines) assertTrue(l.length() <= 40 || !l.trim().contains(" "), l);
        assertEquals(fields.replace("  ", " "), String.join(" ", lines).replaceAll(" +", " "));
    }

    @Test
    void theAtomicScenarioSaysWhatTheCompareFound() {
        String out = print(Demo.play(Scenario.ATOMIC, DemoOptions.DEFAULT));
        assertTrue(out.contains("compare=42"), out);
        assertTrue(out.contains("result: the fetch-and-add found 41; the compare-and-swap found 42, equal to compare 42, so it"
                + " swapped in 7; B's 8 bytes now hold 7"), out);
    }

    @Test
    void theBindCompletesBeforeTheWriteThatUsesItsRkey() {
        List<DemoRig.Seen> c = Demo.play(Scenario.MW, DemoOptions.DEFAULT).completions();
        assertEquals("BIND_MW", c.getFirst().wc().opcode.name());
        assertEquals("B", c.getFirst().side());
    }

    @Test
    void aLongCompletionOpcodeKeepsItsColumn() {
        String out = print(Demo.play(Scenario.WRITE_IMM, DemoOptions.DEFAULT));
        assertTrue(out.contains("RECV_RDMA_WITH_IMM wr_id 100"), out);
    }

    @Test
    void eventsAreExplainedInTextAndObjectsInJson() throws Exception {
        Demo.Played p = Demo.play(Scenario.CQ_OVERFLOW, DemoOptions.DEFAULT);
        assertTrue(print(p).contains("  A  IBV_EVENT_CQ_ERR: affiliated with a CQ: the CQ overran"), print(p));
        JsonNode e = JsonMapper.builder().build().readTree(DemoExports.json(p)).get("events").get(0);
        assertEquals("A", e.get("side").asString());
        assertEquals("IBV_EVENT_CQ_ERR", e.get("event").asString());
        assertTrue(e.get("meaning").asString().contains("overran"));
    }

    @Test
    void aSideWhoseCountersDidNotMoveSaysNone() {
        Demo.Played p = Demo.play(Scenario.WRITE, DemoOptions.DEFAULT);
        Demo.Played quiet = new Demo.Played(p.scenario(), p.options(), p.steps(), p.paths(), p.completions(), p.events(), p.notes(), p.refusals(),
                Map.of("A", p.counters().get("A"), "B", Map.of()));
        assertTrue(print(quiet).contains("\n  B (none)\n"), print(quiet));
    }

    @Test
    void aReadAnswerPastALostPacketIsMarkedAsDroppedByTheRequester() {
        Demo.Played p = Demo.play(Scenario.READ, new DemoOptions(org.softrnic.verbs.Mtu.MTU_1024, 4096, 0, 1, 3));
        List<WireStep> responses = p.steps().stream()
                .filter(x -> x.packet().bth().opcode().opClass == org.softrnic.wire.OpClass.RDMA_READ_RESPONSE).toList();
        assertTrue(responses.get(1).dropped());
        assertTrue(responses.get(2).refused().startsWith("out of sequence (PSN 2, A expected 1"), responses.get(2).refused());
        assertTrue(responses.get(3).refused().startsWith("out of sequence (PSN 3"), responses.get(3).refused());
        assertEquals(null, responses.getLast().refused(), "the answer to the READ sent again completes it");
        assertTrue(StepNotes.of(responses.getLast()).endsWith("A's READ completes"));
    }

    @Test
    void statesShowEachPacketsPathThroughItsReceiver() {
        Demo.Played p = Demo.play(Scenario.WRITE, new DemoOptions(org.softrnic.verbs.Mtu.MTU_1024, 0, 0, 1, 0, true));
        assertEquals("B responder: CHK_PSN > CHK_OP_SEQ > CHK_OP_VALID > CHK_RESOURCE > CHK_LENGTH > CHK_RKEY > EXECUTE > COMPLETE"
                + " > ACKNOWLEDGE", p.paths().get(0));
        assertEquals("A completer: CHECK_PSN > CHECK_ACK > WRITE_SEND > COMP_ACK > UPDATE_COMP > DONE", p.paths().get(1));
        assertTrue(print(p).contains("|  A completer: CHECK_PSN"), print(p));
        Demo.Played dup = Demo.play(Scenario.LOSS, new DemoOptions(org.softrnic.verbs.Mtu.MTU_1024, 0, 0, 1, 3, true));
        assertTrue(dup.paths().stream().anyMatch(x -> x != null && x.equals("B responder: CHK_PSN > ERR_PSN_OUT_OF_SEQ")), dup.paths().toString());
    }
}
