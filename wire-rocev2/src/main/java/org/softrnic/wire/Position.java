package org.softrnic.wire;

/** Where a packet sits in its message; rxe's RXE_START_MASK / RXE_MIDDLE_MASK / RXE_END_MASK. */
public enum Position {
    FIRST, MIDDLE, LAST, ONLY;

    public boolean starts() {
        return this == FIRST || this == ONLY;
    }

    public boolean ends() {
        return this == LAST || this == ONLY;
    }
}
