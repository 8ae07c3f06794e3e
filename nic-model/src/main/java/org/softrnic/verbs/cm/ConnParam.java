package org.softrnic.verbs.cm;

/**
 * struct rdma_conn_param: what connect and accept ask for, and what CONNECT_REQUEST and ESTABLISHED report.
 * {@link #DEFAULT} is what librdmacm uses for a null parameter: the device's maxima for the RDMA READ and
 * atomic depths ({@link #MAX} asks for them too), 7 retries and 7 RNR retries.
 *
 * @param responderResources RDMA READs and atomics this side serves at once (max_dest_rd_atomic)
 * @param initiatorDepth     RDMA READs and atomics this side keeps outstanding (max_rd_atomic)
 * @param qpNum              reported in events: the peer's QPN
 */
public record ConnParam(byte[] privateData, int responderResources, int initiatorDepth, int flowControl,
                        int retryCount, int rnrRetryCount, boolean srq, int qpNum) {
    /** RDMA_MAX_RESP_RES and RDMA_MAX_INIT_DEPTH: the device's maximum. */
    public static final int MAX = 0xff;
    public static final ConnParam DEFAULT = new ConnParam(new byte[0], MAX, MAX, 0, 7, 7, false, 0);

    public ConnParam {
        privateData = privateData == null ? new byte[0] : privateData.clone();
        for (int v : new int[] {responderResources, initiatorDepth}) {
            if (v < 0 || v > 0xff) throw new IllegalArgumentException("RDMA READ and atomic depths are 0 to 255, not " + v);
        }
        if (retryCount < 0 || rnrRetryCount < 0) throw new IllegalArgumentException("retry counts are not negative");
    }

    /** The same with {@code data} as private data. */
    public ConnParam withPrivateData(byte[] data) {
        return new ConnParam(data, responderResources, initiatorDepth, flowControl, retryCount, rnrRetryCount, srq, qpNum);
    }

    /** Both depths set, as rping asks (1 and 1). */
    public ConnParam withDepths(int responderResources, int initiatorDepth) {
        return new ConnParam(privateData, responderResources, initiatorDepth, flowControl, retryCount, rnrRetryCount, srq, qpNum);
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }
}
