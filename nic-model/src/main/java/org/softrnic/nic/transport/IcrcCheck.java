package org.softrnic.nic.transport;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.Be;
import org.softrnic.wire.ParseError;
import org.softrnic.wire.frame.Checksum;
import org.softrnic.wire.frame.FrameView;
import org.softrnic.wire.icrc.Ipv4IdSolver;

/**
 * A received packet's ICRC, checked exactly on every link. Where a kernel UDP socket hid the IPv4 header,
 * the link rebuilt it with identification 0; the sender's identification (rxe counts it up) is then found
 * from the ICRC itself ({@link Ipv4IdSolver}) and written into the rebuilt header, so a UD receive's GRH
 * area carries it. No identification explains a changed packet: it is dropped as a bad ICRC.
 */
final class IcrcCheck {
    private IcrcCheck() {
    }

    /** Null when the ICRC holds, else {@link ParseError#ICRC_MISMATCH}. */
    static ParseError verify(FrameView v, boolean ipIdHidden) {
        int expected = v.expectedIcrc();
        int carried = v.roce.icrc();
        if (expected == carried) return null;
        if (!ipIdHidden || v.ipVersion() != 4 || v.ipv4().id() != 0) return ParseError.ICRC_MISMATCH;
        int id = Ipv4IdSolver.identification(expected ^ carried, v.ipv4().totalLength());
        if (id < 0) return ParseError.ICRC_MISMATCH;
        // the rebuilt header takes the sender's identification, and its checksum follows (RFC 1624's update)
        MemorySegment s = v.buffer().segment;
        int at = v.ipOffset();
        Be.u16(s, at + 4, id);
        Be.u16(s, at + 10, Checksum.finish((~Be.u16(s, at + 10) & 0xffff) + 0xffffL + id));
        return null;
    }
}
