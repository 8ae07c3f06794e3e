package org.softrnic.verbs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

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

    /**
     * ibv_init_ah_from_wc for RoCE: the way back to whoever sent the datagram whose 40-byte GRH area is
     * {@code grh} (an IPv4 header fills its last 20 bytes, an IPv6 header all 40): the sender's address as the
     * destination, its traffic class and flow label, hop limit 0xFF, from local GID {@code sgidIndex}.
     */
    public static AddressVector fromGrh(MemorySegment grh, int sgidIndex) {
        if (isIpv4(grh)) {
            return new AddressVector(Gid.of(ipv4(grh, 32)), sgidIndex, 0, 0xff, grh.get(ValueLayout.JAVA_BYTE, 21) & 0xff);
        }
        int word = grh.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), 0);
        return new AddressVector(Gid.of(grh.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE)), sgidIndex, word & 0xfffff, 0xff,
                (word >>> 20) & 0xff);
    }

    /** The GRH area's destination address: the local GID the datagram was sent to. */
    public static Gid grhDestination(MemorySegment grh) {
        return isIpv4(grh) ? Gid.of(ipv4(grh, 36)) : Gid.of(grh.asSlice(24, 16).toArray(ValueLayout.JAVA_BYTE));
    }

    /**
     * Which header the area holds, as rdma-core's get_grh_header_version tells: not IPv6 by its first nibble, then
     * IPv4 if the header at byte 20 says so (else EPROTONOSUPPORT); IPv6 by its first nibble, then IPv4 all the same
     * when byte 20 holds a 20-byte IPv4 header with a valid checksum.
     */
    private static boolean isIpv4(MemorySegment grh) {
        if (grh.byteSize() < 40) throw new IllegalArgumentException("a GRH area is 40 bytes, not " + grh.byteSize());
        int v4 = grh.get(ValueLayout.JAVA_BYTE, 20) & 0xff;
        if ((grh.get(ValueLayout.JAVA_BYTE, 0) & 0xf0) != 0x60) {
            if (v4 >>> 4 == 4) return true;
            throw new VerbsException("ibv_init_ah_from_wc", Errno.EPROTONOSUPPORT, "the GRH area holds neither an IPv4 nor an IPv6 header");
        }
        if (v4 != 0x45) return false;
        int sum = 0;
        for (int i = 20; i < 40; i += 2) sum += (grh.get(ValueLayout.JAVA_BYTE, i) & 0xff) << 8 | (grh.get(ValueLayout.JAVA_BYTE, i + 1) & 0xff);
        while ((sum >>> 16) != 0) sum = (sum & 0xffff) + (sum >>> 16);
        return sum == 0xffff;
    }

    private static java.net.InetAddress ipv4(MemorySegment grh, int at) {
        try {
            return java.net.InetAddress.getByAddress(grh.asSlice(at, 4).toArray(ValueLayout.JAVA_BYTE));
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
