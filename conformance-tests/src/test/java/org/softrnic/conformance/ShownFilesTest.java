package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every program a page shows is a file that is built and run: the page shows the file word for word (or, marked
 * below, an excerpt of it). `./run-tests` builds examples/maven-consumer with the system's Maven against the
 * artifacts it has just installed and runs its tests and its program; ApiExampleTest and CmExampleTest run the
 * single-file examples. So what a reader copies is what compiles and passes.
 */
class ShownFilesTest {
    private static final String CONSUMER = "examples/maven-consumer/";
    private static final String CONSUMER_TESTS = CONSUMER + "src/test/java/com/example/rdma/";

    @ParameterizedTest(name = "{0} shows {1}")
    @CsvSource({
            "README.md,         " + CONSUMER + "pom.xml,                                      xml,  whole",
            "README.md,         " + CONSUMER_TESTS + "FirstTest.java,                         java, whole",
            "docs/library.md,   " + CONSUMER + "src/main/java/com/example/rdma/HelloRdma.java, java, whole",
            "docs/library.md,   " + CONSUMER_TESTS + "CmServerTest.java,                      java, whole",
            "docs/library.md,   " + CONSUMER_TESTS + "RdmaWriteTest.java,                     java, excerpt",
            "docs/library.md,   examples/RcWrite.java,                                        java, whole",
            "docs/rdma-cm.md,   examples/CmRping.java,                                        java, whole"})
    void thePageShowsTheFileVerbatim(String page, String file, String lang, String how) throws IOException {
        String text = Files.readString(Interop.ROOT.resolve(page));
        String source = Files.readString(Interop.ROOT.resolve(file));
        if (how.equals("whole")) {
            assertTrue(text.contains("```" + lang + "\n" + source + "```"), page + " must show " + file + " verbatim");
            return;
        }
        // an excerpt: some block of the page, at least three lines, is a run of the file's lines
        boolean found = Stream.of(text.split("```" + lang + "\n")).skip(1).map(b -> b.substring(0, b.indexOf("```")))
                .anyMatch(block -> block.lines().count() >= 3 && source.contains(block));
        assertTrue(found, page + " must show an excerpt of " + file + " verbatim");
    }
}
