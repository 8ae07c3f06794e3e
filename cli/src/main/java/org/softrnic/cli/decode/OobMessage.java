package org.softrnic.cli.decode;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The messages rdma-core's ibv_*_pingpong and perftest exchange over TCP before any RDMA, so that each side can move
 * its QP to RTR with the peer's QPN, PSN and GID: one table, a row a message, as the tools write them (one write
 * each; docs/interop.md, docs/perftest-4.5-exchange.md). The two address messages are text of a fixed shape and are
 * known on any port; the short binary ones only on the tools' port.
 */
enum OobMessage {
    /** rdma-core pingpong.c: sprintf("%04x:%06x:%06x:%s") of LID, QPN, PSN and the GID as 32 hex digits, with its NUL. */
    PINGPONG_DEST("ibv_*_pingpong", 52, true, OobMessage::pingpongDest),
    /** perftest's KEY_PRINT_FMT_GID: LID:OUT_READS:QPN:PSN:RKEY:VADDR:16 GID bytes:SRQN:, with its NUL. */
    PERFTEST_KEY("perftest", 108, true, OobMessage::perftestKey),
    /** exchange_versions(): the version string, NUL-padded to 16 bytes. */
    PERFTEST_VERSION("perftest", 16, false, OobMessage::perftestVersion),
    /** check_mtu(): the active MTU as its ibv_mtu number in text ("3\0"). */
    PERFTEST_MTU("perftest", 2, false, OobMessage::perftestMtu),
    /** check_sys_data(): the page size or the cache line size, big-endian. */
    PERFTEST_SYS_DATA("perftest", 4, false, OobMessage::perftestSysData),
    /** xchg_bw_reports(): size, iterations, BW peak, BW average or message rate, each big-endian. */
    PERFTEST_REPORT("perftest", 8, false, OobMessage::perftestReport),
    /** "done\0": the close of both tools' exchange, written by both sides and read by neither (perftest). */
    DONE("ibv_*_pingpong, perftest", 5, false, b -> new String(b, StandardCharsets.US_ASCII).equals("done\0") ? List.of() : null);

    /** The tools' default TCP port (pingpong's and perftest's -p). */
    static final int TOOL_PORT = 18515;
    /** How the decode names a segment of the exchange. */
    static final String EXCHANGE = "the tools' out-of-band exchange (LID:QPN:PSN:GID)";

    private static final Pattern PINGPONG = Pattern.compile("([0-9a-fA-F]{4}):([0-9a-fA-F]{6}):([0-9a-fA-F]{6}):([0-9a-fA-F]{32})\0");
    private static final Pattern KEY = Pattern.compile("([0-9a-f]{4}):([0-9a-f]{4}):([0-9a-f]{6}):([0-9a-f]{6}):([0-9a-f]{8}):"
            + "([0-9a-f]{16}):((?:[0-9a-f]{2}:){16})([0-9a-f]{8}):\0");
    private static final Pattern VERSION = Pattern.compile("([0-9]{1,3}\\.[0-9]{1,3})\0+");

    final String tool;
    final int bytes;
    /** Whether the message's shape alone names it, on any port. */
    final boolean byShape;
    private final Function<byte[], List<Field>> fields;

    OobMessage(String tool, int bytes, boolean byShape, Function<byte[], List<Field>> fields) {
        this.tool = tool;
        this.bytes = bytes;
        this.byShape = byShape;
        this.fields = fields;
    }

    /** What a segment's payload holds: {@code count} messages of one kind, the first one's fields. */
    record Found(OobMessage message, int count, List<Field> fields) {}

    /**
     * The message(s) in one TCP segment's payload, or null. A segment holds whole messages (the tools write each in
     * one call) and may hold several of one kind (ibv_srq_pingpong writes an address per QP).
     */
    static Found find(byte[] payload, boolean onToolPort) {
        for (OobMessage m : values()) {
            if (!(m.byShape || onToolPort) || payload.length == 0 || payload.length % m.bytes != 0) continue;
            int count = payload.length / m.bytes;
            if (count > 1 && !m.byShape) continue; // several short binary values in one segment: nothing tells which
            List<Field> first = null;
            for (int i = 0; i < count; i++) {
                List<Field> f = m.fields.apply(java.util.Arrays.copyOfRange(payload, i * m.bytes, (i + 1) * m.bytes));
                if (f == null) {
                    first = null;
                    break;
                }
                if (first == null) first = f;
            }
            if (first != null) return new Found(m, count, first);
        }
        return null;
    }

    /** The name the JSON and the text give the message. */
    String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    private static List<Field> pingpongDest(byte[] b) {
        Matcher m = PINGPONG.matcher(new String(b, StandardCharsets.ISO_8859_1));
        if (!m.matches()) return null;
        return List.of(lid(m.group(1)), qpn(m.group(2)), psn(m.group(3)), gid(HexFormat.of().parseHex(m.group(4))));
    }

    private static List<Field> perftestKey(byte[] b) {
        Matcher m = KEY.matcher(new String(b, StandardCharsets.ISO_8859_1));
        if (!m.matches()) return null;
        List<Field> f = new ArrayList<>();
        f.add(lid(m.group(1)));
        int outReads = Integer.parseInt(m.group(2), 16);
        f.add(new Field("out_reads", outReads, Integer.toString(outReads),
                "RDMA READs and atomics the sender takes at once from the peer (its max_dest_rd_atomic)"));
        f.add(qpn(m.group(3)));
        f.add(psn(m.group(4)));
        long rkey = Long.parseLong(m.group(5), 16);
        f.add(new Field("rkey", rkey, "0x" + m.group(5), "the rkey of the sender's buffer, which the peer's RDMA WRITE or READ names"));
        f.add(new Field("vaddr", Unsigned.u64(Long.parseUnsignedLong(m.group(6), 16)), "0x" + m.group(6),
                "the address in the sender's buffer the peer's RDMA WRITE or READ targets"));
        f.add(gid(HexFormat.of().parseHex(m.group(7).replace(":", ""))));
        long srqn = Long.parseLong(m.group(8), 16);
        f.add(new Field("srqn", srqn, "0x" + m.group(8), "SRQ number, for XRC only (0 otherwise)"));
        return f;
    }

    private static List<Field> perftestVersion(byte[] b) {
        Matcher m = VERSION.matcher(new String(b, StandardCharsets.ISO_8859_1));
        if (!m.matches()) return null;
        return List.of(new Field("version", m.group(1), m.group(1), "perftest's version (VERSION in its configure.ac); a peer below 5.70 gives up"));
    }

    private static List<Field> perftestMtu(byte[] b) {
        if (b[0] < '1' || b[0] > '5' || b[1] != 0) return null;
        int code = b[0] - '0';
        return List.of(new Field("mtu", code, code + " (" + (128 << code) + " bytes)",
                "the sender's active MTU as an ibv_mtu number (1 256 ... 5 4096 bytes); both use the smaller"));
    }

    private static List<Field> perftestSysData(byte[] b) {
        long v = Integer.toUnsignedLong(ByteBuffer.wrap(b).getInt());
        return List.of(new Field("sys_data", v, Long.toString(v),
                "the sender's page size (4096) or cache line size (64), big-endian; both use the larger"));
    }

    private static List<Field> perftestReport(byte[] b) {
        String hex = "0x" + HexFormat.of().formatHex(b);
        return List.of(new Field("report", hex, hex, "one of a bandwidth test's results, big-endian: size or iterations"
                + " (u64), BW peak, BW average or message rate (double)"));
    }

    private static Field lid(String hex) {
        int v = Integer.parseInt(hex, 16);
        return new Field("lid", v, "0x" + hex, "the sender's LID: 0 on RoCE, which addresses ports by GID");
    }

    private static Field qpn(String hex) {
        int v = Integer.parseInt(hex, 16);
        return new Field("qpn", v, "0x" + hex, "the sender's QP: the peer's packets go to it (their BTH destination QP)");
    }

    private static Field psn(String hex) {
        int v = Integer.parseInt(hex, 16);
        return new Field("psn", v, "0x" + hex + " (" + v + ")",
                "the PSN of the sender's first packet (its sq_psn): the peer's QP expects it (rq_psn)");
    }

    private static Field gid(byte[] raw) {
        String text = OtherTraffic.address(raw);
        return new Field("gid", text, text, "the sender's GID, an IPv6 or IPv4-mapped address: the peer's packets go there");
    }
}
