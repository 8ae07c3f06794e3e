package org.softrnic.cli;

import java.util.Locale;

/** A label in the commands' plain SVG pictures: one text element, its words escaped for XML. */
public final class SvgText {
    private SvgText() {
    }

    public static String text(double x, double y, String anchor, int size, String words) {
        return String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n", x, y, anchor, size,
                words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"));
    }
}
