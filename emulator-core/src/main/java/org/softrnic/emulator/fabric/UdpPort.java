package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.util.function.BooleanSupplier;
import org.softrnic.emulator.link.UdpLink;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.Nic;
import org.softrnic.wire.PacketBuffer;

/** A device's port on RoCEv2 over a kernel UDP socket ({@link UdpLink}); its loop sleeps in a selector. */
public final class UdpPort implements Port {
    private final Arena arena = new CountedArena();
    private final UdpLink link;
    private final SelectorSleep sleep;

    /** The bound address's interface MTU (65536 on loopback), or 1500 when the interface does not say. */
    private final int ipMtu;

    private UdpPort(InetAddress address, int socketPort, int rocePort) throws IOException {
        this.ipMtu = interfaceMtu(address);
        UdpLink l = null;
        SelectorSleep s = null;
        try {
            l = UdpLink.open(address, socketPort, rocePort, arena);
            s = new SelectorSleep();
            l.register(s.selector);
        } catch (IOException | RuntimeException e) {
            if (l != null) l.close();
            if (s != null) s.close();
            arena.close();
            throw e;
        }
        this.link = l;
        this.sleep = s;
    }

    /** The bound address's interface MTU (65536 on loopback), or 1500 when the interface does not say. */
    static int interfaceMtu(InetAddress address) throws IOException {
        java.net.NetworkInterface nif = java.net.NetworkInterface.getByInetAddress(address);
        int mtu = nif == null ? -1 : nif.getMTU();
        return mtu > 0 ? mtu : 1500;
    }

    /**
     * Binds {@code address:socketPort} (0 picks a free port); packets carry {@code rocePort}, or with 0 the
     * socket's own port.
     */
    public static UdpPort open(InetAddress address, int socketPort, int rocePort) throws IOException {
        return new UdpPort(address, socketPort, rocePort);
    }

    public UdpLink link() {
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
    public int poll(Nic nic, int budget) {
        int n = 0;
        while (n < budget && link.poll(nic)) n++;
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
        try (arena; link; sleep) {
            // closes all three, the last opened first, even when one fails
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
