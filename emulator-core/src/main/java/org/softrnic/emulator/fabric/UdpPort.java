package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.util.function.BooleanSupplier;
import org.softrnic.emulator.link.DatagramLink;
import org.softrnic.emulator.link.NativeUdpLink;
import org.softrnic.emulator.link.UdpLink;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.PacketReceiver;
import org.softrnic.wire.PacketBuffer;

/**
 * A device's port on RoCEv2 over a kernel UDP socket: the libc link ({@link NativeUdpLink}, batched, sleeping in
 * poll(2)) where {@link NativeUdpLink#available} says so, else the JDK's ({@link UdpLink}, sleeping in a selector).
 */
public final class UdpPort implements Port {
    private final Arena arena;
    private final DatagramLink link;
    private final PortSleep sleep;
    /** The bound address's interface MTU (65536 on loopback), or 1500 when the interface does not say. */
    private final int ipMtu;

    private UdpPort(Arena arena, DatagramLink link, PortSleep sleep, int ipMtu) {
        this.arena = arena;
        this.link = link;
        this.sleep = sleep;
        this.ipMtu = ipMtu;
    }

    /**
     * Binds {@code address:socketPort} (0 picks a free port); packets carry {@code rocePort}, or with 0 the
     * socket's own port.
     */
    public static UdpPort open(InetAddress address, int socketPort, int rocePort) throws IOException {
        int mtu = interfaceMtu(address);
        Arena arena = new CountedArena();
        DatagramLink link = null;
        PortSleep sleep = null;
        try {
            if (NativeUdpLink.available()) {
                NativeUdpLink n = NativeUdpLink.open(address, socketPort, rocePort, arena);
                link = n;
                sleep = new FdSleep(n.fd());
            } else {
                UdpLink u = UdpLink.open(address, socketPort, rocePort, arena);
                link = u;
                SelectorSleep s = new SelectorSleep();
                sleep = s;
                u.register(s.selector);
            }
            return new UdpPort(arena, link, sleep, mtu);
        } catch (IOException | RuntimeException e) {
            if (link != null) link.close();
            if (sleep != null) sleep.close();
            arena.close();
            throw e;
        }
    }

    private static int interfaceMtu(InetAddress address) throws IOException {
        java.net.NetworkInterface nif = java.net.NetworkInterface.getByInetAddress(address);
        int mtu = nif == null ? -1 : nif.getMTU();
        return mtu > 0 ? mtu : 1500;
    }

    public DatagramLink link() {
        return link;
    }

    @Override
    public int txWindow() {
        return link.txWindow();
    }

    @Override
    public int ipMtu() {
        return ipMtu;
    }

    @Override
    public LinkProfile profile() {
        return link.profile();
    }

    @Override
    public int rocePort() {
        return link.rocePort();
    }

    @Override
    public Arena arena() {
        return arena;
    }

    @Override
    public long dropped() {
        return link.sendDropped();
    }

    @Override
    public boolean transmit(PacketBuffer buffer, int offset, int length) {
        return link.transmit(buffer, offset, length);
    }

    @Override
    public PacketBuffer handOver(PacketBuffer buffer, int offset, int length) {
        return link.handOver(buffer, offset, length);
    }

    @Override
    public UdpPort udp() {
        return this;
    }

    @Override
    public boolean tapSent(org.softrnic.nic.PacketSink tap) {
        return link.tapSent(tap);
    }

    @Override
    public void flush() {
        link.flush();
    }

    /** The answers to what came leave before the next receive call: a round trip waits for no empty one. */
    @Override
    public int poll(PacketReceiver nic, int budget) {
        int n = 0;
        while (n < budget) {
            int want = budget - n;
            int got = link.poll(nic, want);
            n += got;
            link.flush();
            if (got < want) break; // the socket ran dry
        }
        return n;
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
        try (arena) {
            sleep.close();
            link.close();
        }
    }
}
