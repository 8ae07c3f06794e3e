package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The README's quick start is the consumer project's own pom and first test, word for word; `./run-tests` then
 * builds that project with the system's Maven against the artifacts it has just installed, so what the README
 * shows is what compiles and passes.
 */
class QuickStartTest {
    @Test
    void theReadmeShowsTheConsumersPomAndFirstTestVerbatim() throws Exception {
        String readme = Files.readString(Interop.ROOT.resolve("README.md"));
        String pom = Files.readString(Interop.ROOT.resolve("examples/maven-consumer/pom.xml"));
        String first = Files.readString(Interop.ROOT.resolve("examples/maven-consumer/src/test/java/com/example/rdma/FirstTest.java"));
        assertTrue(readme.contains("```xml\n" + pom + "```"), "README.md must show examples/maven-consumer/pom.xml verbatim");
        assertTrue(readme.contains("```java\n" + first + "```"), "README.md must show the consumer's FirstTest.java verbatim");
    }
}
