package org.softrnic.emulator.rdmacore;

/**
 * Where rdma-core's public structs keep the fields softrnic reads and writes (x86-64, rdma-core 44's headers): the
 * ibverbs provider, which calls the real libibverbs, and softrnic's own libibverbs.so.1, which C programs call. Every
 * offset, width and size is recorded here once, so that {@code RdmaCoreLayoutTest} can compile a C program against
 * the installed {@code infiniband/verbs.h} and {@code rdma/rdma_cma.h} that checks each of them with offsetof and sizeof.
 */
public final class RdmaCoreLayout {
    private static final org.softrnic.emulator.os.StructFacts FACTS = new org.softrnic.emulator.os.StructFacts();

    private RdmaCoreLayout() {
    }

    public static java.util.List<org.softrnic.emulator.os.StructFacts.Fact> facts() {
        return FACTS.facts();
    }

    private static long at(String struct, String member, long offset, long width) {
        return FACTS.at(struct, member, offset, width);
    }

    private static long size(String struct, long size) {
        return FACTS.size(struct, size);
    }

    // struct ibv_device
    public static final long DEVICE_NODE_TYPE = at("ibv_device", "node_type", 16, 4);
    public static final long DEVICE_NAME = at("ibv_device", "name", 24, 64);

    // struct ibv_context and, inline in it, struct ibv_context_ops: the inline verbs call through these
    public static final long CONTEXT_DEVICE = at("ibv_context", "device", 0, 8);
    public static final long CONTEXT_ASYNC_FD = at("ibv_context", "async_fd", 268, 4);
    public static final long OPS_ALLOC_MW = at("ibv_context", "ops.alloc_mw", 64, 8);
    public static final long OPS_BIND_MW = at("ibv_context", "ops.bind_mw", 72, 8);
    public static final long OPS_DEALLOC_MW = at("ibv_context", "ops.dealloc_mw", 80, 8);
    public static final long OPS_POLL_CQ = at("ibv_context", "ops.poll_cq", 96, 8);
    public static final long OPS_REQ_NOTIFY_CQ = at("ibv_context", "ops.req_notify_cq", 104, 8);
    public static final long OPS_POST_SRQ_RECV = at("ibv_context", "ops.post_srq_recv", 168, 8);
    public static final long OPS_POST_SEND = at("ibv_context", "ops.post_send", 208, 8);
    public static final long OPS_POST_RECV = at("ibv_context", "ops.post_recv", 216, 8);

    // the objects whose first field is their context, which the inline verbs follow to the ops table
    public static final long CQ_CONTEXT = at("ibv_cq", "context", 0, 8);
    public static final long QP_CONTEXT = at("ibv_qp", "context", 0, 8);
    public static final long SRQ_CONTEXT = at("ibv_srq", "context", 0, 8);
    public static final long MW_CONTEXT = at("ibv_mw", "context", 0, 8);
    public static final long CQ_CQE = at("ibv_cq", "cqe", 28, 4);
    public static final long QP_NUM = at("ibv_qp", "qp_num", 52, 4);
    public static final long QP_STATE = at("ibv_qp", "state", 56, 4);
    public static final long MW_RKEY = at("ibv_mw", "rkey", 16, 4);
    public static final long MW_TYPE = at("ibv_mw", "type", 24, 4);
    public static final long MW_PD = at("ibv_mw", "pd", 8, 8);

    // struct ibv_mr
    public static final long MR_ADDR = at("ibv_mr", "addr", 16, 8);
    public static final long MR_LENGTH = at("ibv_mr", "length", 24, 8);
    public static final long MR_LKEY = at("ibv_mr", "lkey", 36, 4);
    public static final long MR_RKEY = at("ibv_mr", "rkey", 40, 4);
    public static final long MR_PD = at("ibv_mr", "pd", 8, 8);

    // struct ibv_comp_channel
    public static final long CHANNEL_FD = at("ibv_comp_channel", "fd", 8, 4);

    // struct ibv_device_attr
    public static final long DEVICE_ATTR_SIZE = size("ibv_device_attr", 232);
    public static final long DA_MAX_MR_SIZE = at("ibv_device_attr", "max_mr_size", 80, 8);
    public static final long DA_MAX_QP = at("ibv_device_attr", "max_qp", 108, 4);
    public static final long DA_MAX_QP_WR = at("ibv_device_attr", "max_qp_wr", 112, 4);
    public static final long DA_MAX_SGE = at("ibv_device_attr", "max_sge", 120, 4);
    public static final long DA_MAX_SGE_RD = at("ibv_device_attr", "max_sge_rd", 124, 4);
    public static final long DA_MAX_CQ = at("ibv_device_attr", "max_cq", 128, 4);
    public static final long DA_MAX_CQE = at("ibv_device_attr", "max_cqe", 132, 4);
    public static final long DA_MAX_MR = at("ibv_device_attr", "max_mr", 136, 4);
    public static final long DA_MAX_PD = at("ibv_device_attr", "max_pd", 140, 4);
    public static final long DA_MAX_QP_RD_ATOM = at("ibv_device_attr", "max_qp_rd_atom", 144, 4);
    public static final long DA_MAX_QP_INIT_RD_ATOM = at("ibv_device_attr", "max_qp_init_rd_atom", 156, 4);
    public static final long DA_ATOMIC_CAP = at("ibv_device_attr", "atomic_cap", 164, 4);
    public static final long DA_MAX_MW = at("ibv_device_attr", "max_mw", 176, 4);
    public static final long DA_MAX_AH = at("ibv_device_attr", "max_ah", 200, 4);
    public static final long DA_MAX_SRQ = at("ibv_device_attr", "max_srq", 212, 4);
    public static final long DA_MAX_SRQ_WR = at("ibv_device_attr", "max_srq_wr", 216, 4);
    public static final long DA_MAX_SRQ_SGE = at("ibv_device_attr", "max_srq_sge", 220, 4);

    // struct ibv_port_attr: the exported ibv_query_port fills the first 48 bytes, so the buffer is the full size
    public static final long PORT_ATTR_SIZE = size("ibv_port_attr", 52);
    public static final long PA_STATE = at("ibv_port_attr", "state", 0, 4);
    public static final long PA_MAX_MTU = at("ibv_port_attr", "max_mtu", 4, 4);
    public static final long PA_ACTIVE_MTU = at("ibv_port_attr", "active_mtu", 8, 4);
    public static final long PA_GID_TBL_LEN = at("ibv_port_attr", "gid_tbl_len", 12, 4);
    public static final long PA_PKEY_TBL_LEN = at("ibv_port_attr", "pkey_tbl_len", 32, 2);
    public static final long PA_LINK_LAYER = at("ibv_port_attr", "link_layer", 46, 1);

    public static final long GID_SIZE = size("union ibv_gid", 16);

    // struct ibv_srq_init_attr
    public static final long SRQ_INIT_ATTR_SIZE = size("ibv_srq_init_attr", 24);
    public static final long SIA_MAX_WR = at("ibv_srq_init_attr", "attr.max_wr", 8, 4);
    public static final long SIA_MAX_SGE = at("ibv_srq_init_attr", "attr.max_sge", 12, 4);
    public static final long SIA_SRQ_LIMIT = at("ibv_srq_init_attr", "attr.srq_limit", 16, 4);
    public static final long SRQ_ATTR_SIZE = size("ibv_srq_attr", 12);
    public static final long SA_SRQ_LIMIT = at("ibv_srq_attr", "srq_limit", 8, 4);

    // struct ibv_qp_init_attr
    public static final long QP_INIT_ATTR_SIZE = size("ibv_qp_init_attr", 64);
    public static final long QIA_SEND_CQ = at("ibv_qp_init_attr", "send_cq", 8, 8);
    public static final long QIA_RECV_CQ = at("ibv_qp_init_attr", "recv_cq", 16, 8);
    public static final long QIA_SRQ = at("ibv_qp_init_attr", "srq", 24, 8);
    public static final long QIA_MAX_SEND_WR = at("ibv_qp_init_attr", "cap.max_send_wr", 32, 4);
    public static final long QIA_MAX_RECV_WR = at("ibv_qp_init_attr", "cap.max_recv_wr", 36, 4);
    public static final long QIA_MAX_SEND_SGE = at("ibv_qp_init_attr", "cap.max_send_sge", 40, 4);
    public static final long QIA_MAX_RECV_SGE = at("ibv_qp_init_attr", "cap.max_recv_sge", 44, 4);
    public static final long QIA_MAX_INLINE_DATA = at("ibv_qp_init_attr", "cap.max_inline_data", 48, 4);
    public static final long QIA_QP_TYPE = at("ibv_qp_init_attr", "qp_type", 52, 4);
    public static final long QIA_SQ_SIG_ALL = at("ibv_qp_init_attr", "sq_sig_all", 56, 4);

    // struct ibv_ah_attr, alone (ibv_create_ah) and inside ibv_qp_attr
    public static final long AH_ATTR_SIZE = size("ibv_ah_attr", 32);
    public static final long AH_DGID = at("ibv_ah_attr", "grh.dgid", 0, 16);
    public static final long AH_FLOW_LABEL = at("ibv_ah_attr", "grh.flow_label", 16, 4);
    public static final long AH_SGID_INDEX = at("ibv_ah_attr", "grh.sgid_index", 20, 1);
    public static final long AH_HOP_LIMIT = at("ibv_ah_attr", "grh.hop_limit", 21, 1);
    public static final long AH_TRAFFIC_CLASS = at("ibv_ah_attr", "grh.traffic_class", 22, 1);
    public static final long AH_DLID = at("ibv_ah_attr", "dlid", 24, 2);
    public static final long AH_SL = at("ibv_ah_attr", "sl", 26, 1);
    public static final long AH_IS_GLOBAL = at("ibv_ah_attr", "is_global", 29, 1);
    public static final long AH_PORT_NUM = at("ibv_ah_attr", "port_num", 30, 1);

    // struct ibv_qp_attr
    public static final long QP_ATTR_SIZE = size("ibv_qp_attr", 144);
    public static final long QA_QP_STATE = at("ibv_qp_attr", "qp_state", 0, 4);
    public static final long QA_CUR_QP_STATE = at("ibv_qp_attr", "cur_qp_state", 4, 4);
    public static final long QA_PATH_MTU = at("ibv_qp_attr", "path_mtu", 8, 4);
    public static final long QA_QKEY = at("ibv_qp_attr", "qkey", 16, 4);
    public static final long QA_RQ_PSN = at("ibv_qp_attr", "rq_psn", 20, 4);
    public static final long QA_SQ_PSN = at("ibv_qp_attr", "sq_psn", 24, 4);
    public static final long QA_DEST_QP_NUM = at("ibv_qp_attr", "dest_qp_num", 28, 4);
    public static final long QA_QP_ACCESS_FLAGS = at("ibv_qp_attr", "qp_access_flags", 32, 4);
    public static final long QA_AH_ATTR = at("ibv_qp_attr", "ah_attr", 56, 32);
    public static final long QA_PKEY_INDEX = at("ibv_qp_attr", "pkey_index", 120, 2);
    public static final long QA_EN_SQD_ASYNC_NOTIFY = at("ibv_qp_attr", "en_sqd_async_notify", 124, 1);
    public static final long QA_MAX_RD_ATOMIC = at("ibv_qp_attr", "max_rd_atomic", 126, 1);
    public static final long QA_MAX_DEST_RD_ATOMIC = at("ibv_qp_attr", "max_dest_rd_atomic", 127, 1);
    public static final long QA_MIN_RNR_TIMER = at("ibv_qp_attr", "min_rnr_timer", 128, 1);
    public static final long QA_PORT_NUM = at("ibv_qp_attr", "port_num", 129, 1);
    public static final long QA_TIMEOUT = at("ibv_qp_attr", "timeout", 130, 1);
    public static final long QA_RETRY_CNT = at("ibv_qp_attr", "retry_cnt", 131, 1);
    public static final long QA_RNR_RETRY = at("ibv_qp_attr", "rnr_retry", 132, 1);

    // struct ibv_sge, ibv_send_wr, ibv_recv_wr: preallocated per QP, filled field by field on each post
    public static final long SGE_SIZE = size("ibv_sge", 16);
    public static final long SGE_ADDR = at("ibv_sge", "addr", 0, 8);
    public static final long SGE_LENGTH = at("ibv_sge", "length", 8, 4);
    public static final long SGE_LKEY = at("ibv_sge", "lkey", 12, 4);
    public static final long SEND_WR_SIZE = size("ibv_send_wr", 128);
    public static final long SWR_WR_ID = at("ibv_send_wr", "wr_id", 0, 8);
    public static final long SWR_NEXT = at("ibv_send_wr", "next", 8, 8);
    public static final long SWR_SG_LIST = at("ibv_send_wr", "sg_list", 16, 8);
    public static final long SWR_NUM_SGE = at("ibv_send_wr", "num_sge", 24, 4);
    public static final long SWR_OPCODE = at("ibv_send_wr", "opcode", 28, 4);
    public static final long SWR_SEND_FLAGS = at("ibv_send_wr", "send_flags", 32, 4);
    public static final long SWR_IMM_DATA = at("ibv_send_wr", "imm_data", 36, 4);
    public static final long SWR_RDMA_REMOTE_ADDR = at("ibv_send_wr", "wr.rdma.remote_addr", 40, 8);
    public static final long SWR_RDMA_RKEY = at("ibv_send_wr", "wr.rdma.rkey", 48, 4);
    public static final long SWR_ATOMIC_REMOTE_ADDR = at("ibv_send_wr", "wr.atomic.remote_addr", 40, 8);
    public static final long SWR_ATOMIC_COMPARE_ADD = at("ibv_send_wr", "wr.atomic.compare_add", 48, 8);
    public static final long SWR_ATOMIC_SWAP = at("ibv_send_wr", "wr.atomic.swap", 56, 8);
    public static final long SWR_ATOMIC_RKEY = at("ibv_send_wr", "wr.atomic.rkey", 64, 4);
    public static final long SWR_UD_AH = at("ibv_send_wr", "wr.ud.ah", 40, 8);
    public static final long SWR_UD_REMOTE_QPN = at("ibv_send_wr", "wr.ud.remote_qpn", 48, 4);
    public static final long SWR_UD_REMOTE_QKEY = at("ibv_send_wr", "wr.ud.remote_qkey", 52, 4);
    public static final long SWR_BIND_MW_MW = at("ibv_send_wr", "bind_mw.mw", 80, 8);
    public static final long SWR_BIND_MW_RKEY = at("ibv_send_wr", "bind_mw.rkey", 88, 4);
    public static final long SWR_BIND_MW_MR = at("ibv_send_wr", "bind_mw.bind_info.mr", 96, 8);
    public static final long SWR_BIND_MW_ADDR = at("ibv_send_wr", "bind_mw.bind_info.addr", 104, 8);
    public static final long SWR_BIND_MW_LENGTH = at("ibv_send_wr", "bind_mw.bind_info.length", 112, 8);
    public static final long SWR_BIND_MW_ACCESS = at("ibv_send_wr", "bind_mw.bind_info.mw_access_flags", 120, 4);
    public static final long RECV_WR_SIZE = size("ibv_recv_wr", 32);
    public static final long RWR_WR_ID = at("ibv_recv_wr", "wr_id", 0, 8);
    public static final long RWR_NEXT = at("ibv_recv_wr", "next", 8, 8);
    public static final long RWR_SG_LIST = at("ibv_recv_wr", "sg_list", 16, 8);
    public static final long RWR_NUM_SGE = at("ibv_recv_wr", "num_sge", 24, 4);

    // struct ibv_mw_bind (ibv_bind_mw, type 1 windows)
    public static final long MW_BIND_SIZE = size("ibv_mw_bind", 48);
    public static final long MWB_WR_ID = at("ibv_mw_bind", "wr_id", 0, 8);
    public static final long MWB_SEND_FLAGS = at("ibv_mw_bind", "send_flags", 8, 4);
    public static final long MWB_MR = at("ibv_mw_bind", "bind_info.mr", 16, 8);
    public static final long MWB_ADDR = at("ibv_mw_bind", "bind_info.addr", 24, 8);
    public static final long MWB_LENGTH = at("ibv_mw_bind", "bind_info.length", 32, 8);
    public static final long MWB_ACCESS = at("ibv_mw_bind", "bind_info.mw_access_flags", 40, 4);

    // struct ibv_wc: an array of them per CQ, read field by field into the caller's WorkCompletions
    public static final long WC_SIZE = size("ibv_wc", 48);
    public static final long WC_WR_ID = at("ibv_wc", "wr_id", 0, 8);
    public static final long WC_STATUS = at("ibv_wc", "status", 8, 4);
    public static final long WC_OPCODE = at("ibv_wc", "opcode", 12, 4);
    public static final long WC_VENDOR_ERR = at("ibv_wc", "vendor_err", 16, 4);
    public static final long WC_BYTE_LEN = at("ibv_wc", "byte_len", 20, 4);
    public static final long WC_IMM_DATA = at("ibv_wc", "imm_data", 24, 4);
    public static final long WC_QP_NUM = at("ibv_wc", "qp_num", 28, 4);
    public static final long WC_SRC_QP = at("ibv_wc", "src_qp", 32, 4);
    public static final long WC_WC_FLAGS = at("ibv_wc", "wc_flags", 36, 4);
    public static final long WC_PKEY_INDEX = at("ibv_wc", "pkey_index", 40, 2);
    public static final long WC_SLID = at("ibv_wc", "slid", 42, 2);
    public static final long WC_SL = at("ibv_wc", "sl", 44, 1);
    public static final long WC_DLID_PATH_BITS = at("ibv_wc", "dlid_path_bits", 45, 1);

    // struct ibv_async_event
    public static final long ASYNC_EVENT_SIZE = size("ibv_async_event", 16);
    public static final long AE_ELEMENT = at("ibv_async_event", "element", 0, 8);
    public static final long AE_EVENT_TYPE = at("ibv_async_event", "event_type", 8, 4);

    // librdmacm (rdma/rdma_cma.h), for the rdma_cm provider: the channel's fd, the id's context, QP and addresses,
    // an event, and the connection and datagram parameters
    public static final long CM_CHANNEL_FD = at("rdma_event_channel", "fd", 0, 4);
    public static final long CM_ID_VERBS = at("rdma_cm_id", "verbs", 0, 8);
    public static final long CM_ID_QP = at("rdma_cm_id", "qp", 24, 8);
    public static final long CM_ID_SRC = at("rdma_cm_id", "route.addr.src_addr", 32, 16);
    public static final long CM_ID_DST = at("rdma_cm_id", "route.addr.dst_addr", 160, 16);
    public static final long CM_ID_SIZE = size("rdma_cm_id", 416);
    public static final long CM_EVENT_ID = at("rdma_cm_event", "id", 0, 8);
    public static final long CM_EVENT_LISTEN_ID = at("rdma_cm_event", "listen_id", 8, 8);
    public static final long CM_EVENT_EVENT = at("rdma_cm_event", "event", 16, 4);
    public static final long CM_EVENT_STATUS = at("rdma_cm_event", "status", 20, 4);
    public static final long CM_EVENT_PARAM = at("rdma_cm_event", "param", 24, 56);
    public static final long CM_EVENT_SIZE = size("rdma_cm_event", 80);
    public static final long CP_PRIVATE_DATA = at("rdma_conn_param", "private_data", 0, 8);
    public static final long CP_PRIVATE_DATA_LEN = at("rdma_conn_param", "private_data_len", 8, 1);
    public static final long CP_RESPONDER_RESOURCES = at("rdma_conn_param", "responder_resources", 9, 1);
    public static final long CP_INITIATOR_DEPTH = at("rdma_conn_param", "initiator_depth", 10, 1);
    public static final long CP_FLOW_CONTROL = at("rdma_conn_param", "flow_control", 11, 1);
    public static final long CP_RETRY_COUNT = at("rdma_conn_param", "retry_count", 12, 1);
    public static final long CP_RNR_RETRY_COUNT = at("rdma_conn_param", "rnr_retry_count", 13, 1);
    public static final long CP_SRQ = at("rdma_conn_param", "srq", 14, 1);
    public static final long CP_QP_NUM = at("rdma_conn_param", "qp_num", 16, 4);
    public static final long CONN_PARAM_SIZE = size("rdma_conn_param", 24);
    public static final long UP_PRIVATE_DATA = at("rdma_ud_param", "private_data", 0, 8);
    public static final long UP_PRIVATE_DATA_LEN = at("rdma_ud_param", "private_data_len", 8, 1);
    public static final long UP_AH_ATTR = at("rdma_ud_param", "ah_attr", 16, 32);
    public static final long UP_QP_NUM = at("rdma_ud_param", "qp_num", 48, 4);
    public static final long UP_QKEY = at("rdma_ud_param", "qkey", 52, 4);

    // softrnic's own libibverbs: the device it lists and the attributes it fills
    public static final long DEVICE_SIZE = size("ibv_device", 664);
    public static final long DEVICE_TRANSPORT_TYPE = at("ibv_device", "transport_type", 20, 4);
    public static final long DEVICE_DEV_NAME = at("ibv_device", "dev_name", 88, 64);
    public static final long DEVICE_DEV_PATH = at("ibv_device", "dev_path", 152, 256);
    public static final long DEVICE_IBDEV_PATH = at("ibv_device", "ibdev_path", 408, 256);
    public static final long CONTEXT_SIZE = size("ibv_context", 328);
    public static final long CONTEXT_CMD_FD = at("ibv_context", "cmd_fd", 264, 4);
    public static final long CONTEXT_NUM_COMP_VECTORS = at("ibv_context", "num_comp_vectors", 272, 4);
    public static final long CONTEXT_ABI_COMPAT = at("ibv_context", "abi_compat", 320, 8);
    public static final long DA_SIZE = size("ibv_device_attr", 232);
    public static final long DA_FW_VER = at("ibv_device_attr", "fw_ver", 0, 64);
    public static final long DA_NODE_GUID = at("ibv_device_attr", "node_guid", 64, 8);
    public static final long DA_SYS_IMAGE_GUID = at("ibv_device_attr", "sys_image_guid", 72, 8);
    public static final long DA_PAGE_SIZE_CAP = at("ibv_device_attr", "page_size_cap", 88, 8);
    public static final long DA_DEVICE_CAP_FLAGS = at("ibv_device_attr", "device_cap_flags", 116, 4);
    public static final long DA_MAX_RES_RD_ATOM = at("ibv_device_attr", "max_res_rd_atom", 152, 4);
    public static final long DA_MAX_PKEYS = at("ibv_device_attr", "max_pkeys", 224, 2);
    public static final long DA_LOCAL_CA_ACK_DELAY = at("ibv_device_attr", "local_ca_ack_delay", 226, 1);
    public static final long DA_PHYS_PORT_CNT = at("ibv_device_attr", "phys_port_cnt", 227, 1);
    public static final long PA_PORT_CAP_FLAGS = at("ibv_port_attr", "port_cap_flags", 16, 4);
    public static final long PA_MAX_MSG_SZ = at("ibv_port_attr", "max_msg_sz", 20, 4);
    public static final long PA_MAX_VL_NUM = at("ibv_port_attr", "max_vl_num", 39, 1);
    public static final long PA_ACTIVE_WIDTH = at("ibv_port_attr", "active_width", 43, 1);
    public static final long PA_ACTIVE_SPEED = at("ibv_port_attr", "active_speed", 44, 1);
    public static final long PA_PHYS_STATE = at("ibv_port_attr", "phys_state", 45, 1);
    public static final long GE_SIZE = size("ibv_gid_entry", 32);
    public static final long GE_GID = at("ibv_gid_entry", "gid", 0, 16);
    public static final long GE_GID_INDEX = at("ibv_gid_entry", "gid_index", 16, 4);
    public static final long GE_PORT_NUM = at("ibv_gid_entry", "port_num", 20, 4);
    public static final long GE_GID_TYPE = at("ibv_gid_entry", "gid_type", 24, 4);
    public static final long GE_NDEV_IFINDEX = at("ibv_gid_entry", "ndev_ifindex", 28, 4);

    // the objects softrnic's libibverbs hands out: its handle field indexes the Java side's table
    public static final long PD_SIZE = size("ibv_pd", 16);
    public static final long PD_CONTEXT = at("ibv_pd", "context", 0, 8);
    public static final long PD_HANDLE = at("ibv_pd", "handle", 8, 4);
    public static final long MR_SIZE = size("ibv_mr", 48);
    public static final long MR_CONTEXT = at("ibv_mr", "context", 0, 8);
    public static final long MR_HANDLE = at("ibv_mr", "handle", 32, 4);
    public static final long CQ_SIZE = size("ibv_cq", 128);
    public static final long CQ_CHANNEL = at("ibv_cq", "channel", 8, 8);
    public static final long CQ_CQ_CONTEXT = at("ibv_cq", "cq_context", 16, 8);
    public static final long CQ_HANDLE = at("ibv_cq", "handle", 24, 4);
    public static final long CQ_COMP_EVENTS_COMPLETED = at("ibv_cq", "comp_events_completed", 120, 4);
    public static final long QP_SIZE = size("ibv_qp", 160);
    public static final long QP_QP_CONTEXT = at("ibv_qp", "qp_context", 8, 8);
    public static final long QP_PD = at("ibv_qp", "pd", 16, 8);
    public static final long QP_SEND_CQ = at("ibv_qp", "send_cq", 24, 8);
    public static final long QP_RECV_CQ = at("ibv_qp", "recv_cq", 32, 8);
    public static final long QP_SRQ = at("ibv_qp", "srq", 40, 8);
    public static final long QP_HANDLE = at("ibv_qp", "handle", 48, 4);
    public static final long QP_QP_TYPE = at("ibv_qp", "qp_type", 60, 4);
    public static final long CHANNEL_SIZE = size("ibv_comp_channel", 16);
    public static final long CHANNEL_CONTEXT = at("ibv_comp_channel", "context", 0, 8);
    public static final long CHANNEL_REFCNT = at("ibv_comp_channel", "refcnt", 12, 4);
    public static final long AH_SIZE = size("ibv_ah", 24);
    public static final long AH_CONTEXT = at("ibv_ah", "context", 0, 8);
    public static final long AH_PD = at("ibv_ah", "pd", 8, 8);
    public static final long AH_HANDLE = at("ibv_ah", "handle", 16, 4);
    public static final long QIA_QP_CONTEXT = at("ibv_qp_init_attr", "qp_context", 0, 8);
    public static final long QA_CAP = at("ibv_qp_attr", "cap", 36, 20);
    public static final long QA_PATH_MIG_STATE = at("ibv_qp_attr", "path_mig_state", 12, 4);

    // the extended verbs: struct verbs_context (the ibv_context a program sees is its last member), the extended QP
    // attributes, and struct ibv_qp_ex with its ibv_wr_* table
    public static final long VCTX_SIZE = size("verbs_context", 648);
    public static final long VCTX_CREATE_QP_EX = at("verbs_context", "create_qp_ex", 264, 8);
    public static final long VCTX_SZ = at("verbs_context", "sz", 312, 8);
    public static final long VCTX_CONTEXT = at("verbs_context", "context", 320, 328);
    public static final long QIAX_SIZE = size("ibv_qp_init_attr_ex", 136);
    public static final long QIAX_COMP_MASK = at("ibv_qp_init_attr_ex", "comp_mask", 60, 4);
    public static final long QIAX_PD = at("ibv_qp_init_attr_ex", "pd", 64, 8);
    public static final long QIAX_CREATE_FLAGS = at("ibv_qp_init_attr_ex", "create_flags", 80, 4);
    public static final long QIAX_SEND_OPS_FLAGS = at("ibv_qp_init_attr_ex", "send_ops_flags", 128, 8);
    public static final long QPX_SIZE = size("ibv_qp_ex", 352);
    public static final long QPX_WR_ID = at("ibv_qp_ex", "wr_id", 168, 8);
    public static final long QPX_WR_FLAGS = at("ibv_qp_ex", "wr_flags", 176, 4);
    public static final long QPX_WR_ATOMIC_CMP_SWP = at("ibv_qp_ex", "wr_atomic_cmp_swp", 184, 8);
    public static final long QPX_WR_ATOMIC_FETCH_ADD = at("ibv_qp_ex", "wr_atomic_fetch_add", 192, 8);
    public static final long QPX_WR_LOCAL_INV = at("ibv_qp_ex", "wr_local_inv", 208, 8);
    public static final long QPX_WR_RDMA_READ = at("ibv_qp_ex", "wr_rdma_read", 216, 8);
    public static final long QPX_WR_RDMA_WRITE = at("ibv_qp_ex", "wr_rdma_write", 224, 8);
    public static final long QPX_WR_RDMA_WRITE_IMM = at("ibv_qp_ex", "wr_rdma_write_imm", 232, 8);
    public static final long QPX_WR_SEND = at("ibv_qp_ex", "wr_send", 240, 8);
    public static final long QPX_WR_SEND_IMM = at("ibv_qp_ex", "wr_send_imm", 248, 8);
    public static final long QPX_WR_SEND_INV = at("ibv_qp_ex", "wr_send_inv", 256, 8);
    public static final long QPX_WR_SET_UD_ADDR = at("ibv_qp_ex", "wr_set_ud_addr", 272, 8);
    public static final long QPX_WR_SET_INLINE_DATA = at("ibv_qp_ex", "wr_set_inline_data", 288, 8);
    public static final long QPX_WR_SET_INLINE_DATA_LIST = at("ibv_qp_ex", "wr_set_inline_data_list", 296, 8);
    public static final long QPX_WR_SET_SGE = at("ibv_qp_ex", "wr_set_sge", 304, 8);
    public static final long QPX_WR_SET_SGE_LIST = at("ibv_qp_ex", "wr_set_sge_list", 312, 8);
    public static final long QPX_WR_START = at("ibv_qp_ex", "wr_start", 320, 8);
    public static final long QPX_WR_COMPLETE = at("ibv_qp_ex", "wr_complete", 328, 8);
    public static final long QPX_WR_ABORT = at("ibv_qp_ex", "wr_abort", 336, 8);
    public static final long DATA_BUF_SIZE = size("ibv_data_buf", 16);

    // softrnic's librdmacm: the rest of struct rdma_cm_id, and struct rdma_addrinfo
    public static final long CM_ID_CHANNEL = at("rdma_cm_id", "channel", 8, 8);
    public static final long CM_ID_CONTEXT = at("rdma_cm_id", "context", 16, 8);
    public static final long CM_ID_PS = at("rdma_cm_id", "ps", 344, 4);
    public static final long CM_ID_PORT_NUM = at("rdma_cm_id", "port_num", 348, 1);
    public static final long CM_ID_PD = at("rdma_cm_id", "pd", 400, 8);
    public static final long CM_ID_QP_TYPE = at("rdma_cm_id", "qp_type", 408, 4);
    public static final long CM_CHANNEL_SIZE = size("rdma_event_channel", 4);
    public static final long RAI_SIZE = size("rdma_addrinfo", 96);
    public static final long RAI_FLAGS = at("rdma_addrinfo", "ai_flags", 0, 4);
    public static final long RAI_FAMILY = at("rdma_addrinfo", "ai_family", 4, 4);
    public static final long RAI_QP_TYPE = at("rdma_addrinfo", "ai_qp_type", 8, 4);
    public static final long RAI_PORT_SPACE = at("rdma_addrinfo", "ai_port_space", 12, 4);
    public static final long RAI_SRC_LEN = at("rdma_addrinfo", "ai_src_len", 16, 4);
    public static final long RAI_DST_LEN = at("rdma_addrinfo", "ai_dst_len", 20, 4);
    public static final long RAI_SRC_ADDR = at("rdma_addrinfo", "ai_src_addr", 24, 8);
    public static final long RAI_DST_ADDR = at("rdma_addrinfo", "ai_dst_addr", 32, 8);
    public static final long RAI_NEXT = at("rdma_addrinfo", "ai_next", 88, 8);

    // struct ibv_srq and ibv_srq_attr, for softrnic's libibverbs
    public static final long SRQ_SIZE = size("ibv_srq", 128);
    public static final long SRQ_SRQ_CONTEXT = at("ibv_srq", "srq_context", 8, 8);
    public static final long SRQ_PD = at("ibv_srq", "pd", 16, 8);
    public static final long SRQ_HANDLE = at("ibv_srq", "handle", 24, 4);
    public static final long SIA_SRQ_CONTEXT = at("ibv_srq_init_attr", "srq_context", 0, 8);
    public static final long SA_MAX_WR = at("ibv_srq_attr", "max_wr", 0, 4);
    public static final long SA_MAX_SGE = at("ibv_srq_attr", "max_sge", 4, 4);
}
