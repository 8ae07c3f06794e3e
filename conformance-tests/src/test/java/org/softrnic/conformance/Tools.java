package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** External tools the conformance suites compare against. In CI a missing tool is a failure, not a skip. */
final class Tools {
    private Tools() {}

    static boolean inCi() {
        return System.getenv("CI") != null;
    }

    /** Fails in CI, skips elsewhere, when {@code tool} is not on the PATH. */
    static void require(String tool) {
        boolean present = List.of(System.getenv().getOrDefault("PATH", "").split(":")).stream()
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
        if (!present && inCi()) fail(tool + " is not installed; .ci/run installs it with scripts/install-deps");
        Assumptions.assumeTrue(present, tool + " is not installed (scripts/install-deps installs it)");
    }

    /** Runs a command, returns its standard output, and fails on a non-zero exit. */
    static String run(List<String> command, Path workDir) throws IOException, InterruptedException {
        Path err = Files.createTempFile("softrnic-stderr", ".txt"); // not in workDir: that may be the repository
        try {
            Process p = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectError(err.toFile()).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail(command + " timed out");
            }
            assertEquals(0, p.exitValue(), () -> command + " failed: " + read(err));
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
