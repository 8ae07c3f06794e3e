package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u64;

/** Atomic Acknowledge Extended Transport Header (IBTA 9.3.6), 8 bytes: the original remote data. */
public record AtomicAckEth(long orig) {
    public static final int LENGTH = 8;

    public static AtomicAckEth read(View v) {
        return new AtomicAckEth(v.orig());
    }

    public void write(View v) {
        v.orig(orig);
    }

    /** Zero-copy view of an AtomicAckETH. */
    public static final class View extends HeaderView<View> {
        public long orig() { return u64(seg, off); }
        public View orig(long v) { u64(seg, off, v); return this; }
    }
}
