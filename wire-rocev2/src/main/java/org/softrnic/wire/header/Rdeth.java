package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u24;
import static org.softrnic.wire.Be.u8;

/** Reliable Datagram Extended Transport Header (IBTA 9.3.1), 4 bytes: reserved(1) EE-Context(3). */
public record Rdeth(int eecnxt) {
    public static final int LENGTH = 4;

    public Rdeth {
        if ((eecnxt & ~0xffffff) != 0) throw new IllegalArgumentException("EE context " + eecnxt + " not 24-bit");
    }

    public static Rdeth read(View v) {
        return new Rdeth(v.eecnxt());
    }

    public void write(View v) {
        v.eecnxt(eecnxt);
    }

    /** Zero-copy view of an RDETH. */
    public static final class View extends HeaderView<View> {
        public int eecnxt() { return u24(seg, off + 1); }
        public View eecnxt(int v) { u8(seg, off, 0); u24(seg, off + 1, v); return this; }
    }
}
