package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.softrnic.cli.Main;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code softrnic decode} over the real rxe captures, as a user runs it. */
class DecodeCommandTest {
    static final List<String> CAPTURES = List.of("rc_pingpong.pcap", "ud_pingpong.pcap", "write_bw.pcap",
            "send_bw.pcap", "netns_minipeer.pcap", "info.pcap");
    final JsonMapper json = JsonMapper.builder().build();

    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    static Path capture(Path dir, String name) throws Exception {
        Path p = dir.resolve(name);
        try (InputStream in = DecodeCommandTest.class.getResourceAsStream("/captures/" + name)) {
            Files.write(p, in.readAllBytes());
        }
        return p;
    }

    @Test
    void jsonLinesCoverEveryFrameWithTheSchemaKeys(@TempDir Path dir) throws Exception {
        for (String name : CAPTURES) {
            Path file = capture(dir, name);
            Result r = run("decode", "--json", file.toString());
            assertEquals(0, r.code(), r.err());
            List<String> lines = r.out().lines().toList();
            int roce = 0;
            for (int i = 0; i < lines.size(); i++) {
                JsonNode o = json.readTree(lines.get(i));
                assertEquals(i + 1, o.get("frame").asInt());
                if (!o.get("roce").asBoolean()) {
                    assertFalse(o.has("bth") || o.has("icrc_ok"), "a frame that is not RoCEv2 has no RoCE layers: " + o);
                    continue;
                }
                roce++;
                int frame = o.get("frame").asInt();
                boolean special = name.equals("netns_minipeer.pcap") && (frame == 40 || frame == 41);
                for (String k : List.of("src", "dst", "id", "ttl", "tos")) assertTrue(o.get("ip").has(k), k);
                for (String k : List.of("sport", "dport")) assertTrue(o.get("udp").get(k).isNumber(), k);
                assertTrue(o.has("error"));
                if (special) {
                    assertFalse(o.get("icrc_ok").asBoolean());
                    assertTrue(o.get("error").isString());
                    continue;
                }
                assertTrue(o.get("icrc_ok").asBoolean(), o.toString());
                assertTrue(o.get("error").isNull());
                JsonNode bth = o.get("bth");
                for (String k : List.of("opcode", "opcode_name", "se", "m", "pad", "tver", "pkey", "fecn", "becn",
                        "dqpn", "ackreq", "psn")) {
                    assertTrue(bth.has(k), k);
                }
                assertTrue(bth.get("psn").isNumber());
                assertTrue(o.get("payload_len").isNumber());
                assertTrue(o.get("icrc").asString().matches("[0-9a-f]{8}"));
                String op = bth.get("opcode_name").asString();
                if (op.contains("RDMA_WRITE_FIRST") || op.contains("RDMA_WRITE_ONLY")) {
                    assertTrue(o.get("reth").get("va").isNumber() && o.has("reth"), o.toString());
                    assertTrue(o.get("reth").has("rkey") && o.get("reth").has("dlen"));
                }
                if (op.equals("RC_ACKNOWLEDGE")) assertTrue(o.get("aeth").has("syndrome") && o.get("aeth").has("msn"));
                if (op.startsWith("UD_")) assertTrue(o.get("deth").has("qkey") && o.get("deth").has("sqpn"));
            }
            assertEquals(name.equals("info.pcap"), roce == 0, name);
        }
    }

    @Test
    void minipeerFrame41IsAnIcrcMismatchAndFrame40ATypedError(@TempDir Path dir) throws Exception {
        Result r = run("decode", "--json", capture(dir, "netns_minipeer.pcap").toString());
        List<String> lines = r.out().lines().toList();
        JsonNode f40 = json.readTree(lines.get(39));
        JsonNode f41 = json.readTree(lines.get(40));
        assertEquals("frame ends before a required header", f40.get("error").asString());
        assertFalse(f40.has("bth"));
        assertEquals("ICRC mismatch: expected ebe0a778, found 14e0a778", f41.get("error").asString());
        assertEquals("14e0a778", f41.get("icrc").asString());
        assertEquals("RC_SEND_ONLY", f41.get("bth").get("opcode_name").asString());
    }

    @Test
    void textAndExplainShowLayersAndMeanings(@TempDir Path dir) throws Exception {
        Path file = capture(dir, "netns_minipeer.pcap");
        String text = run("decode", file.toString()).out();
        assertTrue(text.contains("frame 46  "), text);
        assertTrue(text.contains("RC_ACKNOWLEDGE  ICRC ok"));
        assertTrue(text.contains("frame 41 ") && text.contains("ICRC mismatch: expected ebe0a778, found 14e0a778"));
        String explained = run("decode", "--explain", file.toString()).out();
        assertTrue(explained.contains("psn"));
        assertTrue(explained.contains("packet sequence number"), explained);
        assertTrue(explained.contains("ACK credits=invalid"));
        assertTrue(explained.contains("MISMATCH, computed ebe0a778 but the packet carries 14e0a778"));
    }

    @Test
    void strictExitsOneWhenAFrameFails(@TempDir Path dir) throws Exception {
        assertEquals(1, run("decode", "--strict", capture(dir, "netns_minipeer.pcap").toString()).code());
        assertEquals(0, run("decode", "--strict", capture(dir, "rc_pingpong.pcap").toString()).code());
    }

    @Test
    void unreadableInputsGetExitOneAndOneLine(@TempDir Path dir) throws Exception {
        // a file that cannot be read is a failure at run time (1); a bad command line is 2
        Result missing = run("decode", dir.resolve("nope.pcap").toString());
        assertEquals(1, missing.code());
        assertEquals(1, missing.err().lines().count(), missing.err());
        assertTrue(missing.err().contains("no such file"));

        Path junk = Files.writeString(dir.resolve("junk.pcap"), "this is not a capture");
        Result notPcap = run("decode", junk.toString());
        assertEquals(1, notPcap.code());
        assertTrue(notPcap.err().contains("not a pcap or pcapng file"), notPcap.err());

        Result dirArg = run("decode", dir.toString());
        assertEquals(1, dirArg.code());

        Result badOption = run("decode", "--frobnicate", junk.toString());
        assertEquals(2, badOption.code());
        assertTrue(badOption.err().startsWith("softrnic decode: Unknown option"), badOption.err());
        assertEquals(1, badOption.err().lines().count(), "a bad argument gets one line");

        assertEquals(2, run("decode").code());
        assertEquals(2, run("decode", "--udp-port", "70000", junk.toString()).code());
    }

    @Test
    void pcapngFromEditcapDecodesLikeThePcap(@TempDir Path dir) throws Exception {
        Tools.require("editcap");
        Path pcap = capture(dir, "netns_minipeer.pcap");
        Path ng = dir.resolve("minipeer.pcapng");
        Tools.run(List.of("editcap", "-F", "pcapng", pcap.toString(), ng.toString()), dir);
        assertEquals(run("decode", "--json", pcap.toString()).out(), run("decode", "--json", ng.toString()).out());
    }
}
