package org.softrnic.wire;

/** What an opcode does, as the requester, responder and completer branch on it. */
public enum OpClass {
    SEND(true),
    RDMA_WRITE(true),
    RDMA_READ_REQUEST(true),
    RDMA_READ_RESPONSE(false),
    ACKNOWLEDGE(false),
    ATOMIC_ACKNOWLEDGE(false),
    ATOMIC(true),
    RESYNC(true),
    FLUSH(true),
    ATOMIC_WRITE(true),
    CNP(false);

    /** True for requests (rxe RXE_REQ_MASK), false for responses and congestion notifications. */
    public final boolean request;

    OpClass(boolean request) {
        this.request = request;
    }
}
