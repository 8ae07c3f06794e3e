package org.softrnic.nic;

import org.softrnic.wire.PacketBuffer;

/**
 * Where the model's packets go: complete IPv4 or IPv6 packets (IP, UDP, BTH through ICRC), starting at
 * {@code offset}, with free room in front of it for a link header.
 */
@FunctionalInterface
public interface PacketSink {
    /** Smallest capacity of a buffer a sink hands back from {@link #handOver}. */
    int BUFFER_BYTES = 16 + 4096 + 256;

    /**
     * Takes a copy of the packet: the buffer is reused as soon as this returns. Returns false when the link
     * could not send it (a full socket buffer); the device counts send_err and the packet is lost.
     */
    boolean transmit(PacketBuffer buffer, int offset, int length);

    /**
     * Takes the buffer itself and returns the one the device builds its next packet in (of at least
     * {@link #BUFFER_BYTES}), so a link that can own buffers avoids a copy; or null when the packet could not
     * be sent and the device keeps its buffer. By default, copies.
     */
    default PacketBuffer handOver(PacketBuffer buffer, int offset, int length) {
        return transmit(buffer, offset, length) ? buffer : null;
    }
}
