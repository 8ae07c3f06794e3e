package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** `softrnic perf` as a user runs it: the perftest-style table, JSON, verification and exit codes. */
class PerfCommandTest {
    @Test
    void tableLooksLikePerftest() {
        DecodeCommandTest.Result r = DecodeCommandTest.run("perf", "write", "--size", "4096", "--iters", "300", "--verify");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("RDMA_Write BW Test"), r.out());
        assertTrue(r.out().contains("#bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]"));
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith(" 4096       300 ")), r.out());
        assertTrue(r.out().contains("verified: every byte matches"));
        assertEquals("", r.err(), "no progress bar when the output is not a terminal");
    }

    @Test
    void jsonCarriesTheFiguresAndTheVerdict() {
        for (String op : new String[] {"write", "read", "send", "atomic"}) {
            // atomics move 8 bytes: perf refuses another --size for them
            DecodeCommandTest.Result r = DecodeCommandTest.run("perf", op, "--size", op.equals("atomic") ? "8" : "3000", "--iters", "200",
                    "--qps", "2", "--loss", "0.02", "--seed", "3", "--verify", "--json");
            assertEquals(0, r.code(), op + ": " + r.err());
            JsonNode o = JsonMapper.builder().build().readTree(r.out());
            assertEquals(op.toUpperCase(), o.get("op").asString());
            assertEquals(400, o.get("iterations").asLong());
            assertTrue(o.get("verified").asBoolean(), op);
            assertTrue(o.get("bw_average_MBps").asDouble() > 0);
            assertTrue(o.get("error").isNull());
        }
    }

    @Test
    void oneRequestOutstandingShowsLatencyPercentiles() {
        DecodeCommandTest.Result r = DecodeCommandTest.run("perf", "send", "--size", "64", "--iters", "500", "--tx-depth", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains(" t_min[usec]  t_typical[usec]  t_99%[usec]    t_99.9%[usec]  t_max[usec]"), r.out());
        DecodeCommandTest.Result deep = DecodeCommandTest.run("perf", "send", "--size", "64", "--iters", "500");
        assertTrue(!deep.out().contains("t_typical"), "with many outstanding, latency is queueing: no columns");
    }

    @Test
    void udpLinkCarriesTheRunOverKernelSocketsAndReportsCounters() {
        DecodeCommandTest.Result r = DecodeCommandTest.run("perf", "send", "--link", "udp:127.0.0.1:24791", "--size", "2000",
                "--iters", "300", "--mtu", "1024", "--verify", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode o = JsonMapper.builder().build().readTree(r.out());
        assertTrue(o.get("verified").asBoolean(), r.out());
        assertTrue(o.get("link").asString().startsWith("udp"), r.out());
        // 300 sends of 2000 B at MTU 1024 are two packets each; the server verified the ICRC of every one.
        JsonNode server = o.get("server_counters");
        assertTrue(server.get("rcvd_pkts").asLong() >= 600, r.out());
        assertEquals(server.get("rcvd_pkts").asLong(), server.get("rcvd_icrc_verified").asLong(), r.out());
    }

    @Test
    void badArgumentsAreOneLineAndExitTwo() {
        for (String[] args : new String[][] {{"perf", "frob"}, {"perf", "write", "--mtu", "1500"},
                {"perf", "write", "--loss", "2"}, {"perf", "write", "--link", "tap:x"}, {"perf", "write", "--iters", "x"}}) {
            DecodeCommandTest.Result r = DecodeCommandTest.run(args);
            assertEquals(2, r.code(), String.join(" ", args));
            assertEquals(1, r.err().lines().count(), r.err());
        }
    }
}
