package org.softrnic.emulator.link;

import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.PacketReceiver;
import org.softrnic.nic.PacketSink;

/** RoCEv2 over a kernel UDP socket, whichever way the socket is driven: libc ({@link NativeUdpLink}) or the JDK ({@link UdpLink}). */
public interface DatagramLink extends PacketSink, AutoCloseable {
    /** Hands up to {@code budget} received packets to {@code nic}, headers rebuilt; returns how many. */
    int poll(PacketReceiver nic, int budget);

    /** Sends what was handed over and held back to batch. */
    default void flush() {
    }

    /** The RC PSNs a device on this link may keep in flight over all its QPs. */
    int txWindow();

    /** What the socket does to the headers the ICRC covers. */
    LinkProfile profile();

    /** The UDP destination port the device expects in its packets' headers. */
    int rocePort();

    /**
     * Packets for {@code peer} go to its socket port {@code port} instead of the RoCE port they carry (several
     * soft RNICs on one address); only another softrnic link accepts those.
     */
    void route(java.net.InetAddress peer, int port);

    /**
     * A link that changes packets after the device built them (the libc link numbers GSO segments) records
     * what leaves itself: returns whether it took {@code tap}.
     */
    default boolean tapSent(PacketSink tap) {
        return false;
    }

    /** Datagrams the kernel refused. */
    long sendDropped();

    @Override
    void close();
}
