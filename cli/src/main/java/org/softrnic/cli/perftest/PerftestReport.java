package org.softrnic.cli.perftest;

import java.io.PrintWriter;
import org.softrnic.verbs.Mtu;

/** What the perftest tools print, format for format (ctx_print_test_info, ctx_print_pingpong_data, the report rows). */
final class PerftestReport {
    static final String RESULT_LINE = "-".repeat(87);
    private static final String BW_HEADER = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";
    private static final String LAT_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
            + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    private static final String LAT_DURATION_HEADER = " #bytes        #iterations       t_avg[usec]    tps average";

    private final PerftestOptions o;
    private final PrintWriter out;

    PerftestReport(PerftestOptions o, PrintWriter out) {
        this.o = o;
        this.out = out;
    }

    void waiting() {
        out.print("\n************************************\n* Waiting for client to connect... *\n************************************\n");
        out.flush();
    }

    /** ctx_print_test_info. */
    void info(boolean client, Mtu mtu, int outReads) {
        PerftestTest t = o.test();
        out.println(RESULT_LINE);
        out.println(" ".repeat(20) + t.verb.title + (t.verb == PerftestTest.Verb.ATOMIC ? " " + o.atomic().name() : "")
                + t.kind.titleSuffix);
        out.printf(" Dual-port       : %s\t\tDevice         : %s%n", "OFF", o.device());
        out.printf(" Number of qps   : %d\t\tTransport type : %s%n", o.qps(), "IB");
        out.printf(" Connection type : %s\t\tUsing SRQ      : %s%n", "RC", "OFF");
        // Debian's perftest is built with relaxed ordering, which write_lat alone turns off
        out.printf(" PCIe relax order: %s%n", t == PerftestTest.WRITE_LAT ? "OFF" : "ON");
        out.printf(" ibv_wr* API     : %s%n", "OFF");
        if (client) out.printf(" TX depth        : %d%n", o.txDepth());
        if (!client && t.verb == PerftestTest.Verb.SEND) out.printf(" RX depth        : %d%n", PerftestOptions.RX_DEPTH);
        if (t.kind == PerftestTest.Kind.BW) out.printf(" CQ Moderation   : %d%n", o.cqMod());
        out.printf(" Mtu             : %d[B]%n", mtu.bytes);
        out.printf(" Link type       : %s%n", "Ethernet");
        out.printf(" GID index       : %d%n", o.gidIndex());
        if (t.verb.readsOut()) out.printf(" Outstand reads  : %d%n", outReads);
        else out.printf(" Max inline data : %d[B]%n", 0);
        out.printf(" rdma_cm QPs\t : %s%n", o.rdmaCm() ? "ON" : "OFF");
        out.printf(" Data ex. method : %s%n", o.rdmaCm() ? "rdma_cm" : "Ethernet");
        if (o.rdmaCm() && !client) {
            // printed once the QPs are connected, as perftest prints it
            out.println(RESULT_LINE);
            out.println(" Waiting for client rdma_cm QP to connect");
            out.println(" Please run the same command with the IB/RoCE interface IP");
        }
        out.println(RESULT_LINE);
        out.flush();
    }

    /** ctx_print_pingpong_data: C's "%#0Nx" (the width counts "0x"; zero has no prefix) and the GID in decimal. */
    void address(String side, PerftestWire.Key k) {
        PerftestTest.Verb verb = o.test().verb;
        StringBuilder sb = new StringBuilder(String.format(" %s address: LID %s QPN %s PSN %s", side, cHex(k.lid(), 4),
                cHex(k.qpn(), 6), cHex(k.psn(), 6)));
        if (verb == PerftestTest.Verb.READ) sb.append(" OUT ").append(cHex(k.outReads(), 4));
        if (verb == PerftestTest.Verb.READ || verb == PerftestTest.Verb.WRITE) {
            sb.append(" RKey ").append(cHex(Integer.toUnsignedLong(k.rkey()), 8)).append(" VAddr ").append(cHex(k.vaddr(), 16));
        }
        sb.append("\n GID: ");
        byte[] g = k.gid().raw();
        for (int i = 0; i < 16; i++) sb.append(String.format(i == 0 ? "%02d" : ":%02d", g[i] & 0xff));
        out.println(sb);
        out.flush();
    }

    static String cHex(long v, int width) {
        if (v == 0) return "0".repeat(width);
        String digits = Long.toHexString(v);
        return "0x" + "0".repeat(Math.max(0, width - 2 - digits.length())) + digits;
    }

    void header() {
        out.println(RESULT_LINE);
        out.println(o.test().kind == PerftestTest.Kind.BW ? BW_HEADER : o.timed() ? LAT_DURATION_HEADER : LAT_HEADER);
        out.flush();
    }

    void line() {
        out.println(RESULT_LINE);
        out.flush();
    }

    /** print_full_bw_report's row. */
    void bwRow(BwRun.Result r) {
        out.printf(" %-7d    %-10d       %-7.2f            %-7.2f\t\t   %-7.6f%n", r.size(), r.iters(), r.peak(), r.avg(), r.rate());
        out.flush();
    }

    /** --verify's verdict (softrnic's own line). */
    void verified(VerifyRun.Outcome v) {
        String what = o.test().verb == PerftestTest.Verb.WRITE ? "WRITEs read back" : "READs";
        out.printf(" verified %d %s of %d bytes: %d differed%s%n", v.checked(), what, v.result().size(), v.differed(),
                v.firstDifference() == null ? "" : " (" + v.firstDifference() + ")");
        out.flush();
    }

    /** print_report_lat's row, or print_report_lat_duration's under -D. */
    void latRow(LatRun.Timing t, int size) {
        int rtt = o.test().verb.rttFactor;
        if (t.posted() == null) {
            double latency = t.seconds() * 1e6 / rtt / Math.max(1, t.sampled());
            out.printf(" %-7d       %d            %-7.2f        %-7.2f%n", size, t.sampled(), latency, t.sampled() / t.seconds());
        } else {
            LatRun.Stats s = LatRun.Stats.of(t.posted(), size, rtt);
            out.printf(" %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f%n",
                    s.size(), s.iters(), s.min(), s.max(), s.typical(), s.avg(), s.stdev(), s.p99(), s.p999());
        }
        out.flush();
    }
}
