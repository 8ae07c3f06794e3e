package org.softrnic.nic;

import org.softrnic.wire.PacketBuffer;

/**
 * Where a link hands what it received: complete IPv4 or IPv6 packets (IP, UDP, BTH through ICRC). The device
 * ({@link Nic}) is one; a link knows nothing more of it.
 */
public interface PacketReceiver {
    /** One received packet at {@code offset}; the buffer is the link's again once this returns. */
    void receive(PacketBuffer buffer, int offset, int length);

    /**
     * A link with several packets at hand may announce packets {@code from} to {@code from + n} before it hands
     * them over one by one, so that the receiver loads their state together. It only reads; by default, nothing.
     */
    default void warm(PacketBuffer[] buffers, int[] offsets, int[] lengths, int from, int n) {
    }
}
