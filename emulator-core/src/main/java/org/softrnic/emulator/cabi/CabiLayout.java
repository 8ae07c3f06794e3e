package org.softrnic.emulator.cabi;

/**
 * Where rdma-core's public structs keep the fields softrnic's libibverbs fills (x86-64, rdma-core 44's headers).
 * Each offset, width and size is recorded once, so that {@code CabiLayoutTest} can compile a C program against the
 * installed {@code infiniband/verbs.h} that checks every one with offsetof and sizeof.
 */
final class CabiLayout {
    private static final org.softrnic.emulator.os.StructFacts FACTS = new org.softrnic.emulator.os.StructFacts();

    private CabiLayout() {
    }

    static java.util.List<org.softrnic.emulator.os.StructFacts.Fact> facts() {
        return FACTS.facts();
    }

    private static long at(String struct, String member, long offset, long width) {
        return FACTS.at(struct, member, offset, width);
    }

    private static long size(String struct, long size) {
        return FACTS.size(struct, size);
    }

    // struct ibv_device: what ibv_get_device_list hands out
    static final long DEVICE_SIZE = size("ibv_device", 664);
    static final long DEVICE_NODE_TYPE = at("ibv_device", "node_type", 16, 4);
    static final long DEVICE_TRANSPORT_TYPE = at("ibv_device", "transport_type", 20, 4);
    static final long DEVICE_NAME = at("ibv_device", "name", 24, 64);
    static final long DEVICE_DEV_NAME = at("ibv_device", "dev_name", 88, 64);
    static final long DEVICE_DEV_PATH = at("ibv_device", "dev_path", 152, 256);
    static final long DEVICE_IBDEV_PATH = at("ibv_device", "ibdev_path", 408, 256);

    // struct ibv_context
    static final long CONTEXT_SIZE = size("ibv_context", 328);
    static final long CONTEXT_DEVICE = at("ibv_context", "device", 0, 8);
    static final long CONTEXT_CMD_FD = at("ibv_context", "cmd_fd", 264, 4);
    static final long CONTEXT_ASYNC_FD = at("ibv_context", "async_fd", 268, 4);
    static final long CONTEXT_NUM_COMP_VECTORS = at("ibv_context", "num_comp_vectors", 272, 4);
    static final long CONTEXT_ABI_COMPAT = at("ibv_context", "abi_compat", 320, 8);

    // struct ibv_device_attr
    static final long DA_SIZE = size("ibv_device_attr", 232);
    static final long DA_FW_VER = at("ibv_device_attr", "fw_ver", 0, 64);
    static final long DA_NODE_GUID = at("ibv_device_attr", "node_guid", 64, 8);
    static final long DA_SYS_IMAGE_GUID = at("ibv_device_attr", "sys_image_guid", 72, 8);
    static final long DA_MAX_MR_SIZE = at("ibv_device_attr", "max_mr_size", 80, 8);
    static final long DA_PAGE_SIZE_CAP = at("ibv_device_attr", "page_size_cap", 88, 8);
    static final long DA_MAX_QP = at("ibv_device_attr", "max_qp", 108, 4);
    static final long DA_MAX_QP_WR = at("ibv_device_attr", "max_qp_wr", 112, 4);
    static final long DA_DEVICE_CAP_FLAGS = at("ibv_device_attr", "device_cap_flags", 116, 4);
    static final long DA_MAX_SGE = at("ibv_device_attr", "max_sge", 120, 4);
    static final long DA_MAX_SGE_RD = at("ibv_device_attr", "max_sge_rd", 124, 4);
    static final long DA_MAX_CQ = at("ibv_device_attr", "max_cq", 128, 4);
    static final long DA_MAX_CQE = at("ibv_device_attr", "max_cqe", 132, 4);
    static final long DA_MAX_MR = at("ibv_device_attr", "max_mr", 136, 4);
    static final long DA_MAX_PD = at("ibv_device_attr", "max_pd", 140, 4);
    static final long DA_MAX_QP_RD_ATOM = at("ibv_device_attr", "max_qp_rd_atom", 144, 4);
    static final long DA_MAX_RES_RD_ATOM = at("ibv_device_attr", "max_res_rd_atom", 152, 4);
    static final long DA_MAX_QP_INIT_RD_ATOM = at("ibv_device_attr", "max_qp_init_rd_atom", 156, 4);
    static final long DA_ATOMIC_CAP = at("ibv_device_attr", "atomic_cap", 164, 4);
    static final long DA_MAX_MW = at("ibv_device_attr", "max_mw", 176, 4);
    static final long DA_MAX_AH = at("ibv_device_attr", "max_ah", 200, 4);
    static final long DA_MAX_SRQ = at("ibv_device_attr", "max_srq", 212, 4);
    static final long DA_MAX_SRQ_WR = at("ibv_device_attr", "max_srq_wr", 216, 4);
    static final long DA_MAX_SRQ_SGE = at("ibv_device_attr", "max_srq_sge", 220, 4);
    static final long DA_MAX_PKEYS = at("ibv_device_attr", "max_pkeys", 224, 2);
    static final long DA_LOCAL_CA_ACK_DELAY = at("ibv_device_attr", "local_ca_ack_delay", 226, 1);
    static final long DA_PHYS_PORT_CNT = at("ibv_device_attr", "phys_port_cnt", 227, 1);

    // struct ibv_port_attr (ibv_query_port writes no further than rdma-core 44's _compat_ibv_port_attr)
    static final long PA_STATE = at("ibv_port_attr", "state", 0, 4);
    static final long PA_MAX_MTU = at("ibv_port_attr", "max_mtu", 4, 4);
    static final long PA_ACTIVE_MTU = at("ibv_port_attr", "active_mtu", 8, 4);
    static final long PA_GID_TBL_LEN = at("ibv_port_attr", "gid_tbl_len", 12, 4);
    static final long PA_PORT_CAP_FLAGS = at("ibv_port_attr", "port_cap_flags", 16, 4);
    static final long PA_MAX_MSG_SZ = at("ibv_port_attr", "max_msg_sz", 20, 4);
    static final long PA_PKEY_TBL_LEN = at("ibv_port_attr", "pkey_tbl_len", 32, 2);
    static final long PA_MAX_VL_NUM = at("ibv_port_attr", "max_vl_num", 39, 1);
    static final long PA_ACTIVE_WIDTH = at("ibv_port_attr", "active_width", 43, 1);
    static final long PA_ACTIVE_SPEED = at("ibv_port_attr", "active_speed", 44, 1);
    static final long PA_PHYS_STATE = at("ibv_port_attr", "phys_state", 45, 1);
    static final long PA_LINK_LAYER = at("ibv_port_attr", "link_layer", 46, 1);

    // struct ibv_gid_entry (_ibv_query_gid_ex)
    static final long GE_SIZE = size("ibv_gid_entry", 32);
    static final long GE_GID = at("ibv_gid_entry", "gid", 0, 16);
    static final long GE_GID_INDEX = at("ibv_gid_entry", "gid_index", 16, 4);
    static final long GE_PORT_NUM = at("ibv_gid_entry", "port_num", 20, 4);
    static final long GE_GID_TYPE = at("ibv_gid_entry", "gid_type", 24, 4);
    static final long GE_NDEV_IFINDEX = at("ibv_gid_entry", "ndev_ifindex", 28, 4);
}
