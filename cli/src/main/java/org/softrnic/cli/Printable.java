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

    /** For one of softrnic's own messages, which may hold a peer's text: newlines and tabs kept. */
    public static String of(String text) {
        return escape(text, false);
    }

    /** A peer's text quoted inside a message: every control character escaped, newlines too. */
    public static String quote(String text) {
        return "'" + escape(text, true) + "'";
    }

    private static String escape(String text, boolean lines) {
        if (text == null) return "null";
        StringBuilder sb = new StringBuilder(Math.min(text.length(), MAX) + 16);
        int n = Math.min(text.length(), MAX);
        for (int i = 0; i < n; i++) {
            char ch = text.charAt(i);
            if (ch < 0x20 && (lines || ch != '\n' && ch != '\t') || ch == 0x7f || (ch >= 0x80 && ch < 0xa0)) {
                sb.append(String.format("\\x%02x", (int) ch));
            } else {
                sb.append(ch);
            }
        }
        if (text.length() > MAX) sb.append("... (").append(text.length() - MAX).append(" more characters)");
        return sb.toString();
    }
}
