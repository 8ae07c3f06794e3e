package org.softrnic.wire.frame;

import org.softrnic.wire.ParseError;
import org.softrnic.wire.packet.RocePacket;

/**
 * What decoding one frame found, layer by layer. Layers that could be read are filled even when a later
 * check failed, so that a mismatching ICRC still shows the packet it was computed over.
 *
 * @param roce         true when the frame is UDP to the RoCEv2 port
 * @param packet       the RoCEv2 packet, or null when it could not be parsed
 * @param error        null when everything verified, else the first failed check
 * @param icrcExpected the ICRC computed over the frame (meaningful when {@code packet} is non-null)
 * @param icrcFound    the ICRC the frame carries (meaningful when {@code packet} is non-null)
 * @param trailer      bytes after the IP packet, such as Ethernet padding
 */
public record DecodedFrame(Ethernet ethernet, IpHeader ip, Udp udp, boolean roce, RocePacket packet,
                           ParseError error, int icrcExpected, int icrcFound, byte[] trailer) {
    public boolean icrcOk() {
        return packet != null && error == null;
    }

    /** The whole frame as a record, when it decoded and verified. */
    public RoceFrame toRoceFrame() {
        if (!icrcOk()) throw new IllegalStateException("frame did not verify: " + error);
        return new RoceFrame(ethernet, ip, udp, packet, trailer);
    }

    /**
     * An ICRC as its four bytes in wire order, the way Wireshark shows it ("34d0d1a2"). The CRC-32 value
     * itself is the byte-reversed number, because rxe stores it little-endian.
     */
    public static String icrcHex(int crc32) {
        return String.format("%08x", Integer.reverseBytes(crc32));
    }

    /** A human-readable reason for {@link #error()}, with both values for an ICRC mismatch. */
    public String errorMessage() {
        if (error == null) return null;
        if (error == ParseError.ICRC_MISMATCH) {
            return "ICRC mismatch: expected " + icrcHex(icrcExpected) + ", found " + icrcHex(icrcFound);
        }
        return error.message;
    }
}
