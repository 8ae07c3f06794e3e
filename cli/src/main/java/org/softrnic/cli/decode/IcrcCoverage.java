package org.softrnic.cli.decode;

import java.util.ArrayList;
import java.util.List;
import org.softrnic.wire.frame.DecodedFrame;

/**
 * Which bytes of a RoCEv2 packet the ICRC covers, drawn over the packet itself: rows of 16 bytes from the IP
 * header on, each masked byte (set to ones before the CRC, because routers and switches may change it) in
 * brackets, the ICRC's own 4 bytes in angle brackets. The masks are rxe's (rxe_icrc.c): IPv4 TOS, TTL and
 * header checksum; IPv6 traffic class, flow label and hop limit; the UDP checksum; BTH byte 4.
 */
final class IcrcCoverage {
    private IcrcCoverage() {
    }

    static List<String> rows(byte[] ip, DecodedFrame d) {
        boolean v4 = d.ip().version() == 4;
        int ipLength = v4 ? 20 : 40;
        int udp = ipLength;
        int bth = udp + 8;
        int end = ipLength + d.udp().length();
        boolean[] masked = new boolean[end];
        if (v4) {
            masked[1] = true;
            masked[8] = true;
            masked[10] = true;
            masked[11] = true;
        } else {
            masked[0] = true; // the version nibble is covered, but the byte also carries traffic class bits
            masked[1] = masked[2] = masked[3] = true;
            masked[7] = true;
        }
        masked[udp + 6] = masked[udp + 7] = true;
        masked[bth + 4] = true;
        List<String> out = new ArrayList<>();
        out.add("  icrc coverage: every byte from the IP header to the ICRC, except [masked] ones; <icrc> itself is not covered");
        for (int row = 0; row < end; row += 16) {
            StringBuilder sb = new StringBuilder(String.format("    %04x ", row));
            for (int i = row; i < Math.min(row + 16, end); i++) {
                String b = String.format("%02x", ip[i] & 0xff);
                sb.append(i >= end - 4 ? "<" + b + ">" : masked[i] ? "[" + b + "]" : " " + b + " ");
            }
            out.add(sb.toString());
        }
        return out;
    }
}
