package org.softrnic.wire;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * One packet's memory, seen both as a MemorySegment (for the header views) and as a ByteBuffer (for the
 * CRC32 intrinsic), both made once, so that parsing and ICRC checks allocate nothing per packet.
 */
public final class PacketBuffer {
    /**
     * Bytes kept free in front of a packet in every buffer softrnic sends from or receives into: room for the
     * ICRC's pseudo-header to be built in place, in one pass, and for a link to add an Ethernet header. One
     * value for the engine, the simulated fabric and every link.
     */
    public static final int HEADROOM = 16;

    public final MemorySegment segment;
    public final ByteBuffer buffer;
    private int length;

    private PacketBuffer(MemorySegment segment, ByteBuffer buffer) {
        this.segment = segment;
        this.buffer = buffer;
        this.length = (int) segment.byteSize();
    }

    /** Wraps a byte array; the buffer's length is the whole array until {@link #length(int)} says otherwise. */
    public static PacketBuffer wrap(byte[] bytes) {
        ByteBuffer bb = ByteBuffer.wrap(bytes);
        return new PacketBuffer(MemorySegment.ofArray(bytes), bb);
    }

    /** Off-heap buffer of the given capacity, owned by the arena. */
    public static PacketBuffer allocate(Arena arena, int capacity) {
        MemorySegment seg = arena.allocate(capacity, 8);
        return new PacketBuffer(seg, seg.asByteBuffer());
    }

    public int capacity() {
        return (int) segment.byteSize();
    }

    /** Number of valid bytes, starting at offset 0. */
    public int length() {
        return length;
    }

    public PacketBuffer length(int newLength) {
        if (newLength < 0 || newLength > capacity()) {
            throw new IllegalArgumentException("length " + newLength + " outside capacity " + capacity());
        }
        this.length = newLength;
        return this;
    }

    public byte[] toArray() {
        byte[] out = new byte[length];
        MemorySegment.copy(segment, 0, MemorySegment.ofArray(out), 0, length);
        return out;
    }
}
