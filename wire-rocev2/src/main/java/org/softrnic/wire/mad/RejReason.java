package org.softrnic.wire.mad;

/**
 * A REJ's reason (IBTA vol. 1 table 107; the kernel's enum ib_cm_rej_reason), with the words the kernel's
 * ibcm_reject_msg prints for it. 34 is unassigned.
 */
public enum RejReason {
    NO_QP(1, "no QP"), NO_EEC(2, "no EEC"), NO_RESOURCES(3, "no resources"), TIMEOUT(4, "timeout"),
    UNSUPPORTED(5, "unsupported"), INVALID_COMM_ID(6, "invalid comm ID"), INVALID_COMM_INSTANCE(7, "invalid comm instance"),
    INVALID_SERVICE_ID(8, "invalid service ID"), INVALID_TRANSPORT_TYPE(9, "invalid transport type"),
    STALE_CONN(10, "stale conn"), RDC_NOT_EXIST(11, "RDC not exist"), INVALID_GID(12, "invalid GID"),
    INVALID_LID(13, "invalid LID"), INVALID_SL(14, "invalid SL"), INVALID_TRAFFIC_CLASS(15, "invalid traffic class"),
    INVALID_HOP_LIMIT(16, "invalid hop limit"), INVALID_PACKET_RATE(17, "invalid packet rate"),
    INVALID_ALT_GID(18, "invalid alt GID"), INVALID_ALT_LID(19, "invalid alt LID"), INVALID_ALT_SL(20, "invalid alt SL"),
    INVALID_ALT_TRAFFIC_CLASS(21, "invalid alt traffic class"), INVALID_ALT_HOP_LIMIT(22, "invalid alt hop limit"),
    INVALID_ALT_PACKET_RATE(23, "invalid alt packet rate"), PORT_CM_REDIRECT(24, "port CM redirect"),
    PORT_REDIRECT(25, "port redirect"), INVALID_MTU(26, "invalid MTU"),
    INSUFFICIENT_RESP_RESOURCES(27, "insufficient resp resources"), CONSUMER_DEFINED(28, "consumer defined"),
    INVALID_RNR_RETRY(29, "invalid RNR retry"), DUPLICATE_LOCAL_COMM_ID(30, "duplicate local comm ID"),
    INVALID_CLASS_VERSION(31, "invalid class version"), INVALID_FLOW_LABEL(32, "invalid flow label"),
    INVALID_ALT_FLOW_LABEL(33, "invalid alt flow label"), VENDOR_OPTION_NOT_SUPPORTED(35, "vendor option is not supported");

    public final int value;
    /** ibcm_reject_msg's words. */
    public final String words;

    RejReason(int value, String words) {
        this.value = value;
        this.words = words;
    }

    /** The reason with this value, or null (0, 34 and anything past 35). */
    public static RejReason of(int value) {
        for (RejReason r : values()) if (r.value == value) return r;
        return null;
    }

    /** "8 (invalid service ID)", or "34 (unrecognized reason)" as the kernel says of a value it has no name for. */
    public static String describe(int value) {
        RejReason r = of(value);
        return value + " (" + (r == null ? "unrecognized reason" : r.words) + ")";
    }
}
