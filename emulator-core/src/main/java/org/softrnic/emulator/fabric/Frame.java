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

    /** Earlier due first; among equals, the order they were sent in. */
    boolean before(Frame o) {
        return due != o.due ? due < o.due : order < o.order;
    }
}
