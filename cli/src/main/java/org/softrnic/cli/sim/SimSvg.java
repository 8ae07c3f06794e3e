package org.softrnic.cli.sim;

import static org.softrnic.cli.SvgText.text;

import java.util.List;
import java.util.Locale;
import org.softrnic.emulator.sim.ScenarioResult;

/** A scenario drawn as two charts, one above the other: each flow's goodput, and the bottleneck queue, against time. */
final class SimSvg {
    private static final int W = 640;
    private static final int H = 220;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 36;
    private static final int BOTTOM = 36;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f"};

    private SimSvg() {
    }

    static String render(ScenarioResult r) {
        StringBuilder s = new StringBuilder();
        var sc = r.scenario();
        String title = String.format(Locale.ROOT, "%s, %d sender(s), %s Gb/s, cc %s%s, pfc %s, buffer %d B, seed %d", sc.name(), sc.senders(),
                sc.gbps(), sc.cc(), sc.cc().equals("dcqcn") ? " (" + sc.profile() + ")" : "", sc.pfc() ? "on" : "off", sc.bufferBytes(), sc.seed());
        int flowsShown = Math.min(r.flows().size(), COLOURS.length);
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" font-size=\"11\">%n",
                W, 2 * H + 20 + 16 * flowsShown));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(text(W / 2, 16, "middle", 12, title));
        double duration = sc.durationMs();
        double maxRate = sc.gbps();
        for (int i = 0; i < flowsShown; i++) {
            List<double[]> pts = r.flows().get(i).windows().stream().map(w -> new double[] {w.tMs() + sc.windowMs(), w.gbps()}).toList();
            chart(s, 0, "goodput per flow, Gb/s", duration, maxRate, pts, COLOURS[i], i == 0);
        }
        long maxQ = Math.max(1, r.queue().stream().mapToLong(ScenarioResult.QueueSample::bytes).max().orElse(1));
        List<double[]> q = r.queue().stream().map(x -> new double[] {x.tMs(), x.bytes() / 1000.0}).toList();
        chart(s, H, "bottleneck queue, KB", duration, maxQ / 1000.0, q, "#333333", true);
        for (int i = 0; i < flowsShown; i++) {
            int y = 2 * H + 16 + 16 * i;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>%n", LEFT, y - 4, LEFT + 24, y - 4, COLOURS[i]));
            s.append(text(LEFT + 30, y, "start", 11, String.format(Locale.ROOT, "flow %d: %.3f Gb/s over the measurement", r.flows().get(i).id(), r.flows().get(i).avgGbps())));
        }
        return s.append("</svg>\n").toString();
    }

    private static void chart(StringBuilder s, int y0, String label, double xMax, double yMax, List<double[]> pts, String colour, boolean axes) {
        double top = y0 + TOP;
        double bottom = y0 + H - BOTTOM;
        double right = W - RIGHT;
        double yTop = yMax <= 0 ? 1 : yMax * 1.1;
        if (axes) {
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#999\"/>%n", LEFT, top, right - LEFT, bottom - top));
            s.append(text(LEFT, top - 6, "start", 11, label));
            for (int k = 0; k <= 4; k++) {
                double v = yTop * k / 4;
                double y = bottom - (bottom - top) * k / 4;
                s.append(text(LEFT - 4, y + 4, "end", 10, String.format(Locale.ROOT, "%.1f", v)));
                double t = xMax * k / 4;
                s.append(text(LEFT + (right - LEFT) * k / 4, bottom + 14, "middle", 10, String.format(Locale.ROOT, "%.0f ms", t)));
            }
        }
        StringBuilder d = new StringBuilder();
        for (double[] p : pts) {
            double x = LEFT + (right - LEFT) * Math.min(1, p[0] / xMax);
            double y = bottom - (bottom - top) * Math.min(1, p[1] / yTop);
            d.append(d.isEmpty() ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
        }
        if (!d.isEmpty()) s.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>%n", d, colour));
    }
}
