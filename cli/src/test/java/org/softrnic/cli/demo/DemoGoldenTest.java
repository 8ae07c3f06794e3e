package org.softrnic.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every scenario's ladder, in plain text with the default seed, against a golden copy in
 * src/test/resources/demo. Memory addresses differ from run to run and are masked. To accept a deliberate
 * change: -Dsoftrnic.golden.update=true, then read the diff.
 */
class DemoGoldenTest {
    private static final Path GOLDEN = Path.of("src/test/resources/demo");

    static String plain(Scenario s) {
        StringWriter out = new StringWriter();
        Demo.print(Demo.play(s, DemoOptions.DEFAULT), new PrintWriter(out), false);
        // memory addresses differ from run to run: in header fields and in the refusals' words
        return out.toString().replaceAll("va=0x[0-9a-f]+", "va=ADDR").replaceAll("0x7[0-9a-f]{11}", "ADDR");
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void theLadderIsTheGoldenOne(Scenario s) throws IOException {
        String now = plain(s);
        Path file = GOLDEN.resolve(s.id + ".txt");
        if (Boolean.getBoolean("softrnic.golden.update")) Files.writeString(file, now);
        assertEquals(Files.readString(file), now, "the " + s.id + " ladder changed; see the class comment to accept it");
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void theSameSeedPlaysTheSameRun(Scenario s) {
        assertEquals(plain(s), plain(s));
    }

    @org.junit.jupiter.api.Test
    void randomLossIsSeededAndRecovered() {
        DemoOptions lossy = new DemoOptions(org.softrnic.verbs.Mtu.MTU_1024, 0, 0.3, 7, 0);
        Demo.Played p = Demo.play(Scenario.MULTI_PACKET, lossy);
        assertTrue(p.steps().stream().anyMatch(WireStep::dropped), "30 % loss lost something");
        assertTrue(p.steps().stream().anyMatch(x -> x.again() != null), "and something went again");
        assertEquals(org.softrnic.verbs.WcStatus.SUCCESS, p.completions().getFirst().wc().status);
        assertEquals(p.steps().size(), Demo.play(Scenario.MULTI_PACKET, lossy).steps().size(), "the seed replays it");
    }

    @org.junit.jupiter.api.Test
    void theLossScenarioSendsAgainFromTheLostPsn() {
        Demo.Played p = Demo.play(Scenario.LOSS, DemoOptions.DEFAULT);
        List<WireStep> lost = p.steps().stream().filter(WireStep::dropped).toList();
        assertEquals(1, lost.size());
        int psn = lost.getFirst().packet().bth().psn();
        List<Integer> again = p.steps().stream().filter(x -> x.again() != null).map(x -> x.packet().bth().psn()).toList();
        assertEquals(List.of(psn, psn + 1, psn + 2, psn + 3), again, "go-back-N resends from the lost PSN to the end");
        assertTrue(p.completions().stream().allMatch(c -> c.wc().status == org.softrnic.verbs.WcStatus.SUCCESS));
    }

    /** demo connect --loss: the REQ lost, sent again when ib_send_cm_req's 6144 ms ran out, and the connection made. */
    @org.junit.jupiter.api.Test
    void aLostReqGoesAgainAfterTheCmTimeoutAndTheConnectionIsMade() {
        Demo.Played p = Demo.play(Scenario.CONNECT, new DemoOptions(org.softrnic.verbs.Mtu.MTU_1024, 0, 0, 1, 1));
        List<WireStep> steps = p.steps();
        assertEquals(org.softrnic.wire.mad.CmMessage.REQ, CmStep.message(steps.get(0).packet()));
        assertTrue(steps.get(0).dropped());
        WireStep again = steps.get(1);
        assertEquals(org.softrnic.wire.mad.CmMessage.REQ, CmStep.message(again.packet()));
        assertEquals(WireStep.Again.CM_TIMEOUT, again.again());
        assertEquals(6_144_000_000L, again.sentAt() - steps.get(0).sentAt(), "2 x 2^(18-8) + 2^(20-8) ms");
        assertEquals(List.of("REQ", "REQ", "REP", "RTU", "data", "data", "DREQ", "DREP"),
                steps.stream().map(x -> CmStep.message(x.packet()) == null ? "data" : CmStep.message(x.packet()).name()).toList());
        assertEquals(org.softrnic.verbs.WcStatus.SUCCESS, p.completions().getFirst().wc().status, "the WRITE over the connection");
        assertTrue(p.notes().getFirst().contains("RDMA_CM_EVENT_ESTABLISHED"), p.notes().toString());
    }
}
