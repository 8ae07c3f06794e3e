package org.softrnic.wire.header;

/** NAK codes in the AETH syndrome's low five bits (IBTA table 45). */
public enum NakCode {
    PSN_SEQUENCE_ERROR(0, "PSN sequence error"),
    INVALID_REQUEST(1, "invalid request"),
    REMOTE_ACCESS_ERROR(2, "remote access error"),
    REMOTE_OPERATIONAL_ERROR(3, "remote operational error"),
    INVALID_RD_REQUEST(4, "invalid RD request");

    private static final NakCode[] BY_VALUE = values();
    public final int value;
    public final String description;

    NakCode(int value, String description) {
        this.value = value;
        this.description = description;
    }

    /** The code for this value, or null for the reserved values 5-31. */
    public static NakCode of(int value) {
        return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
    }
}
