package org.softrnic.nic.transport;

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
    /** The RETH's rkey: a duplicate must name the same one, and is checked again against the key table. */
    int rkey;
    long va;
    long length;
    // atomic
    long original;
    int msn;
}
