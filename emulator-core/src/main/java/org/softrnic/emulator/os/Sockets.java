package org.softrnic.emulator.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The BSD socket calls a native UDP link needs, from libc through FFM, with the Linux constants and struct
 * layouts (LP64: x86-64 and aarch64 alike). Each handle takes a capture-state segment first ({@link Libc#errno}).
 * The batched calls take native arrays of {@code struct mmsghdr}, so a burst of datagrams is one call and no
 * Java object.
 */
public final class Sockets {
    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;
    public static final int SOCK_DGRAM = 2;
    public static final int SOCK_NONBLOCK = 0x800;
    public static final int SOCK_CLOEXEC = 0x80000;

    public static final int SOL_SOCKET = 1;
    public static final int SO_SNDBUF = 7;
    public static final int SO_RCVBUF = 8;
    public static final int IPPROTO_IP = 0;
    public static final int IP_TOS = 1;
    public static final int IP_MTU_DISCOVER = 10;
    public static final int IP_PMTUDISC_DO = 2;
    public static final int IP_RECVTOS = 13;
    public static final int IPPROTO_IPV6 = 41;
    public static final int IPV6_V6ONLY = 26;
    public static final int IPV6_RECVTCLASS = 66;
    public static final int IPV6_TCLASS = 67;
    public static final int SOL_UDP = 17;
    public static final int UDP_NO_CHECK6_TX = 101;
    public static final int UDP_NO_CHECK6_RX = 102;
    public static final int UDP_SEGMENT = 103;
    public static final int UDP_GRO = 104;

    public static final int MSG_DONTWAIT = 0x40;
    public static final int MSG_TRUNC = 0x20;
    public static final int EINVAL = 22;
    public static final int EIO = 5;
    public static final int EMSGSIZE = 90;

    /** struct iovec: base, length. */
    public static final int IOVEC = 16;
    /** struct msghdr: name, namelen, iov, iovlen, control, controllen, flags. */
    public static final int MSG_NAME = 0, MSG_NAMELEN = 8, MSG_IOV = 16, MSG_IOVLEN = 24, MSG_CONTROL = 32,
            MSG_CONTROLLEN = 40, MSG_FLAGS = 48;
    /** struct mmsghdr: a msghdr, then the bytes moved. */
    public static final int MMSGHDR = 64, MMSG_LEN = 56;
    /** struct cmsghdr: length (size_t), level, type, then the data at 16. */
    public static final int CMSG_LEVEL = 8, CMSG_TYPE = 12, CMSG_DATA = 16;
    /** sockaddr_in6 is the larger address: 28 bytes. */
    public static final int SOCKADDR_BYTES = 32;

    public static final MethodHandle BIND = Libc.handle("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), Libc.ERRNO);
    public static final MethodHandle GETSOCKNAME = Libc.handle("getsockname",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), Libc.ERRNO);
    public static final MethodHandle SETSOCKOPT = Libc.handle("setsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), Libc.ERRNO);
    public static final MethodHandle GETSOCKOPT = Libc.handle("getsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), Libc.ERRNO);
    public static final MethodHandle SENDMMSG = Libc.handle("sendmmsg",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), Libc.ERRNO);
    public static final MethodHandle SENDTO = Libc.handle("sendto",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, JAVA_INT, ValueLayout.JAVA_LONG, JAVA_INT),
            Libc.ERRNO);
    public static final MethodHandle RECVMMSG = Libc.handle("recvmmsg",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS), Libc.ERRNO);

    private Sockets() {
    }

    /** CMSG_SPACE: a control message's header and its data, rounded up to 8 bytes. */
    public static int cmsgSpace(int dataBytes) {
        return CMSG_DATA + ((dataBytes + 7) & ~7);
    }

    /** Sets an int option; returns 0 or the errno. */
    public static int setInt(MemorySegment capture, int fd, int level, int name, int value) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            v.set(JAVA_INT, 0, value);
            int r = (int) SETSOCKOPT.invokeExact(capture, fd, level, name, v, 4);
            return r == 0 ? 0 : Libc.errno(capture);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Reads an int option, or -1 when the call fails. */
    public static int getInt(MemorySegment capture, int fd, int level, int name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            MemorySegment len = a.allocate(JAVA_INT);
            len.set(JAVA_INT, 0, 4);
            int r = (int) GETSOCKOPT.invokeExact(capture, fd, level, name, v, len);
            return r == 0 ? v.get(JAVA_INT, 0) : -1;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Writes a sockaddr_in or sockaddr_in6 for {@code ip} (4 or 16 bytes) and {@code port}; returns its length. */
    public static int writeAddress(MemorySegment s, long at, byte[] ip, int port) {
        s.asSlice(at, SOCKADDR_BYTES).fill((byte) 0);
        if (ip.length == 4) {
            s.set(ValueLayout.JAVA_SHORT_UNALIGNED, at, (short) AF_INET);
            putPort(s, at, port);
            MemorySegment.copy(ip, 0, s, ValueLayout.JAVA_BYTE, at + 4, 4);
            return 16;
        }
        s.set(ValueLayout.JAVA_SHORT_UNALIGNED, at, (short) AF_INET6);
        putPort(s, at, port);
        MemorySegment.copy(ip, 0, s, ValueLayout.JAVA_BYTE, at + 8, 16);
        return 28;
    }

    /** A sockaddr's port, in network order at byte 2 of both families. */
    public static void putPort(MemorySegment s, long at, int port) {
        s.set(ValueLayout.JAVA_BYTE, at + 2, (byte) (port >>> 8));
        s.set(ValueLayout.JAVA_BYTE, at + 3, (byte) port);
    }

    public static int port(MemorySegment s, long at) {
        return (Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, at + 2)) << 8) | Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, at + 3));
    }
}
