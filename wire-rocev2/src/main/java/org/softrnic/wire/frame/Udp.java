package org.softrnic.wire.frame;

import static org.softrnic.wire.Be.u16;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.header.HeaderView;

/** UDP header (RFC 768). rxe sends checksum 0 and a source port of 0xC000 | hash(QPNs). */
public record Udp(int sport, int dport, int length, int checksum) {
    public static final int LENGTH = 8;
    /** IANA port for RoCEv2. */
    public static final int ROCE_PORT = 4791;
    static final int SPORT = 0, DPORT = 2, ULEN = 4, CHECKSUM = 6;

    public Udp {
        if ((sport & ~0xffff) != 0 || (dport & ~0xffff) != 0) throw new IllegalArgumentException("port not 16-bit");
    }

    public static Udp roce(int sport) {
        return new Udp(sport, ROCE_PORT, 0, 0);
    }

    public static Udp read(View v) {
        return new Udp(v.sport(), v.dport(), v.length(), v.checksum());
    }

    /** Writes the header with the given length; the checksum is written as this record's value. */
    public void write(MemorySegment s, long off, int newLength) {
        u16(s, off + SPORT, sport);
        u16(s, off + DPORT, dport);
        u16(s, off + ULEN, newLength);
        u16(s, off + CHECKSUM, checksum);
    }

    /** Zero-copy view of a UDP header. */
    public static final class View extends HeaderView<View> {
        public int sport() { return u16(seg, off + SPORT); }
        public int dport() { return u16(seg, off + DPORT); }
        public int length() { return u16(seg, off + ULEN); }
        public int checksum() { return u16(seg, off + CHECKSUM); }
        public View checksum(int v) { u16(seg, off + CHECKSUM, v); return this; }
    }
}
