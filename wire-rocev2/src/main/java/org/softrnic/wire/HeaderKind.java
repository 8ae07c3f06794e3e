package org.softrnic.wire;

/**
 * The extended transport headers that may follow the BTH, with their wire lengths (IBTA 9.3, rxe_hdr.h).
 * The order an opcode lists them in is the order they appear on the wire.
 */
public enum HeaderKind {
    RDETH(4),
    DETH(8),
    /** FLUSH extended header (IBTA 1.5 A19): placement type and selectivity level. Precedes the RETH. */
    FETH(4),
    RETH(16),
    ATOMIC_ETH(28),
    AETH(4),
    ATOMIC_ACK_ETH(8),
    IMMDT(4),
    IETH(4),
    /** The 16 reserved bytes after the BTH of a RoCEv2 CNP (Annex A17.9.3). */
    CNP_PAD(16);

    public final int length;

    HeaderKind(int length) {
        this.length = length;
    }
}
