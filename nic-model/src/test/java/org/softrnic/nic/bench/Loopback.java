package org.softrnic.nic.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.softrnic.nic.Nic;
import org.softrnic.nic.PacketSink;
import org.softrnic.wire.PacketBuffer;

/** Two devices joined back to back by a preallocated ring of packet slots: a link that allocates nothing. */
final class Loopback {
    /** Room in front of each packet, as a real receive path leaves for link headers. */
    static final int HEADROOM = 16;
    private final PacketBuffer[] slots;
    private final int[] lengths;
    private final int[] to;
    private int head;
    private int count;
    Nic a;
    Nic b;

    Loopback(int capacity) {
        Arena arena = Arena.ofAuto();
        slots = new PacketBuffer[capacity];
        lengths = new int[capacity];
        to = new int[capacity];
        for (int i = 0; i < capacity; i++) slots[i] = PacketBuffer.allocate(arena, HEADROOM + 4096 + 256);
    }

    PacketSink sinkFrom(int side) {
        return (buf, off, len) -> {
            if (count == slots.length) throw new IllegalStateException("loopback ring full");
            int i = (head + count) % slots.length;
            MemorySegment.copy(buf.segment, off, slots[i].segment, HEADROOM, len);
            lengths[i] = len;
            to[i] = 1 - side;
            count++;
        };
    }

    /** Delivers packets, including the ones delivering makes, until the link is empty; returns how many. */
    int pump() {
        int n = 0;
        while (count > 0) {
            int i = head;
            head = (head + 1) % slots.length;
            count--;
            (to[i] == 0 ? a : b).receive(slots[i], HEADROOM, lengths[i]);
            n++;
        }
        return n;
    }
}
