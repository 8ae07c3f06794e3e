package org.softrnic.emulator.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.net.ExtendedSocketOptions;

/**
 * The JDK's half of the UDP baseline: one thread sends datagrams of SIZE bytes with DatagramChannel.send
 * (unconnected, IP_DONTFRAGMENT, 4 MiB buffers, as UdpLink does) from 127.0.0.1 to 127.0.0.2 while this one
 * receives them; prints the received rate. Compared with udp_raw.c, it shows what the plain JDK socket costs
 * against C's batched sendmmsg/recvmmsg. Usage: DatagramChannelRate SIZE SECONDS PORT
 */
public final class DatagramChannelRate {
    public static void main(String[] args) throws Exception {
        int size = Integer.parseInt(args[0]);
        double seconds = Double.parseDouble(args[1]);
        int port = Integer.parseInt(args[2]);
        try (DatagramChannel rx = open("127.0.0.2", port); DatagramChannel tx = open("127.0.0.1", port)) {
            AtomicBoolean stop = new AtomicBoolean();
            Thread sender = Thread.ofPlatform().start(() -> {
                ByteBuffer b = ByteBuffer.allocateDirect(size);
                InetSocketAddress to = new InetSocketAddress(address("127.0.0.2"), port);
                try {
                    while (!stop.get()) {
                        b.clear();
                        tx.send(b, to);
                    }
                } catch (IOException e) {
                    if (!stop.get()) throw new java.io.UncheckedIOException(e);
                }
            });
            ByteBuffer b = ByteBuffer.allocateDirect(65536);
            rx.configureBlocking(false);
            long warm = System.nanoTime() + (long) (seconds / 4 * 1e9);
            long end = warm + (long) (seconds * 1e9);
            long got = 0;
            long t0 = 0;
            for (long now; (now = System.nanoTime()) < end; ) {
                if (t0 == 0 && now >= warm) { t0 = now; got = 0; }
                b.clear();
                if (rx.receive(b) != null) got++;
            }
            double elapsed = (System.nanoTime() - t0) / 1e9;
            stop.set(true);
            sender.join();
            System.out.printf("datagrams_per_second %.0f%n", got / elapsed);
        }
    }

    private static DatagramChannel open(String ip, int port) throws IOException {
        DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
        ch.setOption(ExtendedSocketOptions.IP_DONTFRAGMENT, true);
        ch.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
        ch.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
        ch.bind(new InetSocketAddress(address(ip), port));
        return ch;
    }

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
