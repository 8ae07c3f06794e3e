package org.softrnic.emulator.fabric;

import org.softrnic.wire.PacketBuffer;

/** A packet in flight on the in-process fabric: its buffer, and when it is due at the receiver. */
final class Frame {
    final InprocPort owner;
    PacketBuffer buffer;
    int offset;
    int length;
    long due;
    long order;

    Frame(InprocPort owner, PacketBuffer buffer) {
        this.owner = owner;
        this.buffer = buffer;
    }

    /**
     * Carries a device's packet: a copy in this frame's buffer, or the device's buffer itself, this frame's going
     * back to the device; returns the buffer the device builds its next packet in.
     */
    PacketBuffer carry(PacketBuffer packet, int offset, int length, boolean copy) {
        this.offset = offset;
        this.length = length;
        if (copy) {
            java.lang.foreign.MemorySegment.copy(packet.segment, offset, buffer.segment, offset, length);
            return packet;
        }
        PacketBuffer back = buffer;
        buffer = packet;
        return back;
    }

    /** Carries a copy of {@code f}'s packet (a duplicate). */
    void copyOf(Frame f) {
        java.lang.foreign.MemorySegment.copy(f.buffer.segment, f.offset, buffer.segment, f.offset, f.length);
        offset = f.offset;
        length = f.length;
    }

    /** Earlier due first; among equals, the order they were sent in. */
    boolean before(Frame o) {
        return due != o.due ? due < o.due : order < o.order;
    }
}
