package org.softrnic.emulator.perf;

import org.softrnic.verbs.SendOpcode;

/** The operations `softrnic perf` measures, with perftest's test names. */
public enum PerfOp {
    WRITE(SendOpcode.RDMA_WRITE, "RDMA_Write"),
    READ(SendOpcode.RDMA_READ, "RDMA_Read"),
    SEND(SendOpcode.SEND, "Send"),
    ATOMIC(SendOpcode.ATOMIC_FETCH_AND_ADD, "Atomic FETCH_AND_ADD");

    public final SendOpcode opcode;
    public final String title;

    PerfOp(SendOpcode opcode, String title) {
        this.opcode = opcode;
        this.title = title;
    }
}
