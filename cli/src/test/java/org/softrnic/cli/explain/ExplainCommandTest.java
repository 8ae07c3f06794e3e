package org.softrnic.cli.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.softrnic.cli.Main;

/** `softrnic explain` finds each kind of topic and says what the NIC's own tables say about it. */
class ExplainCommandTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "RDMA_WRITE_FIRST|opcode 0x06 RC_RDMA_WRITE_FIRST|then RETH, then the payload",
            "0x0c|opcode 0x0c RC_RDMA_READ_REQUEST|AETH syndrome 0x0c: ACK credit code 12 (64 credits)",
            "0x60|AETH syndrome 0x60: NAK PSN sequence error|goes back and sends again from it",
            "rnr|RNR NAK timer code 12 (0.64 ms)|waits the RNR timer",
            "IBV_WC_REM_ACCESS_ERR|IBV_WC_REM_ACCESS_ERR (10): remote access error|AETH NAK code 2",
            "rem_access_err|IBV_WC_REM_ACCESS_ERR (10)|rkey",
            "RTS|IBV_QPS_RTS: ready to send|next:",
            "INIT-RTR|INIT -> RTR|RC: required IBV_QP_AV | IBV_QP_PATH_MTU",
            "rts->sqd|RTS -> SQD|UD:",
            "RESET-RTS|RESET -> RTS|RC: not allowed"})
    void eachKindOfTopicIsFound(String topic, String first, String more) {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "explain", topic));
        assertTrue(out.toString().contains(first), out.toString());
        assertTrue(out.toString().contains(more), out.toString());
    }

    @ParameterizedTest
    @CsvSource({"nonsense", "0x999", "FROB-RTS"})
    void anUnknownTopicIsOneLineAndExitTwo(String topic) {
        StringWriter err = new StringWriter();
        assertEquals(Main.EXIT_USAGE, Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "explain", topic));
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().contains("nothing known as '" + topic + "'"), err.toString());
    }
}
