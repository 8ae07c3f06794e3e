package org.softrnic.wire;

/** The BTH opcode's upper three bits name the transport service (IBTA 9.2, table 38). */
public enum Transport {
    RC(0x00), UC(0x20), RD(0x40), UD(0x60), CNP(0x80);

    /** Base value of this transport's opcode range. */
    public final int base;

    Transport(int base) {
        this.base = base;
    }
}
