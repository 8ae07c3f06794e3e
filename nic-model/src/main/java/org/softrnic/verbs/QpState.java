package org.softrnic.verbs;

/** enum ibv_qp_state (IBTA 10.3.1), in rdma-core's order. */
public enum QpState {
    RESET, INIT, RTR, RTS, SQD, SQE, ERR;

    public String ibvName() {
        return "IBV_QPS_" + name();
    }
}
