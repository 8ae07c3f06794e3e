package org.softrnic.emulator.cabi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** struct sockaddr_in and sockaddr_in6 to and from Java's addresses (AF_IB is not served: softrnic is RoCE). */
final class CabiSockaddr {
    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final ValueLayout.OfShort BE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);

    private CabiSockaddr() {
    }

    /** The address at {@code sa}, or null for a NULL pointer. */
    static InetSocketAddress read(MemorySegment sa) {
        if (sa.equals(MemorySegment.NULL)) return null;
        MemorySegment s = sa.reinterpret(28);
        int family = s.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0);
        int port = s.get(BE_SHORT, 2) & 0xffff;
        byte[] raw = switch (family) {
            case AF_INET -> s.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE);
            case AF_INET6 -> s.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
            default -> throw Cabi.error("rdma_cm", 97, "address family " + family + " (softrnic takes AF_INET and AF_INET6)"); // EAFNOSUPPORT
        };
        try {
            return new InetSocketAddress(InetAddress.getByAddress(raw), port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final java.util.concurrent.ConcurrentHashMap<Long, java.lang.foreign.Arena> ADDRINFO = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * rdma_getaddrinfo: {@code node} (a name or a numeric address; none: the wildcard) and {@code service} (a port
     * number) as one struct rdma_addrinfo, its address the source with RAI_PASSIVE in the hints, else the destination;
     * the hints' family, QP type and port space, or RC over RDMA_PS_TCP.
     */
    static int rdma_getaddrinfo(MemorySegment node, MemorySegment service, MemorySegment hints, MemorySegment resOut) {
        int flags = 0;
        int family = 0;
        int qpType = 2;
        int ps = 0x0106;
        if (!hints.equals(MemorySegment.NULL)) {
            MemorySegment h = hints.reinterpret(org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_SIZE);
            flags = h.get(ValueLayout.JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_FLAGS);
            family = h.get(ValueLayout.JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_FAMILY);
            if (h.get(ValueLayout.JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_QP_TYPE) != 0) qpType = h.get(ValueLayout.JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_QP_TYPE);
            if (h.get(ValueLayout.JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_PORT_SPACE) != 0) ps = h.get(ValueLayout.JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_PORT_SPACE);
        }
        String name = node.equals(MemorySegment.NULL) ? null : node.reinterpret(1024).getString(0);
        int port = 0;
        if (!service.equals(MemorySegment.NULL)) {
            String svc = service.reinterpret(64).getString(0);
            try {
                port = Integer.parseInt(svc.trim());
            } catch (NumberFormatException e) {
                throw Cabi.error("rdma_getaddrinfo", 22, "service '" + svc + "' is not a port number");
            }
        }
        InetAddress ip;
        try {
            if (name == null) {
                ip = InetAddress.getByAddress(family == AF_INET6 ? new byte[16] : new byte[4]);
            } else {
                ip = null;
                for (InetAddress a : InetAddress.getAllByName(name)) {
                    if (family == AF_INET6 ? a instanceof Inet6Address : family == AF_INET ? a instanceof Inet4Address : true) {
                        ip = a;
                        if (a instanceof Inet4Address || family == AF_INET6) break; // IPv4 first, as softrnic's GIDs are
                    }
                }
                if (ip == null) throw new UnknownHostException(name);
            }
        } catch (UnknownHostException e) {
            throw Cabi.error("rdma_getaddrinfo", 99, "no address for " + name); // EADDRNOTAVAIL
        }
        java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared();
        MemorySegment r = arena.allocate(org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_SIZE, 8).fill((byte) 0);
        MemorySegment sa = arena.allocate(128, 8);
        int len = write(new InetSocketAddress(ip, port), sa);
        boolean passive = (flags & 1) != 0;
        r.set(ValueLayout.JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_FLAGS, flags);
        r.set(ValueLayout.JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_FAMILY, ip instanceof Inet4Address ? AF_INET : AF_INET6);
        r.set(ValueLayout.JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_QP_TYPE, qpType);
        r.set(ValueLayout.JAVA_INT, org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_PORT_SPACE, ps);
        r.set(ValueLayout.JAVA_INT, passive ? org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_SRC_LEN : org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_DST_LEN, len);
        r.set(ValueLayout.ADDRESS, passive ? org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_SRC_ADDR : org.softrnic.emulator.rdmacore.RdmaCoreLayout.RAI_DST_ADDR, sa);
        ADDRINFO.put(r.address(), arena);
        resOut.reinterpret(8).set(ValueLayout.ADDRESS, 0, r);
        return 0;
    }

    static void rdma_freeaddrinfo(MemorySegment res) {
        java.lang.foreign.Arena a = ADDRINFO.remove(res.address());
        if (a != null) a.close();
    }

    /** Writes {@code a} at {@code to} (room for a sockaddr_in6): its length. */
    static int write(InetSocketAddress a, MemorySegment to) {
        MemorySegment s = to.reinterpret(28).fill((byte) 0);
        if (a == null) return 0;
        InetAddress ip = a.getAddress();
        s.set(BE_SHORT, 2, (short) a.getPort());
        if (ip instanceof Inet4Address) {
            s.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short) AF_INET);
            MemorySegment.copy(ip.getAddress(), 0, s, ValueLayout.JAVA_BYTE, 4, 4);
            return 16;
        }
        s.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short) AF_INET6);
        MemorySegment.copy(ip.getAddress(), 0, s, ValueLayout.JAVA_BYTE, 8, 16);
        if (ip instanceof Inet6Address v6) s.set(ValueLayout.JAVA_INT_UNALIGNED, 24, v6.getScopeId());
        return 28;
    }
}
