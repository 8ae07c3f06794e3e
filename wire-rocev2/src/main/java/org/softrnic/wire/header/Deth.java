package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u24;
import static org.softrnic.wire.Be.u32;
import static org.softrnic.wire.Be.u8;

/** Datagram Extended Transport Header (IBTA 9.3.2), 8 bytes: Q_Key(4) reserved(1) SrcQP(3). */
public record Deth(int qkey, int sqpn) {
    public static final int LENGTH = 8;
    static final int QKEY = 0, RSVD = 4, SRCQP = 5;
    /** Q_Keys with the high bit set are controlled Q_Keys (IBTA 10.2.4); CM uses 0x80010000. */
    public static final int GSI_QKEY = 0x80010000;

    public Deth {
        if ((sqpn & ~0xffffff) != 0) throw new IllegalArgumentException("source QPN " + sqpn + " not 24-bit");
    }

    public static Deth read(View v) {
        return new Deth(v.qkey(), v.sqpn());
    }

    public void write(View v) {
        v.qkey(qkey).sqpn(sqpn);
    }

    /** Zero-copy view of a DETH. */
    public static final class View extends HeaderView<View> {
        public int qkey() { return u32(seg, off + QKEY); }
        public int sqpn() { return u24(seg, off + SRCQP); }

        public View qkey(int v) { u32(seg, off + QKEY, v); return this; }
        public View sqpn(int v) { u8(seg, off + RSVD, 0); u24(seg, off + SRCQP, v); return this; }
    }
}
