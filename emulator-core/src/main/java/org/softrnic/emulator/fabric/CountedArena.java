package org.softrnic.emulator.fabric;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A shared arena that counts what it holds, so that tests can prove a closed device or fabric gave all of
 * its native memory back ({@link #live()}). Segments from {@link Arena} are not counted by the JDK's
 * direct-buffer pool, so this is where softrnic's own native memory is accounted for.
 */
public final class CountedArena implements Arena {
    private static final AtomicLong LIVE = new AtomicLong();
    private final Arena arena = Arena.ofShared();
    private final AtomicLong held = new AtomicLong();

    /** Native bytes held by every open CountedArena in this JVM. */
    public static long live() {
        return LIVE.get();
    }

    @Override
    public MemorySegment allocate(long byteSize, long byteAlignment) {
        MemorySegment s = arena.allocate(byteSize, byteAlignment);
        held.addAndGet(byteSize);
        LIVE.addAndGet(byteSize);
        return s;
    }

    @Override
    public MemorySegment.Scope scope() {
        return arena.scope();
    }

    @Override
    public void close() {
        arena.close();
        LIVE.addAndGet(-held.getAndSet(0));
    }
}
