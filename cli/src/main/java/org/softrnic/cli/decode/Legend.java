package org.softrnic.cli.decode;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The legend printed once after a ladder or a decode: one line for each term that was on the screen, in the order
 * it first appeared, and none for a term that was not. Terms are found in the lines as they are printed
 * ({@link #scan}), or named by the printer itself ({@link #saw}).
 */
public final class Legend {
    /** A term as the screen shows it, how to find it in a printed line, and what it means. */
    public record Term(String shown, Pattern on, String meaning) {
        public static Term of(String shown, String regex, String meaning) {
            return new Term(shown, Pattern.compile(regex), meaning);
        }
    }

    private final List<Term> terms;
    private final Map<String, String> seen = new LinkedHashMap<>();

    /** @param terms the terms {@link #scan} looks for */
    public Legend(List<Term> terms) {
        this.terms = terms;
    }

    /** Notes the terms that {@code line} shows. */
    public void scan(String line) {
        for (Term t : terms) {
            if (!seen.containsKey(t.shown()) && t.on().matcher(line).find()) seen.put(t.shown(), t.meaning());
        }
    }

    /** Notes a term the printer showed; its first meaning stays. */
    public void saw(String shown, String meaning) {
        seen.putIfAbsent(shown, meaning);
    }

    public boolean isEmpty() {
        return seen.isEmpty();
    }

    /** A blank line, then the terms seen, one a line; nothing when none was seen. */
    public void print(PrintWriter out) {
        if (seen.isEmpty()) return;
        int width = seen.keySet().stream().mapToInt(String::length).max().orElse(0);
        out.println();
        out.println("legend (the terms above):");
        seen.forEach((shown, meaning) -> out.printf("  %-" + width + "s  %s%n", shown, meaning));
    }
}
