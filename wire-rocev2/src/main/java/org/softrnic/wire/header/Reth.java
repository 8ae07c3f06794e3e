package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u32;
import static org.softrnic.wire.Be.u64;

/** RDMA Extended Transport Header (IBTA 9.3.3), 16 bytes: VA(8) R_Key(4) DMA length(4). */
public record Reth(long va, int rkey, int dlen) {
    public static final int LENGTH = 16;
    static final int VA = 0, RKEY = 8, DLEN = 12;

    public static Reth read(View v) {
        return new Reth(v.va(), v.rkey(), v.dlen());
    }

    public void write(View v) {
        v.va(va).rkey(rkey).dlen(dlen);
    }

    /** Zero-copy view of a RETH. */
    public static final class View extends HeaderView<View> {
        public long va() { return u64(seg, off + VA); }
        public int rkey() { return u32(seg, off + RKEY); }
        /** DMA length, unsigned 32-bit; read as {@code Integer.toUnsignedLong}. */
        public int dlen() { return u32(seg, off + DLEN); }

        public View va(long v) { u64(seg, off + VA, v); return this; }
        public View rkey(int v) { u32(seg, off + RKEY, v); return this; }
        public View dlen(int v) { u32(seg, off + DLEN, v); return this; }
    }
}
