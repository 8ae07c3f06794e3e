package org.softrnic.verbs;

/** IBV_ACCESS_* flags, with rdma-core's values. */
public final class Access {
    public static final int LOCAL_WRITE = 1;
    public static final int REMOTE_WRITE = 1 << 1;
    public static final int REMOTE_READ = 1 << 2;
    public static final int REMOTE_ATOMIC = 1 << 3;
    public static final int MW_BIND = 1 << 4;
    public static final int ZERO_BASED = 1 << 5;
    /** On-demand paging: the pages are not pinned; the NIC faults them in on first touch (IBV_ACCESS_ON_DEMAND). */
    public static final int ON_DEMAND = 1 << 6;
    public static final int FLUSH_GLOBAL = 1 << 8;
    public static final int FLUSH_PERSISTENT = 1 << 9;
    public static final int REMOTE_ANY = REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC;
    static final int KNOWN = LOCAL_WRITE | REMOTE_ANY | MW_BIND | ZERO_BASED | ON_DEMAND | FLUSH_GLOBAL | FLUSH_PERSISTENT;

    private Access() {}

    private static final String[] NAMES = {"LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC", "MW_BIND", "ZERO_BASED",
            "ON_DEMAND", null, "FLUSH_GLOBAL", "FLUSH_PERSISTENT"};

    /** The flags as rdma-core names them: "IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ", or "no access flags". */
    public static String describe(int access) {
        StringBuilder sb = new StringBuilder();
        for (int bit = 0; bit < NAMES.length; bit++) {
            if ((access & (1 << bit)) == 0 || NAMES[bit] == null) continue;
            if (!sb.isEmpty()) sb.append(" | ");
            sb.append("IBV_ACCESS_").append(NAMES[bit]);
        }
        return sb.isEmpty() ? "no access flags" : sb.toString();
    }

    /**
     * IBTA 10.6.3.1 / rdma-core: remote write or remote atomic access needs local write access too.
     *
     * @return null when the combination is legal, else why not
     */
    public static String invalidReason(int access) {
        if ((access & ~KNOWN) != 0) return "unknown access flags 0x" + Integer.toHexString(access & ~KNOWN);
        if ((access & (REMOTE_WRITE | REMOTE_ATOMIC)) != 0 && (access & LOCAL_WRITE) == 0) {
            return "REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE";
        }
        return null;
    }
}
