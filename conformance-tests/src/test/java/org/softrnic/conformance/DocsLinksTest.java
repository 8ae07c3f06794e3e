package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every relative link in the README and docs/ names a file that exists, and every #anchor a heading in it. */
class DocsLinksTest {
    private static final Path ROOT = Interop.ROOT;
    /** [text](target): the target up to the closing parenthesis, which no target here contains. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** GitHub's anchor for a heading: lower case, punctuation but '-' and '_' dropped, spaces to '-'. */
    static String anchor(String heading) {
        return heading.trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    static Set<String> anchors(Path page) throws IOException {
        boolean fenced = false;
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("```")) fenced = !fenced;
            if (!fenced && line.matches("^#{1,6} .*")) out.add(anchor(line.replaceFirst("^#+ ", "")));
        }
        return Set.copyOf(out);
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z]+:.*")) continue; // http:, https:, mailto:: not ours to check here
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String fragment = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path to = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(to)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (fragment != null && to.toString().endsWith(".md") && !anchors(to).contains(fragment)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertEquals("", broken.stream().collect(Collectors.joining("\n")));
    }

    @Test
    void theAnchorOfAHeadingIsGitHubs() {
        assertEquals("softrnic-perf", anchor("`softrnic perf`"));
        assertEquals("where-softrnic-and-rxe-differ-and-why", anchor("Where softrnic and rxe differ, and why"));
    }
}
