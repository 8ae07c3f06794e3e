package org.softrnic.verbs.cm;

/** rdma_cm's events (enum rdma_cm_event_type), in its order; {@link #toString} is rdma_event_str's name. */
public enum CmEventType {
    ADDR_RESOLVED, ADDR_ERROR, ROUTE_RESOLVED, ROUTE_ERROR, CONNECT_REQUEST, CONNECT_RESPONSE, CONNECT_ERROR,
    UNREACHABLE, REJECTED, ESTABLISHED, DISCONNECTED, DEVICE_REMOVAL, MULTICAST_JOIN, MULTICAST_ERROR,
    ADDR_CHANGE, TIMEWAIT_EXIT;

    @Override
    public String toString() {
        return "RDMA_CM_EVENT_" + name();
    }
}
