package org.softrnic.nic.cm;

/** An rdma_cm id's state, with the kernel's names (cma_priv.h, enum rdma_cm_state, without RDMA_CM_). */
public enum CmaState {
    IDLE, ADDR_QUERY, ADDR_RESOLVED, ROUTE_QUERY, ROUTE_RESOLVED, CONNECT, DISCONNECT, ADDR_BOUND, LISTEN,
    DEVICE_REMOVAL, DESTROYING
}
