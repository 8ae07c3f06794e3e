package org.softrnic.verbs;

/**
 * Where packets go (struct ibv_ah_attr with its GRH): the destination GID, the local GID index, and the
 * IP header fields the GRH maps to in RoCEv2.
 *
 * @param trafficClass DSCP in bits 7-2 and ECN in bits 1-0 of the IP TOS / traffic class
 * @param flowLabel    20 bits; 0 lets RC derive the UDP source port from the QPNs, as rxe does
 * @param udpPort      the peer's RoCE UDP port, or 0 for this device's own (4791 unless configured): a
 *                     softrnic extension, so that several soft RNICs on one host reach each other with
 *                     packets that are valid on the wire
 */
public record AddressVector(Gid dgid, int sgidIndex, int flowLabel, int hopLimit, int trafficClass, int udpPort) {
    public AddressVector(Gid dgid, int sgidIndex, int flowLabel, int hopLimit, int trafficClass) {
        this(dgid, sgidIndex, flowLabel, hopLimit, trafficClass, 0);
    }

    public AddressVector {
        if (udpPort < 0 || udpPort > 0xffff) throw new IllegalArgumentException("UDP port not 0..65535");
        if (dgid == null) throw new IllegalArgumentException("the address vector needs a destination GID");
        if ((flowLabel & ~0xfffff) != 0) throw new IllegalArgumentException("flow label not 20-bit");
        if ((hopLimit & ~0xff) != 0 || (trafficClass & ~0xff) != 0) throw new IllegalArgumentException("out of range");
    }

    public static AddressVector to(Gid dgid) {
        return new AddressVector(dgid, 0, 0, 64, 0);
    }

    /** The same address at the peer's RoCE port {@code port}. */
    public AddressVector withUdpPort(int port) {
        return new AddressVector(dgid, sgidIndex, flowLabel, hopLimit, trafficClass, port);
    }
}
