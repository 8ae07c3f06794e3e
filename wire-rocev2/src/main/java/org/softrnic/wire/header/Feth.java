package org.softrnic.wire.header;

import static org.softrnic.wire.Be.u32;

/**
 * FLUSH Extended Transport Header (IBTA 1.5 Annex A19), 4 bytes. Bits 3-0 hold the placement type
 * (1 global visibility, 2 persistence) and bits 5-4 the selectivity level (0 memory region, 1 whole
 * memory); the rest is reserved (rxe_hdr.h FETH_PLT_MASK, FETH_SEL_MASK).
 */
public record Feth(int placementType, int selectivityLevel) {
    public static final int LENGTH = 4;
    static final int PLT_MASK = 0xf, SEL_SHIFT = 4, SEL_MASK = 0x3;

    public Feth {
        if ((placementType & ~PLT_MASK) != 0) throw new IllegalArgumentException("placement type not 4-bit");
        if ((selectivityLevel & ~SEL_MASK) != 0) throw new IllegalArgumentException("selectivity level not 2-bit");
    }

    public static Feth read(View v) {
        return new Feth(v.placementType(), v.selectivityLevel());
    }

    public void write(View v) {
        v.set(placementType, selectivityLevel);
    }

    /** Zero-copy view of a FETH. */
    public static final class View extends HeaderView<View> {
        public int placementType() { return u32(seg, off) & PLT_MASK; }
        public int selectivityLevel() { return (u32(seg, off) >>> SEL_SHIFT) & SEL_MASK; }
        public View set(int plt, int sel) { u32(seg, off, (plt & PLT_MASK) | (sel & SEL_MASK) << SEL_SHIFT); return this; }
    }
}
