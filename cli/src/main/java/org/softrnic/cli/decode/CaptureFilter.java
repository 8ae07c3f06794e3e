package org.softrnic.cli.decode;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.softrnic.cli.UserError;
import org.softrnic.wire.frame.DecodedFrame;

/**
 * Which frames of a capture decode and ladder show. A frame passes when it passes every filter given: its number
 * (counted from 1 over every frame of the file, RoCE or not, as tshark and Wireshark number them), its BTH PSN,
 * its BTH destination QP. A PSN or QP filter keeps only frames that have a BTH.
 *
 * @param frames the frame numbers kept, or null for all
 * @param psns   the PSNs kept, or null for all; a range whose start is above its end wraps through 2^24 to 0
 * @param qps    the destination QPs kept; empty for all
 * @param given  the options as typed, to say which filters left nothing
 */
public record CaptureFilter(Range frames, Range psns, Set<Integer> qps, String given) {
    public static final CaptureFilter ALL = new CaptureFilter(null, null, Set.of(), "");
    /** PSNs and QP numbers are 24 bits (IBTA 9.2: BTH). */
    private static final long MAX_24 = 0xffffff;
    private static final String NUMBER = "(0[xX][0-9a-fA-F]{1,8}|[0-9]{1,10})";
    private static final Pattern FRAMES = Pattern.compile("([0-9]{1,10})(-([0-9]{0,10}))?");
    private static final Pattern PSNS = Pattern.compile(NUMBER + "(-" + NUMBER + ")?");
    private static final Pattern QPN = Pattern.compile(NUMBER);

    /** From {@code from} to {@code to}, both included; {@code to} below {@code from} wraps (PSNs only). */
    public record Range(long from, long to) {
        boolean has(long v) {
            return from <= to ? v >= from && v <= to : v >= from || v <= to;
        }
    }

    /** The filter the options ask for; a value that is not one is a {@link UserError} (exit 2). */
    public static CaptureFilter parse(String frames, String psn, List<String> qps) {
        StringBuilder given = new StringBuilder();
        Range f = frames == null ? null : frames(frames);
        if (frames != null) given.append("--frames ").append(frames);
        Range p = psn == null ? null : psns(psn);
        if (psn != null) given.append(given.isEmpty() ? "" : " ").append("--psn ").append(psn);
        Set<Integer> q = new TreeSet<>();
        if (qps != null) {
            for (String v : qps) q.add(qpn(v));
            if (!qps.isEmpty()) given.append(given.isEmpty() ? "" : " ").append("--qp ").append(String.join(",", qps));
        }
        return new CaptureFilter(f, p, Set.copyOf(q), given.toString());
    }

    /** Whether any filter was given. */
    public boolean any() {
        return frames != null || psns != null || !qps.isEmpty();
    }

    /** Whether the frame number alone decides, so that frames past the ones shown need not be decoded to be counted. */
    public boolean byNumberOnly() {
        return psns == null && qps.isEmpty();
    }

    public boolean keepsNumber(int number) {
        return frames == null || frames.has(number);
    }

    public boolean keeps(int number, DecodedFrame d) {
        if (!keepsNumber(number)) return false;
        if (byNumberOnly()) return true;
        if (d.packet() == null) return false;
        if (psns != null && !psns.has(d.packet().bth().psn())) return false;
        return qps.isEmpty() || qps.contains(d.packet().bth().dqpn());
    }

    private static Range frames(String v) {
        Matcher m = FRAMES.matcher(v);
        if (!m.matches()) {
            throw new UserError("--frames must be N, FROM-TO or FROM- (frame numbers from 1, as tshark and Wireshark count"
                    + " them), not '" + v + "'");
        }
        long from = Long.parseLong(m.group(1));
        long to = m.group(2) == null ? from : m.group(3).isEmpty() ? Long.MAX_VALUE : Long.parseLong(m.group(3));
        if (from < 1 || to < 1) throw new UserError("--frames " + v + ": frames are numbered from 1, as tshark and Wireshark number them");
        if (from > to) throw new UserError("--frames " + v + ": FROM must not be past TO");
        return new Range(from, to);
    }

    private static Range psns(String v) {
        Matcher m = PSNS.matcher(v);
        if (!m.matches()) throw new UserError("--psn must be N or FROM-TO, each decimal or 0x hex, not '" + v + "'");
        long from = psn(v, m.group(1));
        return new Range(from, m.group(2) == null ? from : psn(v, m.group(3)));
    }

    private static long psn(String given, String n) {
        long v = number(n);
        if (v > MAX_24) throw new UserError("--psn " + given + ": a PSN is 24 bits, 0 to 16777215 (0xffffff)");
        return v;
    }

    private static int qpn(String v) {
        if (!QPN.matcher(v).matches()) throw new UserError("--qp must be a QP number, decimal or 0x hex, not '" + v + "'");
        long n = number(v);
        if (n > MAX_24) throw new UserError("--qp " + v + ": a QP number is 24 bits, 0 to 16777215 (0xffffff)");
        return (int) n;
    }

    private static long number(String n) {
        return n.startsWith("0x") || n.startsWith("0X") ? Long.parseLong(n.substring(2), 16) : Long.parseLong(n);
    }
}
