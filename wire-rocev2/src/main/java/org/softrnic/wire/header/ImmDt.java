package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u32;

/** Immediate Data Extended Transport Header (IBTA 9.3.5), 4 bytes, delivered unchanged in the CQE. */
public record ImmDt(int value) {
    public static final int LENGTH = 4;

    public static ImmDt read(View v) {
        return new ImmDt(v.value());
    }

    public void write(View v) {
        v.value(value);
    }

    /** Zero-copy view of an ImmDt. */
    public static final class View extends HeaderView<View> {
        public int value() { return u32(seg, off); }
        public View value(int v) { u32(seg, off, v); return this; }
    }
}
