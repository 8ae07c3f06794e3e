package org.softrnic.nic.cc;

/**
 * DCQCN's notification point, as a receiving NIC has it: on a RoCE data packet that arrived with ECN CE, a CNP
 * (opcode 0x81, BECN, the peer's QP as DestQP, PSN 0, 16 reserved bytes; IP DSCP {@code cnpDscp}, ECT(0)) goes to
 * the QP's peer, at most one per QP each {@code minTimeBetweenCnpsNanos}; marks inside that time are coalesced
 * into the CNP already sent, as NVIDIA's firmware knob {@code min_time_between_cnps} says. ACKs and CNPs never
 * trigger one. Off by default: rxe sends no CNPs.
 *
 * @param minTimeBetweenCnpsNanos the firmware's {@code min_time_between_cnps} (4 µs), or the paper's N (50 µs)
 * @param cnpDscp                 the firmware's {@code cnp_dscp}, 48
 * @param deferred                the paper's rule: marks inside the interval earn one CNP when it ends
 */
public record NotificationPoint(boolean enabled, long minTimeBetweenCnpsNanos, int cnpDscp, boolean deferred) {
    public static final NotificationPoint OFF = new NotificationPoint(false, 0, 0, false);

    /** The firmware's rule: marks inside the interval are coalesced into the CNP already sent. */
    public NotificationPoint(boolean enabled, long minTimeBetweenCnpsNanos, int cnpDscp) {
        this(enabled, minTimeBetweenCnpsNanos, cnpDscp, false);
    }

    public NotificationPoint {
        if (minTimeBetweenCnpsNanos < 0) throw new IllegalArgumentException("min_time_between_cnps must not be negative");
        if ((cnpDscp & ~0x3f) != 0) throw new IllegalArgumentException("cnp_dscp " + cnpDscp + " not in 0..63");
    }

    /** NVIDIA's firmware defaults: 4 µs between CNPs, DSCP 48. */
    public static NotificationPoint firmware() {
        return new NotificationPoint(true, 4_000, 48);
    }

    /**
     * The DCQCN paper's N = 50 µs, DSCP 48, and its rule for marks inside the interval: one more CNP when it ends
     * ("at most one CNP every N µs, and only if some packet in that window was marked").
     */
    public static NotificationPoint paper() {
        return new NotificationPoint(true, 50_000, 48, true);
    }

    /** The IP TOS of a CNP: the DSCP, and ECT(0) as a ConnectX-4 Lx sends it. */
    public int cnpTos() {
        return cnpDscp << 2 | 0b10;
    }
}
