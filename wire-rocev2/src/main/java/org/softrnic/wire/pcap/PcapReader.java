package org.softrnic.wire.pcap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads classic pcap (either byte order, micro- or nanosecond stamps) and pcapng (SHB, IDB, EPB, SPB and
 * the obsolete PB; other blocks are skipped). Every length is checked before it is used.
 */
public final class PcapReader {
    private static final int PCAP_MAGIC_US = 0xa1b2c3d4;
    private static final int PCAP_MAGIC_NS = 0xa1b23c4d;
    private static final int PCAPNG_SHB = 0x0a0d0d0a;
    private static final int PCAPNG_BYTE_ORDER_MAGIC = 0x1a2b3c4d;
    private static final int BLOCK_IDB = 1, BLOCK_PB = 2, BLOCK_SPB = 3, BLOCK_EPB = 6;
    private static final int OPT_IF_TSRESOL = 9;

    private PcapReader() {}

    /**
     * A capture's complete records, and, when its last record is cut short (a capture ended mid-write),
     * what was cut; Wireshark too shows the complete records of such a file.
     */
    public record Capture(List<CapturedFrame> frames, String cutShort) {}

    /** Every record; a capture whose last record is cut short is an error. */
    public static List<CapturedFrame> read(Path file) throws IOException {
        return read(Files.readAllBytes(file), file.toString());
    }

    public static List<CapturedFrame> read(byte[] bytes, String name) throws PcapFormatException {
        Capture c = readCapture(bytes, name);
        if (c.cutShort() != null) throw new PcapFormatException(name + ": " + c.cutShort());
        return c.frames();
    }

    /** Every complete record, and what was cut short at the end, if anything. */
    public static Capture readCapture(Path file) throws IOException {
        return readCapture(Files.readAllBytes(file), file.toString());
    }

    public static Capture readCapture(byte[] bytes, String name) throws PcapFormatException {
        if (bytes.length < 4) throw new PcapFormatException(name + ": too short to be a capture file");
        ByteBuffer bb = ByteBuffer.wrap(bytes);
        int magicBe = bb.order(ByteOrder.BIG_ENDIAN).getInt(0);
        int magicLe = bb.order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        if (magicBe == PCAPNG_SHB) return readPcapng(bb, name);
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            int magic = order == ByteOrder.LITTLE_ENDIAN ? magicLe : magicBe;
            if (magic == PCAP_MAGIC_US || magic == PCAP_MAGIC_NS) {
                return readClassic(bb.order(order), magic == PCAP_MAGIC_NS, name);
            }
        }
        throw new PcapFormatException(name + ": not a pcap or pcapng file (magic 0x%08x)".formatted(magicBe));
    }

    private static Capture readClassic(ByteBuffer bb, boolean nanos, String name) throws PcapFormatException {
        if (bb.capacity() < 24) throw new PcapFormatException(name + ": pcap header cut short");
        int linkType = bb.getInt(20) & 0x0fffffff; // upper bits may carry FCS flags
        List<CapturedFrame> frames = new ArrayList<>();
        int p = 24;
        while (p < bb.capacity()) {
            if (p + 16 > bb.capacity()) return new Capture(frames, "record " + (frames.size() + 1) + " cut short in its header");
            long sec = Integer.toUnsignedLong(bb.getInt(p));
            long frac = Integer.toUnsignedLong(bb.getInt(p + 4));
            int caplen = bb.getInt(p + 8);
            int origlen = bb.getInt(p + 12);
            if (caplen < 0) throw new PcapFormatException(name + ": record " + (frames.size() + 1) + " has a negative length");
            if (p + 16 + (long) caplen > bb.capacity()) return new Capture(frames, "record " + (frames.size() + 1) + " cut short");
            byte[] data = new byte[caplen];
            bb.get(p + 16, data);
            frames.add(new CapturedFrame(frames.size() + 1, sec * 1_000_000_000L + (nanos ? frac : frac * 1000),
                    linkType, data, origlen));
            p += 16 + caplen;
        }
        return new Capture(frames, null);
    }

    private record Interface(int linkType, int snapLen, long unitsPerSecond) {}

    private static Capture readPcapng(ByteBuffer bb, String name) throws PcapFormatException {
        List<CapturedFrame> frames = new ArrayList<>();
        List<Interface> interfaces = new ArrayList<>();
        int p = 0;
        while (p < bb.capacity()) {
            if (p + 12 > bb.capacity()) return new Capture(frames, "pcapng block at byte " + p + " cut short");
            if (bb.getInt(p) == PCAPNG_SHB) { // a palindrome: the same in either byte order
                int bom = bb.order(ByteOrder.BIG_ENDIAN).getInt(p + 8);
                if (bom == PCAPNG_BYTE_ORDER_MAGIC) bb.order(ByteOrder.BIG_ENDIAN);
                else if (Integer.reverseBytes(bom) == PCAPNG_BYTE_ORDER_MAGIC) bb.order(ByteOrder.LITTLE_ENDIAN);
                else throw new PcapFormatException(name + ": bad pcapng byte-order magic");
                interfaces.clear();
            }
            int type = bb.getInt(p);
            int total = bb.getInt(p + 4);
            if (total < 12 || (total & 3) != 0) {
                throw new PcapFormatException(name + ": pcapng block at byte " + p + " has bad length " + total);
            }
            if (p + (long) total > bb.capacity()) return new Capture(frames, "pcapng block at byte " + p + " cut short");
            int body = p + 8;
            int bodyEnd = p + total - 4;
            switch (type) {
                case BLOCK_IDB -> interfaces.add(readIdb(bb, body, bodyEnd, name));
                case BLOCK_EPB, BLOCK_PB -> {
                    boolean epb = type == BLOCK_EPB;
                    need(body + 20, bodyEnd, name);
                    int ifId = epb ? bb.getInt(body) : bb.getShort(body) & 0xffff;
                    Interface itf = iface(interfaces, ifId, name);
                    long ts = (Integer.toUnsignedLong(bb.getInt(body + 4)) << 32) | Integer.toUnsignedLong(bb.getInt(body + 8));
                    int caplen = bb.getInt(body + 12);
                    int origlen = bb.getInt(body + 16);
                    if (caplen < 0) throw new PcapFormatException(name + ": negative captured length");
                    need(body + 20 + (long) caplen, bodyEnd, name);
                    frames.add(frame(frames.size() + 1, itf, ts, bb, body + 20, caplen, origlen));
                }
                case BLOCK_SPB -> {
                    need(body + 4, bodyEnd, name);
                    Interface itf = iface(interfaces, 0, name);
                    int origlen = bb.getInt(body);
                    int caplen = Math.min(origlen, bodyEnd - body - 4);
                    if (itf.snapLen() > 0) caplen = Math.min(caplen, itf.snapLen());
                    if (caplen < 0) throw new PcapFormatException(name + ": bad simple packet block");
                    frames.add(frame(frames.size() + 1, itf, -1, bb, body + 4, caplen, origlen));
                }
                default -> { } // section header, statistics, name resolution, custom: nothing to decode
            }
            p += total;
        }
        return new Capture(frames, null);
    }

    private static CapturedFrame frame(int number, Interface itf, long ts, ByteBuffer bb, int off, int len, int orig) {
        byte[] data = new byte[len];
        bb.get(off, data);
        long nanos = ts < 0 ? 0 : scaleToNanos(ts, itf.unitsPerSecond());
        return new CapturedFrame(number, nanos, itf.linkType(), data, orig);
    }

    private static long scaleToNanos(long ts, long unitsPerSecond) {
        if (unitsPerSecond == 1_000_000_000L) return ts;
        long sec = Long.divideUnsigned(ts, unitsPerSecond);
        long rem = Long.remainderUnsigned(ts, unitsPerSecond);
        return sec * 1_000_000_000L + rem * 1_000_000_000L / unitsPerSecond;
    }

    private static Interface readIdb(ByteBuffer bb, int body, int bodyEnd, String name) throws PcapFormatException {
        need(body + 8, bodyEnd, name);
        int linkType = bb.getShort(body) & 0xffff;
        int snapLen = bb.getInt(body + 4);
        long units = 1_000_000L;
        int o = body + 8;
        while (o + 4 <= bodyEnd) {
            int code = bb.getShort(o) & 0xffff;
            int len = bb.getShort(o + 2) & 0xffff;
            if (code == 0) break;
            need(o + 4 + (long) len, bodyEnd, name);
            if (code == OPT_IF_TSRESOL && len >= 1) {
                int r = bb.get(o + 4) & 0xff;
                int exp = r & 0x7f;
                if (exp > 62) throw new PcapFormatException(name + ": unsupported timestamp resolution");
                units = (r & 0x80) != 0 ? 1L << exp : pow10(exp);
            }
            o += 4 + ((len + 3) & ~3);
        }
        return new Interface(linkType, snapLen, units);
    }

    private static long pow10(int exp) throws PcapFormatException {
        if (exp > 18) throw new PcapFormatException("unsupported timestamp resolution 10^-" + exp);
        long v = 1;
        for (int i = 0; i < exp; i++) v *= 10;
        return v;
    }

    private static Interface iface(List<Interface> interfaces, int id, String name) throws PcapFormatException {
        if (id < 0 || id >= interfaces.size()) {
            throw new PcapFormatException(name + ": packet names interface " + id + " that no IDB described");
        }
        return interfaces.get(id);
    }

    private static void need(long end, int bodyEnd, String name) throws PcapFormatException {
        if (end > bodyEnd) throw new PcapFormatException(name + ": pcapng block body cut short");
    }
}
