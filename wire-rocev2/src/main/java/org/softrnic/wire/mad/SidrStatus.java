package org.softrnic.wire.mad;

/** A SIDR_REP's status (IBTA vol. 1 table 116; the kernel's enum ib_cm_sidr_status), with what it tells the asker. */
public enum SidrStatus {
    SUCCESS(0, "the QP and Q_Key are in the reply"),
    UNSUPPORTED(1, "no one listens for the service ID"),
    REJECT(2, "the consumer refused (rdma_reject), or destroyed the request unanswered"),
    NO_QP(3, "no QP serves it"),
    REDIRECT(4, "ask elsewhere (the additional information says where)"),
    UNSUPPORTED_VERSION(5, "the class version is not spoken");

    public final int value;
    public final String words;

    SidrStatus(int value, String words) {
        this.value = value;
        this.words = words;
    }

    /** The status with this value, or null. */
    public static SidrStatus of(int value) {
        for (SidrStatus s : values()) if (s.value == value) return s;
        return null;
    }

    /** "1 (IB_SIDR_UNSUPPORTED: no one listens for the service ID)", or "9 (reserved)". */
    public static String describe(int value) {
        SidrStatus s = of(value);
        return value + " (" + (s == null ? "reserved" : "IB_SIDR_" + s.name() + ": " + s.words) + ")";
    }
}
