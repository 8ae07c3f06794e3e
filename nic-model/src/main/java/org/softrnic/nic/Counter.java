package org.softrnic.nic;

/**
 * rxe's hw_counters, with rxe's names, followed by one drop counter per reason a packet is refused.
 */
public enum Counter {
    SENT_PKTS("sent_pkts"),
    RCVD_PKTS("rcvd_pkts"),
    DUPLICATE_REQUEST("duplicate_request"),
    OUT_OF_SEQ_REQUEST("out_of_seq_request"),
    RCVD_RNR_ERR("rcvd_rnr_err"),
    SEND_RNR_ERR("send_rnr_err"),
    RCVD_SEQ_ERR("rcvd_seq_err"),
    ACK_DEFERRED("ack_deferred"),
    RETRY_EXCEEDED_ERR("retry_exceeded_err"),
    RETRY_RNR_EXCEEDED_ERR("retry_rnr_exceeded_err"),
    COMPLETER_RETRY_ERR("completer_retry_err"),
    SEND_ERR("send_err"),
    LINK_DOWNED("link_downed"),
    RDMA_SENDS("rdma_sends"),
    RDMA_RECVS("rdma_recvs"),
    RCVD_ICRC_VERIFIED("rcvd_icrc_verified"),
    /** mlx5's name: RoCE packets that arrived with ECN CE, marked by a congested link. */
    NP_ECN_MARKED_ROCE_PACKETS("np_ecn_marked_roce_packets"),
    /** mlx5's name: CNPs this device sent as a notification point. */
    NP_CNP_SENT("np_cnp_sent"),
    /** mlx5's name: CNPs received and not acted on (no reaction point runs for their QP). */
    RP_CNP_IGNORED("rp_cnp_ignored"),
    /** mlx5's name: CNPs a QP's reaction point acted on. */
    RP_CNP_HANDLED("rp_cnp_handled"),
    /** The kernel's ODP counters (mlx5's per-region names), summed over the device's regions, in pages. */
    PAGE_FAULTS("page_faults"),
    PAGE_INVALIDATIONS("page_invalidations"),
    PAGE_PREFETCH("page_prefetch"),
    DROP_MALFORMED("drop_malformed"),
    DROP_BAD_ICRC("drop_bad_icrc"),
    DROP_NOT_ROCE("drop_not_roce"),
    DROP_UNKNOWN_QP("drop_unknown_qp"),
    DROP_QP_STATE("drop_qp_state"),
    DROP_OPCODE_FOR_QP_TYPE("drop_opcode_for_qp_type"),
    DROP_WRONG_PEER("drop_wrong_peer"),
    DROP_BAD_QKEY("drop_bad_qkey"),
    DROP_BAD_PKEY("drop_bad_pkey"),
    DROP_UC_SEQUENCE("drop_uc_sequence"),
    DROP_GHOST_ACK("drop_ghost_ack"),
    /** An ACK whose AETH syndrome has the reserved type (binary 10): nothing to act on. */
    DROP_BAD_SYNDROME("drop_bad_syndrome"),
    /** An ACK or NAK whose PSN lies inside an outstanding READ's response range (rxe's check_psn ignores it). */
    DROP_ACK_INSIDE_READ("drop_ack_inside_read"),
    /** A duplicate READ naming another rkey, or reaching outside the READ it repeats (rxe's duplicate_request). */
    DROP_BAD_DUPLICATE("drop_bad_duplicate"),
    DROP_UD_NO_RECV("drop_ud_no_recv"),
    /** A UD send longer than the path MTU: completed without a packet, as C10-93.1.1 says (and rxe does). */
    UD_SEND_TOO_LONG("ud_send_too_long"),
    // the CM on QP1, as the kernel's cm counters (ports/N/cm_tx_msgs, cm_rx_duplicates) count them
    CM_TX_MSGS("cm_tx_msgs"),
    CM_TX_RETRIES("cm_tx_retries"),
    CM_RX_MSGS("cm_rx_msgs"),
    CM_RX_DUPLICATES("cm_rx_duplicates"),
    /** A MAD on QP1 the CM takes no action on: no CM class, an unknown attribute, or no id it names. */
    CM_RX_DROPPED("cm_rx_dropped");

    /** The counter's name as rxe's sysfs hw_counters (or, for drops, softrnic) spells it. */
    public final String counterName;

    Counter(String counterName) {
        this.counterName = counterName;
    }
}
