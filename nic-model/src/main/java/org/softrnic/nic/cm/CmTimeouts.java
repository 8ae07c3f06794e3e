package org.softrnic.nic.cm;

/**
 * The CM's time arithmetic and the constants rdma_cm puts in its messages, as the kernel's cm.c and cma.c
 * have them (checked in docs/rdma-cm-sources-check.md). A timeout field t means 4.096 us x 2^t; the CM
 * rounds it to 2^(t-8) ms.
 */
public final class CmTimeouts {
    /** CMA_CM_RESPONSE_TIMEOUT: both response-timeout fields of rdma_cm's REQ. */
    public static final int CMA_CM_RESPONSE_TIMEOUT = 20;
    /** CMA_MAX_CM_RETRIES: a REQ, REP or DREQ goes out 1 + 15 times before the id gives up. */
    public static final int CMA_MAX_CM_RETRIES = 15;
    /** CMA_IBOE_PACKET_LIFETIME of the 6.1 kernels rxe's guests run (16 after a 2022 patch). */
    public static final int CMA_IBOE_PACKET_LIFETIME = 18;
    /** The service timeout rdma_cm's silent MRA (CMA_CM_MRA_SETTING without its DELAY flag) promises. */
    public static final int CMA_CM_MRA_SERVICE_TIMEOUT = 24;
    /** rxe's local_ca_ack_delay (RXE_LOCAL_CA_ACK_DELAY), sent as the REP's Target ACK Delay. */
    public static final int LOCAL_CA_ACK_DELAY = 15;
    /** SIDR_REQ's timeout field: {@code 1 << (20 - 8)} ms (cma_resolve_ib_udp). */
    public static final int SIDR_TIMEOUT = 20;

    private CmTimeouts() {
    }

    /** cm_convert_to_ms: a timeout field as milliseconds, 2^(t-8), at least 1. */
    public static long toMillis(int t) {
        return 1L << Math.max(t - 8, 0);
    }

    public static long toNanos(int t) {
        return toMillis(t) * 1_000_000L;
    }

    /**
     * cm_ack_timeout: the Local ACK Timeout a REQ carries, from the CA's ACK delay and the path's packet
     * lifetime; (15, 18) gives 19.
     */
    public static int ackTimeout(int caAckDelay, int packetLifeTime) {
        int t = packetLifeTime + 1;
        if (t >= caAckDelay) t += caAckDelay >= t - 1 ? 1 : 0;
        else t = caAckDelay + (t >= caAckDelay - 1 ? 1 : 0);
        return Math.min(t, 31);
    }

    /** The active side's REQ timer (ib_send_cm_req): 2 x 2^(plt-8) + 2^(remote CM response timeout - 8) ms. */
    public static long reqTimeoutNanos(int packetLifeTime, int remoteCmResponseTimeout) {
        return (2 * toMillis(packetLifeTime) + toMillis(remoteCmResponseTimeout)) * 1_000_000L;
    }

    /** After an MRA (cm_mra_handler): 2^(service timeout - 8) + 2^(av timeout - 8) ms. */
    public static long mraTimeoutNanos(int serviceTimeout, int avTimeout) {
        return (toMillis(serviceTimeout) + toMillis(avTimeout)) * 1_000_000L;
    }
}
