package org.softrnic.verbs;

/** An affiliated or unaffiliated asynchronous event (enum ibv_event_type) and the object it concerns. */
public record AsyncEvent(Type type, Object subject) {
    public enum Type {
        CQ_ERR, QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR, COMM_EST, SQ_DRAINED, PATH_MIG, PATH_MIG_ERR, DEVICE_FATAL,
        PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, SRQ_ERR, SRQ_LIMIT_REACHED, QP_LAST_WQE_REACHED,
        CLIENT_REREGISTER, GID_CHANGE;

        public String ibvName() {
            return "IBV_EVENT_" + name();
        }
    }
}
