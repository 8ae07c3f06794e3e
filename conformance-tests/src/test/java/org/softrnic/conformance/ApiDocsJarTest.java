package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The library modules package sources and javadoc jars beside their classes, so that `mvn install` puts them where
 * an IDE finds them, and the verbs API's javadoc names each parameter with its unit. Runs once the modules are
 * packaged (`mvn install`, `./run-tests`); under `mvn test` alone there are no jars to look at.
 */
class ApiDocsJarTest {
    private static Path jar(String module, String classifier) throws IOException {
        try (var files = Files.list(Interop.ROOT.resolve(module, "target"))) {
            return files.filter(p -> p.getFileName().toString().matches(module + "-[^-]+(-SNAPSHOT)?" + classifier + "\\.jar"))
                    .findFirst().orElse(null);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"wire-rocev2", "nic-model", "emulator-core"})
    void aLibraryModuleHasSourcesAndJavadocJars(String module) throws IOException {
        assumeTrue(Files.isDirectory(Interop.ROOT.resolve(module, "target")) && jar(module, "") != null, module + " is not packaged");
        assertNotNull(jar(module, "-sources"), module + " has no sources jar");
        assertNotNull(jar(module, "-javadoc"), module + " has no javadoc jar");
    }

    @ParameterizedTest
    @ValueSource(strings = {"QpCaps.html:maxSendWr:send queue depth", "SendWr.html:maxSge:gather entries",
            "RecvWr.html:maxSge:scatter entries", "WorkCompletion.html:byteLen:in bytes"})
    void theVerbsJavadocNamesParametersAndUnits(String expected) throws IOException {
        String[] e = expected.split(":");
        Path javadoc = jar("nic-model", "-javadoc");
        assumeTrue(javadoc != null, "nic-model is not packaged");
        try (ZipFile zip = new ZipFile(javadoc.toFile())) {
            var entry = zip.stream().filter(z -> z.getName().endsWith("org/softrnic/verbs/" + e[0])).findFirst().orElse(null);
            assertNotNull(entry, e[0] + " is not in " + javadoc);
            String html = new String(zip.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(html.contains(e[1]) && html.contains(e[2]), e[0] + " must document " + e[1] + " (" + e[2] + ")");
        }
    }
}
