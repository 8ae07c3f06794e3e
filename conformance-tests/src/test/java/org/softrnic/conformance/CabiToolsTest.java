package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution's own rdma-core tools, unmodified, on softrnic's libibverbs.so.1: nothing but LD_LIBRARY_PATH
 * (from `softrnic cabi-path`) and SOFTRNIC_IP. ibv_devices and ibv_devinfo find softrnic0 with its RoCEv2 GID, and two
 * ibv_rc_pingpong processes, each its own soft RNIC on its own loopback address, talk RoCEv2 to each other.
 */
class CabiToolsTest {
    @TempDir
    static Path dir;
    private static Path libs;

    private static Path jar;
    private static Path pcaps;
    private static int captures;

    /**
     * The libraries and the jar they start, where an unprivileged user can read them: the tools run as nobody when the
     * test runs as root, as a user without privileges runs them.
     */
    @BeforeAll
    static void libraries() throws Exception {
        Path built = Interop.ROOT.resolve("cli/target/softrnic.jar");
        assertTrue(Files.isRegularFile(built), "the CLI's jar is built before conformance-tests");
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        jar = Files.copy(built, dir.resolve("softrnic.jar"));
        libs = dir.resolve("lib");
        pcaps = Files.createDirectory(dir.resolve("pcap"));
        Files.setPosixFilePermissions(pcaps, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        String out = run(List.of(System.getProperty("java.home") + "/bin/java", "-jar", jar.toString(), "cabi-path", "--dir", libs.toString()), Map.of());
        assertEquals(libs.toString(), out.strip());
        Files.setPosixFilePermissions(libs, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        try (var files = Files.list(libs)) {
            for (Path f : files.toList()) Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        for (String f : List.of("libibverbs.so.1", "librdmacm.so.1", "libmlx5.so.1", "libefa.so.1", "softrnic-cabi.conf")) {
            assertTrue(Files.isRegularFile(libs.resolve(f)), f);
        }
    }

    /** {@code command} as nobody when this runs as root (setpriv), else as it is. */
    private static List<String> unprivileged(List<String> command) {
        if (!"root".equals(System.getProperty("user.name"))) return command;
        List<String> c = new java.util.ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        c.addAll(command);
        return c;
    }

    private static String run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
        assertEquals(0, p.exitValue(), command + " failed:\n" + out);
        return out;
    }

    private static String tool(String... command) throws Exception {
        return run(unprivileged(List.of(command)), Map.of("LD_LIBRARY_PATH", libs.toString(), "SOFTRNIC_IP", "127.0.9.1"));
    }


    /** ibv_*_pingpong's result lines. */
    private static final String PINGPONG = "\\d+ bytes in [0-9.]+ seconds = .*";
    /** perftest's row under its header: the size, then the figures (bandwidth, or latency). */
    private static final String PERFTEST = "\\s*\\d+\\s+\\d+\\s+[0-9.]+\\s+[0-9.]+.*";

    /**
     * A server and a client of {@code tool} with {@code options}, each its own RNIC on its own loopback address: both
     * finish, and each prints a line matching {@code result}. Returns the client's output.
     */
    private static String pair(String tool, String result, String... options) throws Exception {
        int p = port++;
        List<String> server = new java.util.ArrayList<>(List.of(tool, "-p", String.valueOf(p)));
        server.addAll(List.of(options));
        List<String> client = new java.util.ArrayList<>(server);
        client.add("127.0.9.2");
        return pair(server, client, result);
    }

    /** {@code server}, then {@code client}, on 127.0.9.2 and 127.0.9.3: both exit 0, print a {@code result} line, refuse nothing. */
    private static String pair(List<String> server, List<String> client, String result) throws Exception {
        Path pcap = pcaps.resolve("run" + captures + ".pcap");
        Path serverOut = dir.resolve("server" + captures++ + ".out");
        ProcessBuilder sb = new ProcessBuilder(unprivileged(server)).redirectErrorStream(true).redirectOutput(serverOut.toFile());
        sb.environment().putAll(Map.of("LD_LIBRARY_PATH", libs.toString(), "SOFTRNIC_IP", "127.0.9.2"));
        Process s = sb.start();
        try {
            listening(s, serverOut);
            String c = client(unprivileged(client), Map.of("LD_LIBRARY_PATH", libs.toString(), "SOFTRNIC_IP", "127.0.9.3",
                    "SOFTRNIC_PCAP", pcap.toString()));
            assertTrue(s.waitFor(30, TimeUnit.SECONDS), "the server finishes");
            String out = Files.readString(serverOut);
            assertEquals(0, s.exitValue(), "server:\n" + out);
            for (String o : List.of(c, out)) assertTrue(o.lines().anyMatch(l -> l.matches(result)), o);
            assertTrue(!c.contains("softrnic:") && !out.contains("softrnic:"), "no verb refused:\n" + c + out);
            // the client's capture, both directions: every RoCE packet's ICRC verifies
            String decoded = run(List.of(System.getProperty("java.home") + "/bin/java", "-jar", jar.toString(), "decode", "--strict",
                    pcap.toString()), Map.of());
            assertTrue(decoded.contains("ICRC ok") && !decoded.contains("ICRC BAD"), decoded.lines().limit(20).toList().toString());
            return c;
        } finally {
            s.destroyForcibly();
        }
    }

    private static int port = 18700;

    /**
     * The client, run again (at most twice more, a second apart) when the server was not yet listening: its REQ met
     * a REJ with reason 8, invalid service ID, as a user who started it too early would see and start it again.
     */
    private static String client(List<String> command, Map<String, String> env) throws Exception {
        for (int attempt = 0; ; attempt++) {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().putAll(env);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
            boolean early = out.contains("RDMA_CM_EVENT_REJECTED; error: 8") || out.contains("RDMA_CM_EVENT_REJECTED, error 8");
            if (p.exitValue() == 0 || !early || attempt == 2) {
                assertEquals(0, p.exitValue(), command + " failed:\n" + out);
                return out;
            }
            Thread.sleep(1000);
        }
    }

    /**
     * Waits until the server has said it waits for a client (perftest, librdmacm's examples), then a little more for it
     * to listen, as a user who starts the client after seeing that; the pingpongs say nothing first: a second then.
     */
    private static void listening(Process server, Path out) throws Exception {
        long end = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < end && server.isAlive()) {
            String said = Files.exists(out) ? Files.readString(out) : "";
            if (said.contains("Waiting for client") || said.contains("starting server")) {
                Thread.sleep(2000); // they say so before they listen; on a loaded machine the listen comes later
                return;
            }
            if (said.isEmpty() && System.nanoTime() > end - 19_000_000_000L) return; // a pingpong: silent until a client comes
            Thread.sleep(50);
        }
    }

    @Test
    void ibvRcPingpongBothWays() throws Exception {
        String c = pair("ibv_rc_pingpong", PINGPONG, "-g", "0");
        assertTrue(c.contains("GID ::ffff:127.0.9.2") && c.contains("GID ::ffff:127.0.9.3"), c);
    }

    @Test
    void ibvRcPingpongWithACompletionChannel() throws Exception {
        pair("ibv_rc_pingpong", PINGPONG, "-g", "0", "-e");
    }

    @Test
    void ibvRcPingpongOf64KiBMessages() throws Exception {
        pair("ibv_rc_pingpong", PINGPONG, "-g", "0", "-s", "65536", "-n", "200");
    }

    @Test
    void ibvSrqPingpongSixteenQpsOnOneSrq() throws Exception {
        pair("ibv_srq_pingpong", PINGPONG, "-g", "0", "-n", "200");
    }

    @Test
    void ibvRcPingpongThroughTheIbvWrApi() throws Exception {
        pair("ibv_rc_pingpong", PINGPONG, "-g", "0", "-N");
    }

    /** perftest takes the old post-send path on any device but mlx5, EFA and HNS (rxe too), so that is its default here. */
    @Test
    void perftestBandwidthTools() throws Exception {
        for (String tool : List.of("ib_write_bw", "ib_read_bw", "ib_send_bw")) {
            String c = pair(tool, PERFTEST, "-x", "0", "-n", "500");
            assertTrue(c.contains("Device         : softrnic0") && c.contains("ibv_wr* API     : OFF"), c);
        }
    }

    @Test
    void perftestLatency() throws Exception {
        pair("ib_write_lat", PERFTEST, "-x", "0", "-n", "500");
        pair("ib_write_lat", PERFTEST, "-x", "0", "-n", "500", "--use_old_post_send");
    }

    @Test
    void perftestOverTheRdmaCm() throws Exception {
        String c = pair("ib_write_bw", PERFTEST, "-R", "-x", "0", "-n", "500");
        assertTrue(c.contains("rdma_cm QPs\t : ON"), c);
    }

    @Test
    void rpingTenVerifiedPings() throws Exception {
        String c = pair(List.of("rping", "-s", "-a", "127.0.9.2", "-v", "-C", "10"), List.of("rping", "-c", "-a", "127.0.9.2", "-C", "10", "-V", "-v"),
                ".*ping data: rdma-ping-9: .*");
        assertEquals(10, c.lines().filter(l -> l.startsWith("ping data: rdma-ping-")).count(), c);
    }

    @Test
    void ucmatoseAndUdaddy() throws Exception {
        pair(List.of("ucmatose", "-b", "127.0.9.2"), List.of("ucmatose", "-s", "127.0.9.2"), "return status 0");
        pair(List.of("udaddy", "-b", "127.0.9.2"), List.of("udaddy", "-s", "127.0.9.2"), "return status 0");
    }

    /** A program of its own (async_event.c): a CQ overflow's IBV_EVENT_CQ_ERR on the async fd it poll()s. */
    @Test
    void anAsynchronousEventArrivesOnAPollableFd() throws Exception {
        Path source = dir.resolve("async_event.c");
        try (var in = CabiToolsTest.class.getResourceAsStream("/cabi/async_event.c")) {
            Files.write(source, in.readAllBytes());
        }
        Path binary = dir.resolve("async_event");
        run(List.of("cc", "-O2", "-o", binary.toString(), source.toString(), "-libverbs"), Map.of());
        String out = tool(binary.toString());
        assertTrue(out.contains("event CQ error on the CQ"), out);
    }

    @Test
    void ibvDevicesListsSoftrnic0WithItsGuid() throws Exception {
        String out = tool("ibv_devices");
        // EUI-64 of the MAC 02:7f:00:09:01 the address gives
        assertTrue(out.lines().anyMatch(l -> l.trim().matches("softrnic0\\s+027f00fffe000901")), out);
    }

    @Test
    void ibvDevinfoShowsThePortAndTheRoceV2Gid() throws Exception {
        String out = tool("ibv_devinfo", "-v");
        for (String s : new String[] {"hca_id:\tsoftrnic0", "PORT_ACTIVE (4)", "link_layer:\t\tEthernet", "max_qp:\t\t\t\t65536",
                "GID[  0]:\t\t::ffff:127.0.9.1, RoCE v2", "active_mtu:\t\t1024 (3)"}) {
            assertTrue(out.contains(s), s + " in:\n" + out);
        }
    }
}
