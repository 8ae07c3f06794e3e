package org.softrnic.emulator.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import org.softrnic.emulator.link.UdpLink;
import org.softrnic.nic.DeviceAttributes;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.qp.Gid;
import org.softrnic.nic.qp.Mtu;

/**
 * Two devices on two loopback addresses (ADDR and ADDR+1), joined by kernel UDP sockets and driven from
 * this thread on the wall clock.
 */
final class UdpPerfLink implements PerfLink {
    /** How long nothing may move before the run is declared stalled. */
    static final long STALL_NANOS = 10_000_000_000L;

    private final UdpLink clientLink;
    private final UdpLink serverLink;
    private final Nic client;
    private final Nic server;
    private final String describe;

    /**
     * IPv4: the client on {@code clientAddress}, the server on the next loopback address, both on {@code port}.
     * IPv6 has one loopback address: both on ::1, the server on a socket port the kernel picks, each link
     * routed to the other's socket while the packets carry {@code port}.
     */
    UdpPerfLink(InetAddress clientAddress, int port, long seed) {
        boolean v6 = clientAddress instanceof Inet6Address;
        if (v6 && !clientAddress.isLoopbackAddress()) {
            throw new IllegalArgumentException("--link udp:[ADDR]: both ends run in this process, so ADDR must be ::1");
        }
        InetAddress serverAddress = v6 ? clientAddress : next((Inet4Address) clientAddress);
        clientLink = bind(clientAddress, port, port, null);
        serverLink = bind(serverAddress, v6 ? 0 : port, port, clientLink);
        try {
            if (v6) {
                clientLink.route(serverAddress, serverLink.localPort());
                serverLink.route(clientAddress, clientLink.localPort());
            }
            client = new Nic(config("soft0", clientAddress, port, clientLink, seed), System::nanoTime, clientLink);
            server = new Nic(config("soft1", serverAddress, port, serverLink, seed + 1), System::nanoTime, serverLink);
        } catch (RuntimeException e) {
            closeQuietly(clientLink); // the caller never gets this link to close
            closeQuietly(serverLink);
            throw e;
        }
        describe = v6
                ? "udp [::1] ports " + port + " <-> " + serverLink.localPort()
                        + " (RoCE port " + port + ", kernel sockets, one thread)"
                : "udp " + clientAddress.getHostAddress() + " <-> " + serverAddress.getHostAddress() + " port " + port
                        + " (kernel sockets, one thread)";
    }

    private static UdpLink bind(InetAddress address, int socketPort, int rocePort, UdpLink opened) {
        try {
            return UdpLink.open(address, socketPort, rocePort);
        } catch (IOException e) {
            if (opened != null) closeQuietly(opened);
            throw new IllegalArgumentException("--link udp: cannot bind " + address.getHostAddress() + ":" + socketPort
                    + " (" + e.getMessage() + ")", e);
        }
    }

    private static NicConfig config(String name, InetAddress a, int rocePort, UdpLink link, long seed) {
        return new NicConfig(name, List.of(Gid.of(a)), Mtu.MTU_4096, rocePort, seed, DeviceAttributes.rxeDefaults(),
                link.profile());
    }

    private static Inet4Address next(Inet4Address a) {
        byte[] b = a.getAddress();
        if ((b[0] & 0xff) != 127 || (b[3] & 0xff) == 255) {
            throw new IllegalArgumentException("--link udp:ADDR runs both ends in this process on ADDR and the next loopback"
                    + " address, so ADDR must be 127.x.y.z with z < 255; two hosts need --server/--connect, not built yet");
        }
        b[3]++;
        try {
            return (Inet4Address) InetAddress.getByAddress(b);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Override public Nic client() { return client; }
    @Override public Nic server() { return server; }

    @Override
    public void progress(CompletionQueue clientCq) {
        long lastMove = System.nanoTime();
        while (clientCq.size() == 0) {
            boolean moved = clientLink.poll(client) | serverLink.poll(server);
            long now = System.nanoTime();
            if (client.nextDeadline() <= now) client.runTimers();
            if (server.nextDeadline() <= now) server.runTimers();
            if (moved) {
                lastMove = now;
            } else if (now - lastMove > STALL_NANOS) {
                return; // nothing arrives and no timer fires: the caller sees no progress and stops
            } else {
                Thread.onSpinWait();
            }
        }
    }

    @Override public long packets() { return clientLink.sent() + serverLink.sent(); }
    @Override
    public long dropped() {
        return clientLink.sendDropped() + serverLink.sendDropped()
                + (clientLink.sent() - serverLink.received()) + (serverLink.sent() - clientLink.received());
    }
    @Override public String describe() { return describe; }

    @Override
    public void close() {
        closeQuietly(clientLink);
        closeQuietly(serverLink);
    }

    private static void closeQuietly(UdpLink l) {
        try {
            l.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
