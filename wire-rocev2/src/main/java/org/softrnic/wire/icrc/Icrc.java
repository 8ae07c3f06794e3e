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

    private int inPlace(PacketBuffer buf, int ipOffset, int ipVersion, int roceOffset, int roceLength) {
        // Field-sized saves and masks: a wide load over bytes a writer has just stored narrowly would stall
        // on store forwarding, which matters when the encoder stamps a packet it has just built.
        MemorySegment s = buf.segment;
        long lrh = ipOffset - LRH_MASK_BYTES;
        long udpCsum = roceOffset - 2;
        long bthMasked = roceOffset + Bth.ICRC_MASKED_BYTE;
        long savedLrh = Be.u64(s, lrh);
        int savedUdpCsum = Be.u16(s, udpCsum);
        int savedBth = Be.u8(s, bthMasked);
        int savedA;
        int savedB;
        int savedC;
        Be.u64(s, lrh, -1L);
        if (ipVersion == 4) {
            savedA = Be.u8(s, ipOffset + 1);    // TOS
            savedB = Be.u8(s, ipOffset + 8);    // TTL
            savedC = Be.u16(s, ipOffset + 10);  // header checksum
            Be.u8(s, ipOffset + 1, 0xff);
            Be.u8(s, ipOffset + 8, 0xff);
            Be.u16(s, ipOffset + 10, 0xffff);
        } else {
            savedA = Be.u32(s, ipOffset);       // version, traffic class, flow label
            savedB = Be.u8(s, ipOffset + 7);    // hop limit
            savedC = 0;
            Be.u32(s, ipOffset, savedA | 0x0fffffff);
            Be.u8(s, ipOffset + 7, 0xff);
        }
        Be.u16(s, udpCsum, 0xffff);
        Be.u8(s, bthMasked, 0xff);
        ByteBuffer bb = buf.buffer;
        int oldPosition = bb.position();
        int oldLimit = bb.limit();
        bb.limit(roceOffset + roceLength - 4);
        bb.position((int) lrh);
        crc.reset();
        crc.update(bb);
        bb.limit(oldLimit);
        bb.position(oldPosition);
        Be.u8(s, bthMasked, savedBth);
        Be.u16(s, udpCsum, savedUdpCsum);
        if (ipVersion == 4) {
            Be.u8(s, ipOffset + 1, savedA);
            Be.u8(s, ipOffset + 8, savedB);
            Be.u16(s, ipOffset + 10, savedC);
        } else {
            Be.u32(s, ipOffset, savedA);
            Be.u8(s, ipOffset + 7, savedB);
        }
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
