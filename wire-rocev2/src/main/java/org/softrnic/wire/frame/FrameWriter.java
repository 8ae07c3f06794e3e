package org.softrnic.wire.frame;

import static org.softrnic.wire.Be.u16;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.wire.Be;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.icrc.Icrc;
import org.softrnic.wire.packet.HeaderViews;

/**
 * Builds frames in place for the hot path, allocating nothing: {@link #begin} lays down the template and
 * points the header views at their places for the opcode; the caller fills BTH and extended-header fields
 * and the payload; {@link #finish} sets the pad, lengths, IPv4 identification and checksum, and the ICRC.
 * One instance per thread.
 */
public final class FrameWriter extends HeaderViews {
    private final Icrc icrc = new Icrc();

    private PacketBuffer buf;
    private FrameTemplate template;
    private Opcode opcode;
    private int frameOffset;
    private int roceOffset;
    /** What {@link #trafficClass} changed in the IPv4 header's one's-complement sum, since {@link #begin}. */
    private long ipv4SumAdjust;

    /** Starts a frame at offset 0 of {@code buffer}; the BTH opcode is written, every other field is zero. */
    public FrameWriter begin(PacketBuffer buffer, FrameTemplate t, Opcode op) {
        return begin(buffer, 0, t, op);
    }

    /**
     * Starts a frame at {@code offset}. Eight or more bytes of headroom in front of the IP header let the
     * ICRC be computed in one pass (see {@link Icrc}).
     */
    public FrameWriter begin(PacketBuffer buffer, int offset, FrameTemplate t, Opcode op) {
        this.buf = buffer;
        this.template = t;
        this.opcode = op;
        this.frameOffset = offset;
        this.roceOffset = offset + t.prefix.length;
        MemorySegment s = buffer.segment;
        MemorySegment.copy(t.prefix, 0, s, ValueLayout.JAVA_BYTE, offset, t.prefix.length);
        // zero the transport headers with plain stores: an asSlice(...).fill() would allocate a segment per packet
        for (int i = 0; i < op.headerLength; i += 4) Be.u32(s, roceOffset + i, 0);
        point(s, roceOffset, op);
        bth().opcodeValue(op.value);
        ipv4SumAdjust = 0;
        return this;
    }

    /**
     * Sets the IP TOS (IPv4) or traffic class (IPv6), DSCP and ECN, over the template's: a CNP leaves with its
     * own DSCP whatever its QP's. The IPv4 checksum {@link #finish} writes follows.
     */
    public FrameWriter trafficClass(int tc) {
        MemorySegment s = buf.segment;
        int ip = frameOffset + template.ipOffset;
        int b0 = s.get(ValueLayout.JAVA_BYTE, ip) & 0xff;
        int b1 = s.get(ValueLayout.JAVA_BYTE, ip + 1) & 0xff;
        if (template.ipVersion == 4) {
            ipv4SumAdjust += (~b1 & 0xffff) + (tc & 0xff); // one's-complement: take the old TOS out, put the new in
            s.set(ValueLayout.JAVA_BYTE, ip + 1, (byte) tc);
        } else {
            s.set(ValueLayout.JAVA_BYTE, ip, (byte) ((b0 & 0xf0) | (tc & 0xff) >>> 4));
            s.set(ValueLayout.JAVA_BYTE, ip + 1, (byte) ((tc & 0x0f) << 4 | (b1 & 0x0f)));
        }
        return this;
    }

    /** Sets the UDP source port over the template's: a template shared by several flows differs only there. */
    public FrameWriter udpSourcePort(int port) {
        u16(buf.segment, frameOffset + template.udpOffset, port);
        return this;
    }

    public int frameOffset() {
        return frameOffset;
    }

    /** The memory the frame is being built in. */
    public MemorySegment payloadSegment() {
        return buf.segment;
    }

    /** Where the payload goes. */
    public long payloadOffset() {
        return roceOffset + opcode.headerLength;
    }

    /**
     * Completes the frame around a payload of {@code payloadLength} bytes already at {@link #payloadOffset()}.
     *
     * @param ipId the IPv4 identification (ignored for IPv6); the ICRC covers it
     * @return the frame's length, from the offset given to {@code begin}
     */
    public int finish(int payloadLength, int ipId) {
        return finish(payloadLength, ipId, true);
    }

    /**
     * As {@link #finish(int, int)}; without {@code stampIcrc} the ICRC's four bytes are zero, for a link on
     * which no one can read them.
     */
    public int finish(int payloadLength, int ipId, boolean stampIcrc) {
        if (!opcode.payload && payloadLength != 0) throw new IllegalArgumentException(opcode + " carries no payload");
        MemorySegment s = buf.segment;
        int pad = -payloadLength & 3;
        bth().pad(pad);
        long padAt = payloadOffset() + payloadLength;
        for (int i = 0; i < pad; i++) s.set(ValueLayout.JAVA_BYTE, padAt + i, (byte) 0);
        int roceLength = opcode.headerLength + payloadLength + pad + Opcode.ICRC_BYTES;
        int udpLength = Udp.LENGTH + roceLength;
        int ip = frameOffset + template.ipOffset;
        u16(s, frameOffset + template.udpOffset + 4, udpLength);
        if (template.ipVersion == 4) {
            int total = Ipv4.LENGTH + udpLength;
            u16(s, ip + 2, total);
            u16(s, ip + 4, ipId);
            u16(s, ip + 10, Checksum.finish(template.ipv4FixedSum + ipv4SumAdjust + total + (ipId & 0xffff)));
        } else {
            u16(s, ip + 4, udpLength);
        }
        if (stampIcrc) icrc.stamp(buf, ip, template.ipVersion, roceOffset, roceLength);
        else s.set(ValueLayout.JAVA_INT_UNALIGNED, roceOffset + roceLength - Opcode.ICRC_BYTES, 0);
        int end = roceOffset + roceLength;
        buf.length(end);
        return end - frameOffset;
    }
}
