package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every `softrnic demo` scenario's --pcap, read by two decoders that are not softrnic's: tshark dissects each
 * frame as RoCE with the PSN the ladder shows, and an independent ICRC (Python's zlib) accepts every one.
 * softrnic decode --strict agrees.
 */
class DemoCapturesTest {
    private static Path dir;
    private static Path icrcScript;

    @BeforeAll
    static void setUp() throws Exception {
        dir = Files.createDirectories(Path.of("target", "demo-captures").toAbsolutePath());
        icrcScript = dir.resolve("icrc_reference.py");
        try (InputStream in = DemoCapturesTest.class.getResourceAsStream("/icrc_reference.py")) {
            Files.write(icrcScript, in.readAllBytes());
        }
    }

    static List<String> scenarios() {
        DecodeCommandTest.Result r = DecodeCommandTest.run("demo", "--list");
        // the ladders only: a scenario that prints a table puts nothing on a wire to capture
        return r.out().lines().skip(1).filter(l -> !l.contains("a table, not a ladder")).map(l -> l.trim().split("\\s+")[0]).toList();
    }

    @ParameterizedTest
    @MethodSource("scenarios")
    void twoOtherDecodersReadTheCapture(String scenario) throws Exception {
        Tools.require("tshark");
        Tools.require("python3");
        Path pcap = dir.resolve(scenario + ".pcap");
        DecodeCommandTest.Result demo = DecodeCommandTest.run("demo", scenario, "--no-color", "--pcap", pcap.toString());
        assertEquals(0, demo.code(), demo.err());
        List<String> psns = demo.out().lines().filter(l -> l.contains("->|") || l.contains("|<-") || l.contains("---X"))
                .map(l -> l.replaceAll("^.*?PSN (\\d+).*$", "$1")).toList(); // the arrow's PSN, not one the line's words name
        String tshark = Tools.run(List.of("tshark", "-r", pcap.toString(), "-T", "fields", "-e", "infiniband.bth.psn"), dir);
        assertEquals(psns, tshark.strip().lines().toList(), "tshark's PSNs are the ladder's");
        List<String> icrc = Tools.run(List.of("python3", icrcScript.toString(), pcap.toString()), dir).strip().lines().toList();
        assertEquals(psns.size(), icrc.size());
        assertTrue(icrc.stream().allMatch(l -> l.endsWith(" ok")), String.join("\n", icrc));
        assertEquals(0, DecodeCommandTest.run("decode", "--strict", pcap.toString()).code());
    }
}
