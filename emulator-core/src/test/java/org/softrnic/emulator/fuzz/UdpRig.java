package org.softrnic.emulator.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.softrnic.emulator.link.UdpLink;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.PacketSink;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.wire.Be;
import org.softrnic.wire.frame.Ipv4;

/**
 * Kernel UDP on loopback, driven on the calling thread: A on 127.0.0.1, B on 127.0.0.2, hostile datagrams
 * from sockets on each device's address (another port: the peer's address, which the address check lets
 * through) and on 127.0.0.3. The receiver rebuilds the IP and UDP headers from the socket, so only the
 * RoCE part of a packet travels; the fuzzer's view of it is rebuilt the same way.
 */
final class UdpRig implements FuzzRig {
    private static final String[] ADDRESSES = {"127.0.0.1", "127.0.0.2"};
    private static final String STRANGER = "127.0.0.3";

    private final UdpLink[] links = new UdpLink[2];
    private final Nic[] nics = new Nic[2];
    private final int[] ips = new int[2];
    /** By side: a socket on that side's address, which sends as the side's peer would. */
    private final DatagramChannel[] asSide = new DatagramChannel[2];
    private final DatagramChannel stranger;
    private final InetSocketAddress[] to = new InetSocketAddress[2];
    private final int rocePort;
    private final Ip4 ip4 = new Ip4();
    private final ByteBuffer out = ByteBuffer.allocateDirect(1 << 16);

    UdpRig(Recorder sent) {
        rocePort = 20000 + ThreadLocalRandom.current().nextInt(20000);
        try {
            for (int side = 0; side < 2; side++) {
                int s = side;
                InetAddress address = InetAddress.getByName(ADDRESSES[side]);
                ips[side] = Ipv4.toInt((Inet4Address) address);
                links[side] = UdpLink.open(address, rocePort);
                to[side] = new InetSocketAddress(address, rocePort);
                NicConfig cfg = new NicConfig("fuzz-" + ADDRESSES[side], List.of(Gid.parse(ADDRESSES[side])), Mtu.MTU_1024,
                        rocePort, 1 + side, DeviceAttributes.rxeDefaults(), links[side].profile());
                nics[side] = new Nic(cfg, System::nanoTime, links[side]);
                PacketSink none = (buf, off, len) -> true;
                nics[side].tap(none, (buf, off, len) -> {
                    sent.sent(s, buf, off, len);
                    return true;
                });
                asSide[side] = DatagramChannel.open().bind(new InetSocketAddress(address, 0));
            }
            stranger = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getByName(STRANGER), 0));
        } catch (IOException e) {
            close();
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Nic nic(int side) {
        return nics[side];
    }

    @Override
    public int ip(int side) {
        return ips[side];
    }

    @Override
    public int strangerIp() {
        return 0x7f000003;
    }

    @Override
    public boolean inject(int side, byte[] ip, boolean restamp) {
        int peer = 1 - side;
        DatagramChannel from = ip.length >= 20 && Ip4.src(ip) == ips[peer] ? asSide[peer] : stranger;
        if (ip.length >= Ip4.BTH) {
            // the headers the receiver will rebuild (UdpLink.poll): TOS 0, identification 0, DF, TTL 64
            MemorySegment s = MemorySegment.ofArray(ip);
            Ipv4.write(s, 0, 0, ip.length, 0, 0x4000, 64, Ipv4.PROTO_UDP, from == stranger ? strangerIp() : ips[peer], ips[side]);
            Be.u16(s, Ip4.UDP, localPort(from));
            Be.u16(s, Ip4.UDP + 2, rocePort);
            Be.u16(s, Ip4.UDP + 4, ip.length - Ip4.UDP);
            Be.u16(s, Ip4.UDP + 6, 0);
        }
        if (restamp && ip.length >= Ip4.MIN) ip4.stamp(ip);
        boolean valid = ip4.valid(ip, true);
        int start = Math.min(ip.length, Ip4.BTH);
        out.clear().put(ip, start, ip.length - start).flip();
        try {
            from.send(out, to[side]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return valid;
    }

    private static int localPort(DatagramChannel c) {
        try {
            return ((InetSocketAddress) c.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void pump() {
        long until = System.nanoTime() + 200_000;
        do {
            boolean moved = true;
            for (int turn = 0; turn < 4096 && moved; turn++) moved = links[0].poll(nics[0]) | links[1].poll(nics[1]);
            for (Nic n : nics) if (n.nextDeadline() <= System.nanoTime()) n.runTimers();
        } while (System.nanoTime() < until);
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long received(int side) {
        return links[side].received();
    }

    @Override
    public boolean seesIpHeader() {
        return false;
    }

    @Override
    public void close() {
        for (var c : new AutoCloseable[] {links[0], links[1], asSide[0], asSide[1], stranger}) {
            try {
                if (c != null) c.close();
            } catch (Exception e) {
                // closing on the way out: nothing left to do with a socket that will not close
            }
        }
    }
}
