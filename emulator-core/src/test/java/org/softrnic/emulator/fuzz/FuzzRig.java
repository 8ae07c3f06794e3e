package org.softrnic.emulator.fuzz;

import org.softrnic.nic.Nic;

/**
 * Two soft RNICs, A (side 0) and B (side 1), joined by a link, and a way to put any IPv4 packet in front of
 * either as if it came from the address in its source field: the peer's own, or a stranger's.
 */
interface FuzzRig extends AutoCloseable {
    Nic nic(int side);

    /** The side's IPv4 address, as an int. */
    int ip(int side);

    /** An address on the link that is neither device's. */
    int strangerIp();

    /**
     * Delivers {@code ip} (an IPv4 packet, changed in place) to {@code side}. With {@code restamp} its ICRC is
     * made valid for the headers the receiver sees (over kernel UDP: the ones it rebuilds); without, it stays.
     * Returns whether the receiver will find the ICRC valid: the fuzzer's record of what could take effect.
     */
    boolean inject(int side, byte[] ip, boolean restamp);

    /** Moves packets and timers for a short while. */
    void pump();

    /** The clock the devices use. */
    long nanoTime();

    /** Packets that reached the side's device, hostile and genuine. */
    long received(int side);

    /** What the link changes, for header mutations that only mean something where the receiver sees the header. */
    boolean seesIpHeader();

    @Override
    void close();
}
