package org.softrnic.verbs.cm;

/** rdma_cm's port spaces (enum rdma_port_space): the value sits in bits 31:16 of the service ID. */
public enum PortSpace {
    /** Reliable connections (RC), as TCP ports. */
    TCP(0x0106),
    /** Unreliable datagrams (UD), reached through SIDR. */
    UDP(0x0111);

    public final int value;

    PortSpace(int value) {
        this.value = value;
    }

    /** rdma_get_service_id: the IB service ID a listener on {@code port} answers to. */
    /** rdma_cma.h's name: RDMA_PS_TCP, RDMA_PS_UDP. */
    public String cmName() {
        return "RDMA_PS_" + name();
    }

    public long serviceId(int port) {
        return ((long) value << 16) + port;
    }
}
