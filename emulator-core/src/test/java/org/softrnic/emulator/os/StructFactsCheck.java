package org.softrnic.emulator.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Compiles a C program against the installed headers (gcc and the -dev packages scripts/install-deps brings) that
 * prints offsetof and sizeof for every {@link StructFacts.Fact}, and the value of every named constant, and compares
 * them with Java's.
 */
public final class StructFactsCheck {
    private StructFactsCheck() {
    }

    /** Checks {@code facts} and {@code constants} (C name, Java value) in {@code dir}, the C program including {@code headers}. */
    public static void check(Path dir, List<String> headers, List<StructFacts.Fact> facts, List<String[]> constants) throws Exception {
        List<String> expected = new ArrayList<>();
        StringBuilder c = new StringBuilder("#include <stdio.h>\n#include <stddef.h>\n");
        for (String h : headers) c.append("#include <").append(h).append(">\n");
        c.append("#define M(s, m) sizeof(((struct s *) 0)->m)\nint main(void) {\n");
        for (StructFacts.Fact f : facts) {
            if (f.member() == null) {
                String tag = f.struct().startsWith("union ") ? f.struct() : "struct " + f.struct();
                c.append("  printf(\"sizeof %s %zu\\n\", \"").append(f.struct()).append("\", sizeof(").append(tag).append("));\n");
                expected.add("sizeof " + f.struct() + " " + f.width());
            } else {
                c.append("  printf(\"%s.%s %zu %zu\\n\", \"").append(f.struct()).append("\", \"").append(f.member()).append("\", offsetof(struct ")
                        .append(f.struct()).append(", ").append(f.member()).append("), M(").append(f.struct()).append(", ").append(f.member()).append("));\n");
                expected.add(f.struct() + "." + f.member() + " " + f.offset() + " " + f.width());
            }
        }
        for (String[] k : constants) {
            c.append("  printf(\"%s %ld\\n\", \"").append(k[0]).append("\", (long) ").append(k[0]).append(");\n");
            expected.add(k[0] + " " + k[1]);
        }
        c.append("  return 0;\n}\n");
        Path source = dir.resolve("layout.c");
        Files.writeString(source, c);
        Path binary = dir.resolve("layout");
        String compiled = run(List.of("gcc", "-o", binary.toString(), source.toString()));
        assertTrue(Files.exists(binary), "gcc failed (install gcc and the headers: scripts/install-deps):\n" + compiled);
        List<String> actual = run(List.of(binary.toString())).lines().toList();
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
        return out;
    }
}
