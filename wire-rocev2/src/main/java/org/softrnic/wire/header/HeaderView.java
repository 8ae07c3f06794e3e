package org.softrnic.wire.header;

import java.lang.foreign.MemorySegment;

/**
 * Base of the zero-copy header views (flyweights, as in Aeron): a view is re-pointed at a header with
 * {@link #wrap} and reads or writes fields in place. The caller has checked that the header fits.
 */
public abstract class HeaderView<T extends HeaderView<T>> {
    protected MemorySegment seg;
    protected long off;

    @SuppressWarnings("unchecked")
    public final T wrap(MemorySegment segment, long offset) {
        this.seg = segment;
        this.off = offset;
        return (T) this;
    }

    public final long offset() {
        return off;
    }
}
