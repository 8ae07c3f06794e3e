package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u32;

/** Invalidate Extended Transport Header (IBTA 9.3.7), 4 bytes: the R_Key the responder invalidates. */
public record Ieth(int rkey) {
    public static final int LENGTH = 4;

    public static Ieth read(View v) {
        return new Ieth(v.rkey());
    }

    public void write(View v) {
        v.rkey(rkey);
    }

    /** Zero-copy view of an IETH. */
    public static final class View extends HeaderView<View> {
        public int rkey() { return u32(seg, off); }
        public View rkey(int v) { u32(seg, off, v); return this; }
    }
}
