package org.softrnic.verbs;

/** struct ibv_mw. Type 1 windows are bound with {@link QueuePair#bindMw}, type 2 by posting IBV_WR_BIND_MW. */
public interface MemoryWindow extends AutoCloseable {
    /** The current rkey (a bind gives a new one). */
    int rkey();

    int type();

    /** ibv_dealloc_mw. */
    @Override
    void close();
}
