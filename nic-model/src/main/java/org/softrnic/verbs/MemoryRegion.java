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

    /**
     * An implicit ODP region: shows it the memory of native {@code memory}, which its keys then reach. A kernel's
     * region sees the process's whole address space, so a real device needs no telling and ignores this; a Java device
     * cannot see page tables and is shown the memory instead. Freeing the memory (closing its arena) unmaps it: an
     * access after that completes in error.
     */
    default void cover(MemorySegment memory) {
    }

    /** ibv_dereg_mr. */
    @Override
    void close();
}
