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
 * (from `softrnic cabi-path`) and SOFTRNIC_IP. ibv_devices and ibv_devinfo find softrnic0 with its RoCEv2 GID.
 */
class CabiToolsTest {
    @TempDir
    static Path dir;
    private static Path libs;

    @BeforeAll
    static void libraries() throws Exception {
        Path jar = Interop.ROOT.resolve("cli/target/softrnic.jar");
        assertTrue(Files.isRegularFile(jar), "the CLI's jar is built before conformance-tests");
        libs = dir.resolve("lib");
        String out = run(List.of(System.getProperty("java.home") + "/bin/java", "-jar", jar.toString(), "cabi-path", "--dir", libs.toString()), Map.of());
        assertEquals(libs.toString(), out.strip());
        for (String f : List.of("libibverbs.so.1", "librdmacm.so.1", "libmlx5.so.1", "libefa.so.1", "softrnic-cabi.conf")) {
            assertTrue(Files.isRegularFile(libs.resolve(f)), f);
        }
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
        return run(List.of(command), Map.of("LD_LIBRARY_PATH", libs.toString(), "SOFTRNIC_IP", "127.0.9.1"));
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
