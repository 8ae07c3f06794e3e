package org.softrnic.emulator.perf;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.RdmaContext;

/**
 * Two soft RNICs on loopback, each on its own kernel UDP socket. IPv4: the client on ADDR, the server on the
 * next address, both on PORT. IPv6 has one loopback address: both on ::1, the server on a port the kernel
 * picks, which is its RoCE port too; each side's address vectors name the other's port.
 */
final class UdpPerfDevices implements PerfDevices {
    private final SoftRnic client;
    private final SoftRnic server;
    private final RdmaContext clientCtx;
    private final RdmaContext serverCtx;
    private final String describe;

    UdpPerfDevices(InetAddress clientAddress, int port, double loss, long seed, String progress, String trace,
                   org.softrnic.emulator.config.RegCostConfig regCost) {
        boolean v6 = clientAddress instanceof Inet6Address;
        if (v6 && !clientAddress.isLoopbackAddress()) {
            throw new IllegalArgumentException("--link udp:[ADDR]: both ends run in this process, so ADDR must be ::1");
        }
        InetAddress serverAddress = v6 ? clientAddress : next((Inet4Address) clientAddress);
        client = open("soft0", clientAddress, port, port, loss, seed, progress, trace, regCost);
        SoftRnic s = null;
        try {
            s = open("soft1", serverAddress, v6 ? 0 : port, port, loss, seed + 1, progress, null, regCost);
        } catch (RuntimeException e) {
            client.close();
            if (s != null) s.close();
            throw e;
        }
        server = s;
        clientCtx = client.open();
        serverCtx = server.open();
        describe = v6
                ? "udp [::1] ports " + port + " <-> " + server.rocePort() + " (kernel sockets, " + how(progress) + ")"
                : "udp " + clientAddress.getHostAddress() + " <-> " + serverAddress.getHostAddress() + " port " + port
                        + " (kernel sockets, " + how(progress) + ")";
    }

    /**
     * A device on {@code address:socketPort} whose packets carry {@code rocePort}; with {@code loss}, that share of
     * what it sends is dropped before its socket (seeded by {@code seed}).
     */
    static SoftRnic open(String name, InetAddress address, int socketPort, int rocePort, double loss, long seed, String progress,
                         String trace, org.softrnic.emulator.config.RegCostConfig regCost) {
        String host = address instanceof Inet6Address ? "[" + address.getHostAddress() + "]" : address.getHostAddress();
        var config = SoftRnicConfig.builder().name(name).gid(address.getHostAddress()).mtu(4096)
                .udpPort(rocePort).link("udp:" + host + ":" + socketPort).seed(seed).progress(progress).trace(trace).regCost(regCost);
        if (loss > 0) config.faults(new org.softrnic.emulator.config.FaultConfig(loss, null, null, null, null, null, seed));
        try {
            return SoftRnic.open(config.build());
        } catch (java.io.UncheckedIOException e) {
            // the environment's fault (an address in use or not on this host), not the command line's
            throw new java.io.UncheckedIOException("--link udp: cannot bind " + host + ":" + socketPort + " (" + e.getCause().getMessage() + ")",
                    e.getCause());
        }
    }

    static String how(String progress) {
        return progress.equals("inline") ? "one thread drives both devices" : "an event loop per device";
    }

    private static Inet4Address next(Inet4Address a) {
        byte[] b = a.getAddress();
        if ((b[0] & 0xff) != 127 || (b[3] & 0xff) == 255) {
            throw new IllegalArgumentException("--link udp:ADDR runs both ends in this process on ADDR and the next loopback"
                    + " address, so ADDR must be 127.x.y.z with z < 255; for two processes or hosts use --server and --connect");
        }
        b[3]++;
        try {
            return (Inet4Address) InetAddress.getByAddress(b);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Override public java.util.Map<String, Long> clientCounters() { return client.counters(); }
    @Override public java.util.Map<String, Long> serverCounters() { return server.counters(); }
    @Override public void progressServer() { server.progress(); }
    @Override public RdmaContext client() { return clientCtx; }
    @Override public RdmaContext server() { return serverCtx; }
    @Override public long packets() { return client.counters().get("sent_pkts") + server.counters().get("sent_pkts"); }
    @Override public long dropped() { return client.counters().get("link_dropped") + server.counters().get("link_dropped"); }
    @Override public String describe() { return describe; }

    @Override
    public void close() {
        RuntimeException first = null;
        for (AutoCloseable c : new AutoCloseable[] {clientCtx, serverCtx, client, server}) {
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) first = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                else first.addSuppressed(e);
            }
        }
        if (first != null) throw first;
    }
}
