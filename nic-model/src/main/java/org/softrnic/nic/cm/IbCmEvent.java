package org.softrnic.nic.cm;

/** What the CM tells the consumer of an id, with the kernel's names (enum ib_cm_event_type, without IB_CM_). */
public enum IbCmEvent {
    REQ_ERROR, REQ_RECEIVED, REP_ERROR, REP_RECEIVED, RTU_RECEIVED, USER_ESTABLISHED, DREQ_ERROR, DREQ_RECEIVED,
    DREP_RECEIVED, TIMEWAIT_EXIT, MRA_RECEIVED, REJ_RECEIVED, SIDR_REQ_ERROR, SIDR_REQ_RECEIVED, SIDR_REP_RECEIVED
}
