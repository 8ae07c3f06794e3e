package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u32;
import static org.softrnic.wire.Be.u64;

/** Atomic Extended Transport Header (IBTA 9.3.4), 28 bytes: VA(8) R_Key(4) Swap/Add(8) Compare(8). */
public record AtomicEth(long va, int rkey, long swapAdd, long compare) {
    public static final int LENGTH = 28;
    static final int VA = 0, RKEY = 8, SWAP_ADD = 12, COMPARE = 20;

    public static AtomicEth read(View v) {
        return new AtomicEth(v.va(), v.rkey(), v.swapAdd(), v.compare());
    }

    public void write(View v) {
        v.va(va).rkey(rkey).swapAdd(swapAdd).compare(compare);
    }

    /** Zero-copy view of an AtomicETH. */
    public static final class View extends HeaderView<View> {
        public long va() { return u64(seg, off + VA); }
        public int rkey() { return u32(seg, off + RKEY); }
        public long swapAdd() { return u64(seg, off + SWAP_ADD); }
        public long compare() { return u64(seg, off + COMPARE); }

        public View va(long v) { u64(seg, off + VA, v); return this; }
        public View rkey(int v) { u32(seg, off + RKEY, v); return this; }
        public View swapAdd(long v) { u64(seg, off + SWAP_ADD, v); return this; }
        public View compare(long v) { u64(seg, off + COMPARE, v); return this; }
    }
}
