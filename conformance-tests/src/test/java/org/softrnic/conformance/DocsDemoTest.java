package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A demo's ladder a page shows is the one the demo prints: the block after "$ ./softrnic demo ID" equals the demo's
 * golden copy (which DemoGoldenTest keeps equal to a run), memory addresses masked as the golden masks them.
 */
class DocsDemoTest {
    @ParameterizedTest(name = "{0} shows demo {1}")
    @CsvSource({"docs/registration.md, odp"})
    void thePageShowsTheDemosLadder(String page, String id) throws IOException {
        String text = Files.readString(Interop.ROOT.resolve(page));
        String marker = "$ ./softrnic demo " + id + "\n";
        int at = text.indexOf(marker);
        if (at < 0) throw new AssertionError(page + " shows no '" + marker.trim() + "'");
        String block = text.substring(at + marker.length(), text.indexOf("```", at));
        String masked = block.replaceAll("va=0x[0-9a-f]+", "va=ADDR").replaceAll("0x7[0-9a-f]{11}", "ADDR");
        String golden = Files.readString(Interop.ROOT.resolve("cli/src/test/resources/demo/" + id + ".txt"));
        assertEquals(golden, masked, page + "'s demo " + id + " is not what the demo prints; copy a fresh run");
    }
}
