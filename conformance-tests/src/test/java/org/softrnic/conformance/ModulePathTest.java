package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * softrnic on the module path: the library guide's complete program (examples/RcWrite.java), made a module that requires org.softrnic.emulator,
 * compiles and runs; a module that imports the engine does not compile (its packages are exported to
 * softrnic's own modules only). The class path, the common case, is {@link ApiExampleTest}'s.
 */
class ModulePathTest {
    private static final Path ROOT = Interop.ROOT;

    /** softrnic's jars and their dependencies, from this test's class path: the module path a user would give. */
    static String modulePath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(p -> p.endsWith(".jar") && !p.endsWith("-tests.jar"))
                .filter(p -> p.contains("wire-rocev2") || p.contains("nic-model") || p.contains("emulator-core")
                        || p.contains("jackson") || p.contains("snakeyaml"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    static int javac(List<String> args, ByteArrayOutputStream err) {
        return ToolProvider.getSystemJavaCompiler().run(null, null, new PrintStream(err, true, StandardCharsets.UTF_8),
                args.toArray(String[]::new));
    }

    static Path module(Path dir, String name, String moduleInfo, String className, String source) throws Exception {
        Path src = dir.resolve("src").resolve(name);
        Files.createDirectories(src.resolve(name));
        Files.writeString(src.resolve("module-info.java"), moduleInfo);
        Files.writeString(src.resolve(name).resolve(className + ".java"), "package " + name + ";\n" + source);
        return src;
    }

    @Test
    void theLibraryGuidesProgramRunsAsAModule(@TempDir Path dir) throws Exception {
        String example = Files.readString(ROOT.resolve("examples/RcWrite.java"));
        Path src = module(dir, "app", "module app {\n    requires org.softrnic.emulator;\n}\n", "RcWrite", example);
        Path out = dir.resolve("out");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac(List.of("--module-path", modulePath(), "-d", out.toString(), src.resolve("module-info.java").toString(),
                src.resolve("app/RcWrite.java").toString()), err);
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=org.softrnic.emulator",
                "--module-path", modulePath() + File.pathSeparator + out, "--module", "app/app.RcWrite"));
        String printed = Tools.run(cmd, dir);
        for (String line : List.of("devices: [rnic0, rnic1]", "remote memory equals local: true", "read back equals remote: true",
                "fetched original: true, added 5: true")) {
            assertTrue(printed.contains(line), "missing '" + line + "' in:\n" + printed);
        }
    }

    @Test
    void theEngineIsNotExportedToUsers(@TempDir Path dir) throws Exception {
        Path src = module(dir, "bad", "module bad {\n    requires org.softrnic.emulator;\n}\n", "UsesTheEngine",
                "public class UsesTheEngine {\n    org.softrnic.nic.Nic nic;\n}\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac(List.of("--module-path", modulePath(), "-d", dir.resolve("out").toString(),
                src.resolve("module-info.java").toString(), src.resolve("bad/UsesTheEngine.java").toString()), err);
        String message = err.toString(StandardCharsets.UTF_8);
        assertNotEquals(0, rc);
        // javac says "package org.softrnic.nic is not visible", with or without the module detail after it
        assertTrue(message.contains("package org.softrnic.nic is not visible")
                || message.contains("package org.softrnic.nic is declared in module org.softrnic.nic, which does not export it"), message);
    }
}
