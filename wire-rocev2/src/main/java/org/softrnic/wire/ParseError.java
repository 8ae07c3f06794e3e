package org.softrnic.wire;

/** The closed set of reasons a frame is refused. Every malformed input maps to exactly one of these. */
public enum ParseError {
    /** The bytes end before a header that must be there (Ethernet, VLAN, IP, UDP, or BTH + ICRC). */
    TRUNCATED("frame ends before a required header"),
    /** IP version nibble is neither 4 nor 6, or does not match the EtherType. */
    BAD_IP_VERSION("IP version is not 4 or 6"),
    /** IPv4 IHL below 5 or past the packet. */
    BAD_IP_HEADER_LENGTH("IPv4 header length is invalid"),
    /** IPv4 header checksum does not verify. */
    BAD_IP_CHECKSUM("IPv4 header checksum mismatch"),
    /** A fragment: RoCEv2 packets are never fragmented (DF is set). */
    IP_FRAGMENT("IPv4 fragment"),
    /** IP total/payload length disagrees with the bytes present. */
    BAD_IP_LENGTH("IP length disagrees with the frame"),
    /** UDP length disagrees with the IP payload. */
    BAD_UDP_LENGTH("UDP length disagrees with the IP payload"),
    /** A non-zero UDP checksum that does not verify. */
    BAD_UDP_CHECKSUM("UDP checksum mismatch"),
    /** BTH opcode in a range IBTA reserves. */
    RESERVED_OPCODE("reserved BTH opcode"),
    /** BTH opcode in the manufacturer-specific range 0xC0-0xFF. */
    UNKNOWN_OPCODE("manufacturer-specific BTH opcode"),
    /** BTH TVer is not 0. */
    BAD_TVER("BTH transport header version is not 0"),
    /** The packet is shorter than BTH + the opcode's extended headers + ICRC. */
    MISSING_HEADERS("packet too short for the headers its opcode requires"),
    /** Pad count on an opcode without payload, or larger than the payload area. */
    BAD_PAD("BTH pad count does not fit the payload"),
    /** Payload present where the opcode has none, or of a length the opcode forbids. */
    LENGTH_MISMATCH("payload length not allowed for this opcode"),
    /**
     * A capture kept only the first part of the frame (a short snaplen): the headers were read, the payload and
     * the ICRC were not captured, so the ICRC cannot be checked.
     */
    CAPTURE_CUT("captured only in part (snaplen): ICRC not checked"),
    /** The ICRC over the packet does not equal the ICRC it carries. */
    ICRC_MISMATCH("ICRC mismatch");

    public final String message;

    ParseError(String message) {
        this.message = message;
    }
}
