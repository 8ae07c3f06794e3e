package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The rdma_cm guide's example (docs/rdma-cm.md, ShownFilesTest) examples/CmRping.java connects to `softrnic rping -s`
 * on another soft RNIC (another process, over UDP on loopback) and gets its buffer back as it sent it.
 * RxeCmExampleTest runs the same file against rxe's own rping.
 */
class CmExampleTest {
    static final Path ROOT = Interop.ROOT;
    static final String PING = "rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr";

    @Test
    void theExampleGetsItsBufferBackFromSoftrnicsRpingServer() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "cm-example").toAbsolutePath());
        Process server = new ProcessBuilder(java(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), "org.softrnic.cli.Main", "rping", "-s",
                "-a", "127.0.0.1", "-v", "--link", "udp:127.0.0.1", "--timeout", "60")
                .redirectOutput(dir.resolve("server.out").toFile()).redirectError(dir.resolve("server.err").toFile()).start();
        try {
            String out = null;
            // the server's JVM starts while we wait: a REQ before it listens is refused (REJ 8), so try again
            for (int i = 0; i < 30 && out == null; i++) {
                Thread.sleep(1000);
                out = runExample(dir, "127.0.0.2", "127.0.0.1");
            }
            assertEquals("ping data: " + PING + "; as sent: true", out == null ? null : out.strip(), () -> read(dir, "example.err"));
            assertTrue(server.waitFor(30, TimeUnit.SECONDS), "the server ends when the client disconnects");
            assertEquals(0, server.exitValue(), read(dir, "server.out") + read(dir, "server.err"));
            assertTrue(read(dir, "server.out").contains("server ping data: " + PING), read(dir, "server.out"));
        } finally {
            server.destroyForcibly();
        }
    }

    /** The example's output, or null when it failed (its stderr is in example.err). */
    static String runExample(Path dir, String ours, String server) throws Exception {
        Process p = new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"), "examples/CmRping.java", ours, server)
                .directory(ROOT.toFile()).redirectOutput(dir.resolve("example.out").toFile())
                .redirectError(dir.resolve("example.err").toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return null;
        }
        return p.exitValue() == 0 ? read(dir, "example.out") : null;
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static String read(Path dir, String name) {
        try {
            return Files.readString(dir.resolve(name));
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
