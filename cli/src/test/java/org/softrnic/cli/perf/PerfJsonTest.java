package org.softrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.ConfigFiles;
import org.softrnic.emulator.perf.PerfOp;
import org.softrnic.emulator.perf.PerfOptions;
import org.softrnic.emulator.perf.PerfServerReport;
import org.softrnic.verbs.Mtu;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Row 39: the server's JSON and the client's use one schema; MB/s is spelt so. */
class PerfJsonTest {
    @Test
    void theServerSpeaksTheClientsSchema() {
        PerfOptions run = new PerfOptions(PerfOp.WRITE, "udp:127.0.0.2", 4096, 7, 3, Mtu.MTU_1024, 0, 1, false, 128);
        JsonNode n = JsonMapper.builder().build().readTree(ConfigFiles.toJson(
                PerfCommand.serverJson(new PerfServerReport(run, "127.0.0.3", 21, null, Map.of("sent_pkts", 21L)))));
        assertEquals(21, n.get("iterations").asInt(), "the total over every QP, as the client's table");
        assertEquals(1024, n.get("mtu").asInt());
        assertEquals(21, n.get("server_counters").get("sent_pkts").asInt());
        assertTrue(n.get("iters") == null);
    }

    @Test
    void theClientsBandwidthIsMegabytesPerSecond() {
        var r = new org.softrnic.emulator.perf.PerfResult(PerfOp.WRITE, 1, 1, 1, 1024, "x", 1, 2.5, 1.5, 1, 1, 0, 0, null, null,
                Map.of(), Map.of(), null);
        JsonNode n = JsonMapper.builder().build().readTree(ConfigFiles.toJson(r));
        assertEquals(2.5, n.get("bw_peak_MBps").asDouble());
        assertEquals(1.5, n.get("bw_average_MBps").asDouble());
    }
}
