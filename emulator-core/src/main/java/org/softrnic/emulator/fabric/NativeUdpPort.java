package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.util.function.BooleanSupplier;
import org.softrnic.emulator.link.NativeUdpLink;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.Nic;
import org.softrnic.wire.PacketBuffer;

/**
 * A device's port on RoCEv2 over a kernel UDP socket driven through libc ({@link NativeUdpLink}): packets
 * leave in batches when the loop {@link #flush}es, and its loop sleeps in poll(2).
 */
public final class NativeUdpPort implements Port {
    private final Arena arena = new CountedArena();
    private final NativeUdpLink link;
    private final FdSleep sleep;
    private final int ipMtu;

    private NativeUdpPort(InetAddress address, int socketPort, int rocePort) throws IOException {
        this.ipMtu = UdpPort.interfaceMtu(address);
        NativeUdpLink l = null;
        try {
            l = NativeUdpLink.open(address, socketPort, rocePort, arena);
            this.sleep = new FdSleep(l.fd());
        } catch (IOException | RuntimeException e) {
            if (l != null) l.close();
            arena.close();
            throw e;
        }
        this.link = l;
    }

    /** As {@link UdpPort#open}. */
    public static NativeUdpPort open(InetAddress address, int socketPort, int rocePort) throws IOException {
        return new NativeUdpPort(address, socketPort, rocePort);
    }

    public NativeUdpLink link() {
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
    public void flush() {
        link.flush();
    }

    @Override
    public int poll(Nic nic, int budget) {
        int n = 0;
        while (n < budget) {
            int got = link.poll(nic, budget - n);
            if (got == 0) break;
            n += got;
            link.flush(); // the answers leave before the next receive call: a round trip waits for no empty recvmmsg

        }
        return n;
    }

    @Override
    public void await(long deadline, BooleanSupplier idle) {
        link.flush();
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
