package org.softrnic.nic;

import org.softrnic.wire.PacketBuffer;

/**
 * Where the model's packets go: complete IPv4 or IPv6 packets (IP, UDP, BTH through ICRC), starting at
 * {@code offset}. The buffer is reused as soon as this returns, so a sink copies what it keeps.
 */
@FunctionalInterface
public interface PacketSink {
    void transmit(PacketBuffer buffer, int offset, int length);
}
