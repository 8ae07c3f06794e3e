package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The library guide's complete program, examples/RcWrite.java (ShownFilesTest), runs and checks out. */
class ApiExampleTest {
    private static final Path ROOT = Interop.ROOT;

    @Test
    void theExampleRunsAndEveryCheckHolds() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String out = Tools.run(List.of(java, "-cp", System.getProperty("java.class.path"), "examples/RcWrite.java"), ROOT);
        for (String line : List.of("devices: [rnic0, rnic1]", "IBV_WC_SUCCESS RDMA_WRITE len=65536",
                "RECV_RDMA_WITH_IMM len=65536", "imm=0x1234", "remote memory equals local: true", "read back equals remote: true",
                "fetched original: true, added 5: true")) {
            assertTrue(out.contains(line), "missing '" + line + "' in:\n" + out);
        }
    }
}
