package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import org.softrnic.emulator.os.Libc;

/**
 * A Linux TAP device (/dev/net/tun, TUNSETIFF with IFF_TAP | IFF_NO_PI), opened through FFM: one read or
 * write per Ethernet frame, non-blocking. The loop sleeps in poll(2) on the device and an eventfd that
 * {@link #wakeup} writes. A TAP made beforehand for the user ({@code ip tuntap add dev NAME mode tap user U})
 * needs no privilege; without one, creating it needs CAP_NET_ADMIN.
 */
final class TapEndpoint implements FrameEndpoint {
    private static final long TUNSETIFF = 0x400454caL;
    private static final long SIOCGIFFLAGS = 0x8913;
    private static final long SIOCSIFFLAGS = 0x8914;
    private static final short IFF_TAP = 0x0002;
    private static final short IFF_NO_PI = 0x1000;
    private static final short IFF_UP = 0x1;
    private static final int IFNAMSIZ = 16;
    private static final int IFREQ_BYTES = 40;

    private final Arena arena = Arena.ofShared();
    private final String name;
    private final int fd;
    private final FdSleep sleep;
    /** Loop thread: errno of read and write. */
    private final MemorySegment capture = arena.allocate(Libc.CAPTURE);

    private TapEndpoint(String name, int fd, FdSleep sleep) {
        this.name = name;
        this.fd = fd;
        this.sleep = sleep;
    }

    /** Attaches to TAP {@code name}, creating it if it does not exist (that needs CAP_NET_ADMIN), and sets it up. */
    static TapEndpoint open(String name) throws IOException {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        if (n.length == 0 || n.length >= IFNAMSIZ) throw new IOException("tap:" + name + ": an interface name has 1 to 15 characters");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(Libc.CAPTURE);
            int fd = (int) Libc.call(Libc.OPEN, err, a.allocateFrom("/dev/net/tun"), Libc.O_RDWR | Libc.O_NONBLOCK | Libc.O_CLOEXEC, 0);
            if (fd < 0) throw failure("open /dev/net/tun", err, "is the tun module loaded?");
            try {
                MemorySegment ifr = ifreq(a, n);
                ifr.set(ValueLayout.JAVA_SHORT, IFNAMSIZ, (short) (IFF_TAP | IFF_NO_PI));
                if (Libc.call(Libc.IOCTL, err, fd, TUNSETIFF, ifr) < 0) {
                    throw failure("TUNSETIFF " + name, err, "make it for this user first: sudo ip tuntap add dev " + name
                            + " mode tap user $USER && sudo ip link set " + name + " up");
                }
                bringUp(a, n, name);
                return new TapEndpoint(name, fd, new FdSleep(fd));
            } catch (IOException | RuntimeException e) {
                Libc.call(Libc.CLOSE, err, fd);
                throw e;
            }
        }
    }

    private static MemorySegment ifreq(Arena a, byte[] name) {
        MemorySegment ifr = a.allocate(IFREQ_BYTES, 8);
        MemorySegment.copy(name, 0, ifr, ValueLayout.JAVA_BYTE, 0, name.length);
        return ifr;
    }

    /** A TAP made by TUNSETIFF is down; up it if it is not (an unprivileged user's TAP must be up already). */
    private static void bringUp(Arena a, byte[] n, String name) throws IOException {
        MemorySegment err = a.allocate(Libc.CAPTURE);
        int sock = (int) Libc.call(Libc.SOCKET, err, 2 /* AF_INET */, 2 /* SOCK_DGRAM */, 0);
        if (sock < 0) throw failure("socket", err, null);
        try {
            MemorySegment ifr = ifreq(a, n);
            if (Libc.call(Libc.IOCTL, err, sock, SIOCGIFFLAGS, ifr) < 0) throw failure("SIOCGIFFLAGS " + name, err, null);
            short flags = ifr.get(ValueLayout.JAVA_SHORT, IFNAMSIZ);
            if ((flags & IFF_UP) != 0) return;
            ifr.set(ValueLayout.JAVA_SHORT, IFNAMSIZ, (short) (flags | IFF_UP));
            if (Libc.call(Libc.IOCTL, err, sock, SIOCSIFFLAGS, ifr) < 0) {
                throw failure("setting " + name + " up", err, "sudo ip link set " + name + " up");
            }
        } finally {
            Libc.call(Libc.CLOSE, err, sock);
        }
    }

    private static IOException failure(String what, MemorySegment err, String hint) {
        int errno = Libc.errno(err);
        return new IOException(what + ": " + Libc.strerror(errno) + (hint == null ? "" : " (" + hint + ")"));
    }

    @Override
    public boolean send(MemorySegment s, long at, int length) {
        try {
            long n = (long) Libc.WRITE.invokeExact(capture, fd, s.address() + at, (long) length);
            return n == length;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public int receive(MemorySegment into, long at, int max, int budget, IntConsumer frame) {
        int frames = 0;
        try {
            while (frames < budget) {
                long n = (long) Libc.READ.invokeExact(capture, fd, into.address() + at, (long) max);
                if (n < 0) {
                    int errno = Libc.errno(capture);
                    if (errno == Libc.EAGAIN || errno == Libc.EINTR) break;
                    throw new java.io.UncheckedIOException(new IOException("tap:" + name + ": read: " + Libc.strerror(errno)));
                }
                frames++;
                frame.accept((int) n);
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return frames;
    }

    @Override
    public void await(long deadline, BooleanSupplier idle) {
        sleep.await(deadline, idle);
    }

    @Override
    public void wakeup() {
        sleep.wakeup();
    }

    @Override
    public void close() {
        sleep.close();
        Libc.call(Libc.CLOSE, capture, fd);
        arena.close();
    }
}
