package org.softrnic.cli.decode;

import java.util.stream.Collectors;
import org.softrnic.wire.HeaderKind;
import org.softrnic.wire.Opcode;

/** Plain-language descriptions derived from the opcode table, so nothing here lists opcodes again. */
public final class OpcodeText {
    private OpcodeText() {}

    public static String meaning(Opcode op) {
        String what = switch (op.opClass) {
            case SEND -> "SEND: data into the receiver's next receive buffer";
            case RDMA_WRITE -> "RDMA WRITE: data straight into remote memory";
            case RDMA_READ_REQUEST -> "RDMA READ request: asks the responder to send remote memory back";
            case RDMA_READ_RESPONSE -> "RDMA READ response: data read from remote memory; it also acknowledges";
            case ACKNOWLEDGE -> "ACK or NAK: the AETH says which";
            case ATOMIC_ACKNOWLEDGE -> "atomic ACK: carries the value the atomic found";
            case ATOMIC -> op.name().endsWith("COMPARE_SWAP") ? "atomic compare-and-swap on 8 remote bytes"
                    : "atomic fetch-and-add on 8 remote bytes";
            case RESYNC -> "RD resync";
            case FLUSH -> "FLUSH: make earlier writes visible or persistent";
            case ATOMIC_WRITE -> "ATOMIC WRITE: 8 bytes written as one unit";
            case CNP -> "congestion notification packet: the receiver saw ECN CE, the sender should slow down";
        };
        String where = switch (op.position) {
            case FIRST -> "first packet of a multi-packet message";
            case MIDDLE -> "middle packet";
            case LAST -> "last packet of its message";
            case ONLY -> "whole message in one packet";
        };
        String headers = op.headers().isEmpty() ? "" : "; headers " + op.headers().stream()
                .filter(h -> h != HeaderKind.CNP_PAD).map(Enum::name).collect(Collectors.joining(", "));
        return op.transport() + " " + what + ", " + where + headers;
    }
}
