package org.softrnic.cli.demo;

import java.util.List;

/**
 * The ladder as an SVG picture: two lanes, one arrow element (class "packet") per row, a note beside each. A row is
 * a packet, or in a capture's ladder a run of packets alike with its count, as the text draws it.
 */
final class LadderSvg {
    private LadderSvg() {
    }

    /**
     * @param left       the sender drawn on the left
     * @param leftLabel  the left lane's heading
     */
    static String render(String title, String left, String leftLabel, String rightLabel, List<WireStep> steps) {
        return rows(title, left, leftLabel, rightLabel, steps.stream().map(LadderRow::of).toList());
    }

    static String rows(String title, String left, String leftLabel, String rightLabel, List<LadderRow> rows) {
        int l = 120;
        int r = 620;
        int row = 34;
        int top = 70;
        int height = top + row * rows.size() + 40;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1700\" height=\"%d\" font-family=\"monospace\" font-size=\"12\">%n", height));
        sb.append("<defs><marker id=\"head\" markerWidth=\"10\" markerHeight=\"7\" refX=\"10\" refY=\"3.5\" orient=\"auto\">"
                + "<polygon points=\"0 0, 10 3.5, 0 7\"/></marker></defs>\n");
        sb.append(String.format("<rect width=\"1700\" height=\"%d\" fill=\"white\"/>%n", height));
        sb.append(String.format("<text x=\"10\" y=\"20\" font-weight=\"bold\">%s</text>%n", xml(title)));
        sb.append(String.format("<text x=\"%d\" y=\"50\" text-anchor=\"middle\">%s</text>%n", l, xml(leftLabel)));
        sb.append(String.format("<text x=\"%d\" y=\"50\" text-anchor=\"middle\">%s</text>%n", r, xml(rightLabel)));
        sb.append(String.format("<line x1=\"%d\" y1=\"58\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", l, l, height - 20));
        sb.append(String.format("<line x1=\"%d\" y1=\"58\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", r, r, height - 20));
        int y = top;
        long t0 = rows.isEmpty() ? 0 : rows.getFirst().first().sentAt();
        for (LadderRow run : rows) {
            WireStep s = run.first();
            boolean rightward = s.from().equals(left);
            int x1 = rightward ? l : r;
            int x2 = s.dropped() ? (l + r) / 2 : rightward ? r : l;
            String colour = s.dropped() || s.refused() != null ? "#c00" : s.again() != null ? "#b70" : "#036";
            String label = s.packet() == null ? "not RoCE" + run.times()
                    : LadderText.name(s.packet()) + run.times() + "  " + run.psns() + "  " + s.bytes().length + " B";
            sb.append(String.format("<text x=\"10\" y=\"%d\">%.3f us</text>%n", y + 4, (s.sentAt() - t0) / 1000.0));
            sb.append(String.format("<line class=\"packet\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
                    x1, y, x2, y + row - 14, colour, s.dropped() ? "" : " marker-end=\"url(#head)\""));
            if (s.dropped()) sb.append(String.format("<text x=\"%d\" y=\"%d\" fill=\"#c00\" font-weight=\"bold\">X</text>%n", x2 - 4, y + row - 10));
            sb.append(String.format("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"%s\">%s</text>%n", (l + r) / 2, y + 4,
                    colour, xml(label)));
            sb.append(String.format("<text x=\"%d\" y=\"%d\" fill=\"#444\">%s</text>%n", r + 20, y + 10, xml(run.forRun(StepNotes.of(s)))));
            y += row;
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
