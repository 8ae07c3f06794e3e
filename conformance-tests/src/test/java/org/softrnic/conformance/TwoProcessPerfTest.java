package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two JVMs on one host run a full RC session over UDP loopback: `softrnic perf write --server` on
 * 127.0.0.2 and `--connect` from 127.0.0.1 move 256 MiB with RDMA WRITE, and the server checks every byte.
 */
class TwoProcessPerfTest {
    private static List<String> softrnic(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), "org.softrnic.cli.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.1"), 0))) {
            return s.getLocalPort();
        }
    }

    private static int freeTcpPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.ofLiteral("127.0.0.2"))) {
            return s.getLocalPort();
        }
    }

    @Test
    void twoJvmsMove256MibWithRdmaWriteAndTheServerVerifiesIt() throws Exception {
        String port = Integer.toString(freeUdpPort());
        String oob = Integer.toString(freeTcpPort());
        Path dir = Files.createDirectories(Path.of("target", "two-process").toAbsolutePath());
        Process server = new ProcessBuilder(softrnic("perf", "--server", "--link", "udp:127.0.0.2:" + port,
                "--oob-port", oob, "--json")).redirectOutput(dir.resolve("server.out").toFile()).start();
        Process client = null;
        try {
            BufferedReader err = new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
            String line = err.readLine();
            assertTrue(line != null && line.contains("serving on udp:127.0.0.2:" + port), "server said: " + line);
            client = new ProcessBuilder(softrnic("perf", "write", "--connect", "127.0.0.2", "--link", "udp:127.0.0.1:" + port,
                    "--oob-port", oob, "--size", "1048576", "--iters", "256", "--mtu", "4096", "--verify", "--json"))
                    .redirectOutput(dir.resolve("client.out").toFile()).redirectError(dir.resolve("client.err").toFile()).start();
            assertTrue(client.waitFor(120, TimeUnit.SECONDS), "the client finished");
            assertTrue(server.waitFor(30, TimeUnit.SECONDS), "the server finished after its one client");
            String clientOut = Files.readString(dir.resolve("client.out"));
            assertEquals(0, client.exitValue(), clientOut + Files.readString(dir.resolve("client.err")));
            assertEquals(0, server.exitValue());
            JsonNode c = JsonMapper.builder().build().readTree(clientOut);
            assertEquals(256, c.get("iterations").asLong());
            assertTrue(c.get("verified").asBoolean(), clientOut);
            assertTrue(c.get("error").isNull(), clientOut);
            JsonNode s = JsonMapper.builder().build().readTree(Files.readString(dir.resolve("server.out")));
            assertTrue(s.get("verified").asBoolean(), "the server checked all 256 MiB");
            assertEquals(256, s.get("completed").asLong());
            // 256 MiB at MTU 4096 is 65 536 WRITE packets, each received and its ICRC verified by the server
            assertTrue(s.get("server_counters").get("rcvd_icrc_verified").asLong() >= 65_536, s.toString());
        } finally {
            server.destroyForcibly();
            if (client != null) client.destroyForcibly();
        }
    }
}
