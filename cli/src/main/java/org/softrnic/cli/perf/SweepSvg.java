package org.softrnic.cli.perf;

import static org.softrnic.cli.SvgText.text;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.softrnic.emulator.perf.PerfResult;

/**
 * A sweep drawn as two charts side by side, bandwidth and message rate against message size, both axes
 * logarithmic (sizes by powers of two, rates by decades), one line per link. Plain SVG, no script.
 */
final class SweepSvg {
    private static final int W = 460;
    private static final int H = 300;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 40;
    private static final int BOTTOM = 48;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};

    private SweepSvg() {
    }

    static String render(String title, List<PerfSweep.Line> lines) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"monospace\" font-size=\"11\">%n", 2 * W, H + 24 + 18 * lines.size()));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(text(W, 16, "middle", 13, title));
        chart(s, 0, "bandwidth, MB/s", lines, PerfResult::bwAverageMBps);
        chart(s, W, "message rate, Mpps", lines, PerfResult::msgRateMpps);
        for (int i = 0; i < lines.size(); i++) {
            int y = H + 18 + 18 * i;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    LEFT, y - 4, LEFT + 24, y - 4, colour(i)));
            PerfSweep.Line l = lines.get(i);
            s.append(text(LEFT + 30, y, "start", 11, l.link() + (l.error() == null ? "" : "  (stopped at " + l.error() + ")")));
        }
        return s.append("</svg>\n").toString();
    }

    private static void chart(StringBuilder s, int x0, String label, List<PerfSweep.Line> lines, ToDoubleFunction<PerfResult> value) {
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (PerfSweep.Line l : lines) {
            for (PerfResult r : l.results()) {
                double v = value.applyAsDouble(r);
                if (v > 0) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        if (hi == 0) {
            lo = 1;
            hi = 10;
        }
        int decLo = (int) Math.floor(Math.log10(lo));
        int decHi = Math.max(decLo + 1, (int) Math.ceil(Math.log10(hi)));
        int plotW = W - LEFT - RIGHT;
        int plotH = H - TOP - BOTTOM;
        s.append(text(x0 + LEFT + plotW / 2, TOP - 10, "middle", 12, label));
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>%n",
                x0 + LEFT, TOP, plotW, plotH));
        for (int k = PerfSweep.MIN_LOG2; k <= PerfSweep.MAX_LOG2; k += 2) {
            double x = x0 + LEFT + xFraction(k) * plotW;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>%n", x, TOP, x, TOP + plotH));
            s.append(text((int) x, TOP + plotH + 14, "middle", 10, sizeLabel(1 << k)));
        }
        s.append(text(x0 + LEFT + plotW / 2, TOP + plotH + 32, "middle", 11, "message size (log2)"));
        for (int d = decLo; d <= decHi; d++) {
            double y = TOP + plotH - (double) (d - decLo) / (decHi - decLo) * plotH;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>%n",
                    x0 + LEFT, y, x0 + LEFT + plotW, y));
            s.append(text(x0 + LEFT - 4, (int) y + 4, "end", 10, decade(d)));
        }
        for (int i = 0; i < lines.size(); i++) {
            StringBuilder points = new StringBuilder();
            for (PerfResult r : lines.get(i).results()) {
                double v = value.applyAsDouble(r);
                if (v <= 0) continue;
                double x = x0 + LEFT + xFraction(Integer.numberOfTrailingZeros(r.size())) * plotW;
                double y = TOP + plotH - (Math.log10(v) - decLo) / (decHi - decLo) * plotH;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            s.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    points.toString().trim(), colour(i)));
        }
    }

    private static double xFraction(int log2) {
        return (double) (log2 - PerfSweep.MIN_LOG2) / (PerfSweep.MAX_LOG2 - PerfSweep.MIN_LOG2);
    }

    static String sizeLabel(int bytes) {
        if (bytes >= 1 << 20) return (bytes >> 20) + "M";
        if (bytes >= 1 << 10) return (bytes >> 10) + "K";
        return String.valueOf(bytes);
    }

    private static String decade(int d) {
        return d >= 0 ? String.format(Locale.ROOT, "%.0f", Math.pow(10, d)) : String.format(Locale.ROOT, "%s", Math.pow(10, d));
    }

    private static String colour(int i) {
        return COLOURS[i % COLOURS.length];
    }
}
