package org.softrnic.wire.mad;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The RDMA CM's header at the front of a REQ's or SIDR_REQ's private data (the kernel's struct cma_hdr, 36
 * bytes): version 0, the IP version in the high nibble, the active side's own port, then its address and the
 * passive side's, each in 16 bytes (IPv4: 12 zero bytes and the address, not ::ffff:a.b.c.d).
 *
 * @param version   cma_version (0; anything else is refused with REJ 28)
 * @param ipVersion 4 or 6 (the byte's high nibble)
 * @param srcPort   the active side's rdma_cm port
 * @param src       the active side's address
 * @param dst       the passive side's address
 */
public record CmaHeader(int version, int ipVersion, int srcPort, InetAddress src, InetAddress dst) {
    public static final int SIZE = 36;
    /** RDMA_PS_TCP and RDMA_PS_UDP: the port spaces' values in the service ID's bits 31:16. */
    public static final int PS_TCP = 0x0106, PS_UDP = 0x0111;

    /** The service ID rdma_cm listens on for {@code port} in port space {@code ps} (rdma_get_service_id). */
    public static long serviceId(int ps, int port) {
        return ((long) ps << 16) + port;
    }

    /** Reads the header at {@code offset} of {@code mad}; null when its IP version is neither 4 nor 6. */
    public static CmaHeader read(MemorySegment mad, int offset) {
        int version = mad.get(ValueLayout.JAVA_BYTE, offset) & 0xff;
        int ip = (mad.get(ValueLayout.JAVA_BYTE, offset + 1) & 0xff) >>> 4;
        if (ip != 4 && ip != 6) return null;
        int port = (mad.get(ValueLayout.JAVA_BYTE, offset + 2) & 0xff) << 8 | mad.get(ValueLayout.JAVA_BYTE, offset + 3) & 0xff;
        return new CmaHeader(version, ip, port, address(mad, offset + 4, ip), address(mad, offset + 20, ip));
    }

    /** Writes the header at {@code offset} of {@code mad}. */
    public void write(MemorySegment mad, int offset) {
        mad.asSlice(offset, SIZE).fill((byte) 0);
        mad.set(ValueLayout.JAVA_BYTE, offset, (byte) version);
        mad.set(ValueLayout.JAVA_BYTE, offset + 1, (byte) (ipVersion << 4));
        mad.set(ValueLayout.JAVA_BYTE, offset + 2, (byte) (srcPort >>> 8));
        mad.set(ValueLayout.JAVA_BYTE, offset + 3, (byte) srcPort);
        put(mad, offset + 4, src);
        put(mad, offset + 20, dst);
    }

    private static InetAddress address(MemorySegment mad, int at, int ip) {
        byte[] b = new byte[ip == 4 ? 4 : 16];
        MemorySegment.copy(mad, ValueLayout.JAVA_BYTE, ip == 4 ? at + 12 : at, b, 0, b.length);
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new AssertionError(e); // 4 or 16 bytes are always an address
        }
    }

    private static void put(MemorySegment mad, int at, InetAddress a) {
        byte[] b = a.getAddress();
        MemorySegment.copy(b, 0, mad, ValueLayout.JAVA_BYTE, b.length == 4 ? at + 12 : at, b.length);
    }
}
