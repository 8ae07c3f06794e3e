package org.softrnic.cli;

/**
 * Text from outside (a peer's bytes, a file's content) made safe to print on a terminal: control characters
 * and escape sequences are shown as \xNN, and a long text is cut, so a hostile peer cannot retitle or recolour
 * the terminal, nor flood it.
 */
public final class Printable {
    /** Longer texts are cut here, with how many characters were left out. */
    static final int MAX = 200;

    private Printable() {
    }

    /** One of softrnic's own one-line messages, which may hold a peer's text: every control character escaped. */
    public static String of(String text) {
        return escape(text, Integer.MAX_VALUE);
    }

    /** A peer's text quoted inside a message: every control character escaped, and cut at {@value #MAX}. */
    public static String quote(String text) {
        return "'" + escape(text, MAX) + "'";
    }

    private static String escape(String text, int max) {
        if (text == null) return "null";
        int n = Math.min(text.length(), max);
        StringBuilder sb = new StringBuilder(n + 16);
        for (int i = 0; i < n; i++) {
            char ch = text.charAt(i);
            if (ch < 0x20 || ch == 0x7f || (ch >= 0x80 && ch < 0xa0)) {
                sb.append(String.format("\\x%02x", (int) ch));
            } else {
                sb.append(ch);
            }
        }
        if (text.length() > max) sb.append("... (").append(text.length() - max).append(" more characters)");
        return sb.toString();
    }
}
