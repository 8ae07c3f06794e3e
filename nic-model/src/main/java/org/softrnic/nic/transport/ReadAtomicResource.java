package org.softrnic.nic.transport;

import org.softrnic.nic.mem.MemoryRegion;

/**
 * A responder's record of a READ or atomic it executed (rxe's resp_res), so that a duplicate is answered
 * again without executing it twice: a READ is re-read from memory, an atomic replays the saved value.
 */
final class ReadAtomicResource {
    /** REPLAY_ACK: a FLUSH or ATOMIC_WRITE, answered again by its zero-length READ response. */
    enum Kind { FREE, READ, ATOMIC, REPLAY_ACK }

    Kind kind = Kind.FREE;
    int firstPsn;
    int lastPsn;
    // READ
    MemoryRegion mr;
    long va;
    long length;
    // atomic
    long original;
    int msn;
}
