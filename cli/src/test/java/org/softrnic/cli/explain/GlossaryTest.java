package org.softrnic.cli.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.cli.Main;

/** The first words a student meets are known, each with what it is and where to see it; RNR is told exactly. */
class GlossaryTest {
    static String explain(String topic) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(err), "explain", topic), topic + ": " + err);
        return out.toString();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "QP|QP: queue pair", "queue pair|QP: queue pair", "RC|RC: reliable connected", "UC|UC: unreliable connected",
            "UD|UD: unreliable datagram", "PD|PD: protection domain", "MR|MR: memory region", "MW|MW: memory window",
            "CQ|CQ: completion queue", "CQE|CQE: completion queue entry", "SRQ|SRQ: shared receive queue",
            "WQE|WQE: work queue element", "WR|WR: work request", "WC|WC: work completion", "SGE|SGE: scatter/gather element",
            "GID|GID: global identifier", "LID|LID: local identifier", "AH|AH: address handle", "RoCE|RoCE: RDMA over Converged",
            "RoCEv2|RoCEv2: RoCE over UDP/IP", "InfiniBand|InfiniBand: a network made for RDMA", "iWARP|iWARP: RDMA over TCP",
            "RDMA|RDMA: remote direct memory access", "verbs|verbs: the RDMA programming interface", "ECN|ECN: explicit congestion"})
    void aFirstWordIsKnownWithWhereToSeeIt(String topic, String first) {
        String out = explain(topic);
        assertTrue(out.startsWith(first), out);
        assertTrue(out.contains("  what:   ") && out.contains("  see:    softrnic "), out);
    }

    @Test
    void everyCommandATermSendsTheReaderToRuns() {
        for (String term : GlossaryText.names()) {
            String see = GlossaryText.of(term.toUpperCase()).getLast().substring("  see:    ".length());
            for (String command : see.split("; ")) {
                // "(ibv_uc_pingpong)" says which tool to look for; samples/ is at the repository's root, above cli/
                String[] words = command.replaceAll(" \\(.*\\)", "").replace(" samples/", " ../samples/").split(" ");
                assertEquals("softrnic", words[0], term + ": " + command);
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                String[] args = java.util.Arrays.copyOfRange(words, 1, words.length);
                assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(err), args), term + ": " + command + ": " + err);
            }
        }
    }

    @Test
    void termsAlreadyKnownKeepTheirOwnEntries() {
        assertTrue(explain("PSN").startsWith("PSN: packet sequence number"));
        assertTrue(explain("CNP").contains("opcode 0x81"), explain("CNP"));
        assertTrue(explain("QP1").contains("QP1"), explain("QP1"));
    }

    @Test
    void rnrSaysReceiverNotReadyNamesBothCausesAndTheOnePacketThatCarriesIt() {
        String out = explain("rnr");
        assertTrue(out.contains("receiver not ready: a SEND or an RDMA WRITE with immediate"), out);
        assertTrue(out.contains("carried in the AETH of an ACKNOWLEDGE only"), out);
        assertTrue(explain("0x00").contains("carried in the AETH of ACKNOWLEDGE, ATOMIC_ACKNOWLEDGE"), "an ACK's syndrome rides in responses too");
    }
}
