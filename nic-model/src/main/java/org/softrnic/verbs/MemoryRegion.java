package org.softrnic.verbs;

import java.lang.foreign.MemorySegment;

/** struct ibv_mr: its keys and the memory it covers. Closing it while windows are bound to it is EBUSY. */
public interface MemoryRegion extends AutoCloseable {
    int lkey();

    /** 0 unless remote access was granted. */
    int rkey();

    /** The address SGEs and remote peers name for the region's first byte. */
    long addr();

    long length();

    MemorySegment segment();

    /** ibv_dereg_mr. */
    @Override
    void close();
}
