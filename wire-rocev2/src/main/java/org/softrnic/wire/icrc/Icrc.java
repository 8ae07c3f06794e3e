package org.softrnic.wire.icrc;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.frame.Udp;
import org.softrnic.wire.header.Bth;

/**
 * The RoCEv2 invariant CRC, computed as rxe_icrc.c does: CRC-32 over
 * <ol>
 *   <li>eight 0xFF bytes standing in for the masked LRH,</li>
 *   <li>the IP header with its variant fields set to ones (IPv4: TOS, TTL, checksum; IPv6: traffic class,
 *       flow label, hop limit),</li>
 *   <li>the UDP header with its checksum set to ones,</li>
 *   <li>the BTH with byte 4 (FECN, BECN, resv6a) set to ones,</li>
 *   <li>everything after the BTH up to the ICRC,</li>
 * </ol>
 * stored little-endian in the packet's last four bytes. Nothing is allocated and the payload goes straight
 * from the packet buffer into the CRC32 intrinsic. When the buffer is writable and has eight bytes in front
 * of the IP header (an Ethernet frame has fourteen), the masks are applied in place and undone afterwards,
 * so the whole span is one CRC32 call; otherwise a small scratch copy of the headers is masked. Either way
 * the packet is as it was when this returns. Not thread-safe: one instance per thread and packet.
 */
public final class Icrc {
    /** Bytes of 0xFF that stand in for the LRH, which RoCEv2 does not carry. */
    public static final int LRH_MASK_BYTES = 8;
    private static final int MAX_IP_HEADER = 60;

    private final CRC32 crc = new CRC32();
    private final byte[] scratch = new byte[LRH_MASK_BYTES + MAX_IP_HEADER + Udp.LENGTH + Bth.LENGTH];

    /**
     * @param ipOffset   offset of the IP header in {@code buf}
     * @param ipVersion  4 or 6
     * @param roceOffset offset of the BTH; the UDP header is the eight bytes before it
     * @param roceLength BTH through ICRC
     */
    public int compute(PacketBuffer buf, int ipOffset, int ipVersion, int roceOffset, int roceLength) {
        if (ipOffset >= LRH_MASK_BYTES && !buf.segment.isReadOnly()) {
            return inPlace(buf, ipOffset, ipVersion, roceOffset, roceLength);
        }
        return scratch(buf, ipOffset, ipVersion, roceOffset, roceLength);
    }

    // Big-endian masks over the first eight bytes of each header (IPv4 also its second eight).
    private static final long IPV4_W0 = 0x00ff_0000_0000_0000L;  // TOS
    private static final long IPV4_W1 = 0xff00_ffff_0000_0000L;  // TTL, header checksum
    private static final long IPV6_W0 = 0x0fff_ffff_0000_00ffL;  // traffic class, flow label, hop limit
    private static final long UDP_W0 = 0x0000_0000_0000_ffffL;   // checksum
    private static final long BTH_W0 = 0x0000_0000_ff00_0000L;   // FECN, BECN, resv6a

    private int inPlace(PacketBuffer buf, int ipOffset, int ipVersion, int roceOffset, int roceLength) {
        MemorySegment s = buf.segment;
        long lrh = ipOffset - LRH_MASK_BYTES;
        long udp = roceOffset - Udp.LENGTH;
        long savedLrh = Be.u64(s, lrh);
        long savedIp0 = Be.u64(s, ipOffset);
        long savedIp1 = Be.u64(s, ipOffset + 8);
        long savedUdp = Be.u64(s, udp);
        long savedBth = Be.u64(s, roceOffset);
        Be.u64(s, lrh, -1L);
        if (ipVersion == 4) {
            Be.u64(s, ipOffset, savedIp0 | IPV4_W0);
            Be.u64(s, ipOffset + 8, savedIp1 | IPV4_W1);
        } else {
            Be.u64(s, ipOffset, savedIp0 | IPV6_W0);
        }
        Be.u64(s, udp, savedUdp | UDP_W0);
        Be.u64(s, roceOffset, savedBth | BTH_W0);
        ByteBuffer bb = buf.buffer;
        int oldPosition = bb.position();
        int oldLimit = bb.limit();
        bb.limit(roceOffset + roceLength - 4);
        bb.position((int) lrh);
        crc.reset();
        crc.update(bb);
        bb.limit(oldLimit);
        bb.position(oldPosition);
        Be.u64(s, roceOffset, savedBth);
        Be.u64(s, udp, savedUdp);
        Be.u64(s, ipOffset + 8, savedIp1);
        Be.u64(s, ipOffset, savedIp0);
        Be.u64(s, lrh, savedLrh);
        return (int) crc.getValue();
    }

    private int scratch(PacketBuffer buf, int ipOffset, int ipVersion, int roceOffset, int roceLength) {
        int headers = roceOffset + Bth.LENGTH - ipOffset;
        if (headers > scratch.length - LRH_MASK_BYTES || headers < Udp.LENGTH + Bth.LENGTH) {
            throw new IllegalArgumentException("IP+UDP+BTH span of " + headers + " bytes");
        }
        byte[] s = scratch;
        for (int i = 0; i < LRH_MASK_BYTES; i++) s[i] = (byte) 0xff;
        ByteBuffer bb = buf.buffer;
        bb.get(ipOffset, s, LRH_MASK_BYTES, headers);
        int ip = LRH_MASK_BYTES;
        if (ipVersion == 4) {
            s[ip + 1] = (byte) 0xff;                 // TOS
            s[ip + 8] = (byte) 0xff;                 // TTL
            s[ip + 10] = s[ip + 11] = (byte) 0xff;   // header checksum
        } else {
            s[ip] |= 0x0f;                           // traffic class, high nibble
            s[ip + 1] = s[ip + 2] = s[ip + 3] = (byte) 0xff; // traffic class low nibble, flow label
            s[ip + 7] = (byte) 0xff;                 // hop limit
        }
        int udp = LRH_MASK_BYTES + roceOffset - Udp.LENGTH - ipOffset;
        s[udp + 6] = s[udp + 7] = (byte) 0xff;       // UDP checksum
        s[udp + Udp.LENGTH + Bth.ICRC_MASKED_BYTE] = (byte) 0xff;
        crc.reset();
        crc.update(s, 0, LRH_MASK_BYTES + headers);
        int start = roceOffset + Bth.LENGTH;
        int end = roceOffset + roceLength - 4;
        int oldPosition = bb.position();
        int oldLimit = bb.limit();
        bb.limit(end);
        bb.position(start);
        crc.update(bb);
        bb.limit(oldLimit);
        bb.position(oldPosition);
        return (int) crc.getValue();
    }

    /** Computes the ICRC and writes it little-endian into the packet's last four bytes. */
    public int stamp(PacketBuffer buf, int ipOffset, int ipVersion, int roceOffset, int roceLength) {
        int value = compute(buf, ipOffset, ipVersion, roceOffset, roceLength);
        Be.u32le(buf.segment, roceOffset + roceLength - 4, value);
        return value;
    }
}
