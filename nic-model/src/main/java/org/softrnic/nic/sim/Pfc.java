package org.softrnic.nic.sim;

/**
 * Priority flow control at a switch's ingress (IEEE 802.1Qbb), per (port, priority) as HPCC's MMU counts it: the
 * bytes that came in on a port at a lossless priority and are still in the switch. At {@code xoffBytes} a pause
 * frame with {@code quanta} goes upstream; at {@code xonBytes} or fewer, one with 0 quanta resumes it. The
 * {@code headroomBytes} above XOFF take what was on the wire before the pause took effect; past them a packet is
 * dropped, which a well-sized headroom never lets happen.
 *
 * @param priorities bit n set: priority n is lossless
 */
public record Pfc(int priorities, long xoffBytes, long xonBytes, long headroomBytes, int quanta) {
    public static final Pfc OFF = new Pfc(0, 0, 0, 0, 0);
    /** One pause frame on the wire: 64 bytes, with preamble and gap 84. */
    public static final int FRAME_WIRE_BYTES = 84;

    public Pfc {
        if ((priorities & ~0xff) != 0) throw new IllegalArgumentException("priorities are 0..7");
        if (priorities != 0 && (xonBytes > xoffBytes || xoffBytes <= 0 || headroomBytes < 0)) {
            throw new IllegalArgumentException("PFC needs 0 < XON <= XOFF and headroom >= 0");
        }
        if (quanta < 0 || quanta > 0xffff) throw new IllegalArgumentException("quanta are 0..65535");
        if (priorities != 0 && quanta == 0) throw new IllegalArgumentException("an XOFF of 0 quanta pauses nothing");
    }

    /**
     * Priority {@code priority} lossless on a link of {@code gbps} and {@code delayNanos} one way: XOFF at
     * {@code xoffBytes}, XON two MTU frames below it, and the headroom that the teaching formula of the spec gives
     * (2·R·d for the round trip, two maximum frames, a pause frame's time at the peer, 64 bytes), pause 0xFFFF quanta.
     */
    public static Pfc on(int priority, long xoffBytes, double gbps, long delayNanos, int mtuFrameBytes) {
        long roundTrip = (long) Math.ceil(2 * gbps * delayNanos / 8);
        long headroom = roundTrip + 2L * mtuFrameBytes + FRAME_WIRE_BYTES + 64;
        return new Pfc(1 << priority, xoffBytes, Math.max(0, xoffBytes - 2L * mtuFrameBytes), headroom, 0xffff);
    }

    /** A RoCEv2 packet at path MTU 1024 on the wire: payload, IPv4, UDP, BTH and ICRC (44 bytes), Ethernet framing. */
    public static final int MTU_1024_FRAME = 1024 + 44 + org.softrnic.wire.frame.Ethernet.FRAMING_BYTES;

    public boolean lossless(int priority) {
        return (priorities >>> priority & 1) != 0;
    }

    /** How long {@code quanta} pause a port of {@code gbps}: 512 bit times each. */
    public static long pauseNanos(int quanta, double gbps) {
        return (long) Math.ceil(quanta * 512 / gbps);
    }
}
