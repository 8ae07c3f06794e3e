package org.softrnic.emulator.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Counters;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.Be;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.icrc.Icrc;

/**
 * Hostile traffic at an RC QP over kernel UDP on loopback, as issue 16 measured it against `softrnic
 * pingpong`: a well-formed SEND with the QP's number and expected PSN from a host that is not its peer
 * (127.0.0.3) is dropped and counted, and changes nothing; then 200 000 datagrams (random bytes, truncated
 * real packets, unknown QPNs, wrong peers with the expected PSN, far-off PSNs from the real peer's own
 * address) leave the connection working: the real exchange after them completes with every byte verified.
 */
class HostileUdpTest {
    private static final int IP = 20;
    private static final int BTH = IP + 8;

    @Test
    void aSpoofedRequestChangesNothingAndAFloodLeavesTheConnectionWorking() throws Exception {
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        UdpPair.Side a = UdpPair.side("127.0.0.1", port);
        UdpPair.Side b = UdpPair.side("127.0.0.2", port);
        List<byte[]> sentByA = sentBy(a);
        InetSocketAddress toB = new InetSocketAddress(InetAddress.getByName("127.0.0.2"), port);
        try (var la = a.link(); var lb = b.link();
             DatagramChannel stranger = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.3", 0));
             DatagramChannel peerAddress = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            UdpPair.connect(a, "127.0.0.2", b.qp().qpn());
            UdpPair.connect(b, "127.0.0.1", a.qp().qpn());
            for (int i = 0; i < 4; i++) b.nic().postRecv(b.qp(), recv(b, i, 4096 * i));
            fill(a, 0, 64, 1);
            a.nic().postSend(a.qp(), send(a, 100, 0, 64));
            assertEquals(WcStatus.SUCCESS, UdpPair.pump(a, b, 1).getFirst().status);
            assertEquals(1, drainB(b).size(), "B received the first SEND");
            byte[] real = sentByA.getFirst();
            int nextPsn = (psn(real) + 1) & 0xffffff;

            // the spoof: the next SEND B expects, from a host that is not A
            byte[] spoof = real.clone();
            setPsn(spoof, nextPsn);
            spoof[BTH + 12] ^= 0x55; // its payload differs from anything A sends
            sendFrom(stranger, spoof, "127.0.0.3", toB);
            pumpQuiet(a, b, 50);
            assertEquals(1, b.nic().counters().get(Counter.DROP_WRONG_PEER), "the spoof is counted");
            assertEquals(0, drainB(b).size(), "the spoof took no receive");

            // the flood
            SplittableRandom r = new SplittableRandom(16);
            int flood = 200_000;
            for (int i = 0; i < flood; i++) {
                byte[] p = hostile(r, real, nextPsn, b.qp().qpn());
                boolean fromPeerAddress = r.nextInt(4) == 0;
                if (fromPeerAddress) {
                    // the real peer's own address, other PSNs: far off ahead, or long done
                    setPsn(p, (nextPsn + (r.nextBoolean() ? 1 + r.nextInt(1 << 22) : -1 - r.nextInt(1 << 22))) & 0xffffff);
                    sendFrom(peerAddress, p, "127.0.0.1", toB);
                } else {
                    sendFrom(stranger, p, "127.0.0.3", toB);
                }
                if (i % 256 == 255) pumpQuiet(a, b, 2);
            }
            pumpQuiet(a, b, 50);
            assertEquals(0, drainB(b).size(), "no hostile datagram completed a receive");
            Counters c = b.nic().counters();
            System.out.println("after " + flood + " hostile datagrams, B: " + nonZero(c));
            assertTrue(c.get(Counter.DROP_WRONG_PEER) > 1000, c.toString());
            // every datagram accounted for: taken as a RoCE packet, or dropped with its reason
            assertEquals(b.link().received(), c.get(Counter.RCVD_PKTS) + c.get(Counter.DROP_MALFORMED) + c.get(Counter.DROP_BAD_ICRC)
                    + c.get(Counter.DROP_NOT_ROCE), c.toString());

            // the real exchange after it: a WRITE and a SEND, every byte verified
            fill(a, 0, 100_000, 7);
            SendWr w = send(a, 101, 0, 100_000);
            w.opcode = SendOpcode.RDMA_WRITE;
            w.remoteAddr = b.mr().iova() + 200_000;
            w.rkey = b.mr().rkey();
            a.nic().postSend(a.qp(), w);
            fill(a, 100_000, 3000, 9);
            a.nic().postSend(a.qp(), send(a, 102, 100_000, 3000));
            List<WorkCompletion> done = UdpPair.pump(a, b, 2);
            assertEquals(2, done.size());
            assertTrue(done.stream().allMatch(x -> x.status == WcStatus.SUCCESS), done.toString());
            List<WorkCompletion> got = drainB(b);
            assertEquals(1, got.size(), "B received the real SEND");
            assertEquals(3000, got.getFirst().byteLen);
            assertEquals(-1, MemorySegment.mismatch(a.mr().segment(), 0, 100_000, b.mr().segment(), 200_000, 300_000));
            assertEquals(-1, MemorySegment.mismatch(a.mr().segment(), 100_000, 103_000, b.mr().segment(), 4096, 4096 + 3000));
        }
    }

    private static final int BTH6 = 40 + 8;

    /**
     * The same spoof over IPv6, where loopback has one address: in a network namespace of the test's own,
     * A on fd5e::1, B on fd5e::2 and the stranger on fd5e::3 (addresses that exist only there). A well-formed
     * SEND with B's QPN and expected PSN and an ICRC valid for the stranger's header is dropped and counted,
     * takes no receive, and the real exchange after it completes.
     */
    @Test
    void aSpoofedRequestOverIpv6IsDroppedAndChangesNothing() throws Exception {
        Assumptions.assumeTrue(NetNamespace.available(), "needs root and iproute2 for a network namespace");
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        NetNamespace made;
        try {
            made = NetNamespace.create("srspoof6", "fd5e::1", "fd5e::2", "fd5e::3");
        } catch (IllegalStateException e) {
            Assumptions.abort("no network namespace here: " + e.getMessage()); // root without CAP_SYS_ADMIN, or no IPv6
            return;
        }
        try (NetNamespace ns = made) {
            UdpPair.Side a = ns.inside(() -> UdpPair.side("fd5e::1", port));
            UdpPair.Side b = ns.inside(() -> UdpPair.side("fd5e::2", port));
            DatagramChannel strangerChannel = ns.inside(() -> DatagramChannel.open().bind(new InetSocketAddress("fd5e::3", 0)));
            List<byte[]> sentByA = sentBy(a);
            try (var la = a.link(); var lb = b.link(); DatagramChannel stranger = strangerChannel) {
                UdpPair.connect(a, "fd5e::2", b.qp().qpn());
                UdpPair.connect(b, "fd5e::1", a.qp().qpn());
                for (int i = 0; i < 2; i++) b.nic().postRecv(b.qp(), recv(b, i, 4096 * i));
                fill(a, 0, 64, 1);
                a.nic().postSend(a.qp(), send(a, 100, 0, 64));
                assertEquals(WcStatus.SUCCESS, UdpPair.pump(a, b, 1).getFirst().status);
                assertEquals(1, drainB(b).size(), "B received the first SEND");
                byte[] spoof = sentByA.getFirst().clone();
                assertEquals(6, (spoof[0] & 0xff) >>> 4, "A sends IPv6");
                setPsn(spoof, (psn(spoof, BTH6) + 1) & 0xffffff, BTH6);
                spoof[BTH6 + 12] ^= 0x55;
                MemorySegment s = MemorySegment.ofArray(spoof);
                MemorySegment.copy(InetAddress.getByName("fd5e::3").getAddress(), 0, s, ValueLayout.JAVA_BYTE, 8, 16);
                Be.u16(s, 40, ((InetSocketAddress) stranger.getLocalAddress()).getPort());
                new Icrc().stamp(PacketBuffer.wrap(spoof), 0, 6, BTH6, spoof.length - BTH6);
                stranger.send(ByteBuffer.wrap(spoof, BTH6, spoof.length - BTH6), new InetSocketAddress(InetAddress.getByName("fd5e::2"), port));
                pumpQuiet(a, b, 50);
                Counters c = b.nic().counters();
                assertEquals(1, c.get(Counter.DROP_WRONG_PEER), "the spoof is counted: " + nonZero(c));
                assertEquals(0, c.get(Counter.DROP_BAD_ICRC), "its ICRC was valid for the stranger's header");
                assertEquals(0, drainB(b).size(), "the spoof took no receive");
                fill(a, 0, 3000, 9);
                a.nic().postSend(a.qp(), send(a, 101, 0, 3000));
                assertEquals(WcStatus.SUCCESS, UdpPair.pump(a, b, 1).getFirst().status);
                List<WorkCompletion> got = drainB(b);
                assertEquals(1, got.size(), "B received the real SEND");
                assertEquals(-1, MemorySegment.mismatch(a.mr().segment(), 0, 3000, b.mr().segment(), 4096, 4096 + 3000));
            }
        }
    }

    /** Every packet {@code side} sends from now on, copied as it leaves. */
    private static List<byte[]> sentBy(UdpPair.Side side) {
        List<byte[]> sent = new ArrayList<>();
        side.nic().tap(null, (buf, off, len) -> {
            byte[] x = new byte[len];
            MemorySegment.copy(buf.segment, ValueLayout.JAVA_BYTE, off, x, 0, len);
            sent.add(x);
            return true;
        });
        return sent;
    }

    /** One hostile datagram: random bytes, a truncated real packet, an unknown QPN, or the expected PSN from a stranger. */
    private static byte[] hostile(SplittableRandom r, byte[] real, int expectedPsn, int qpn) {
        return switch (r.nextInt(4)) {
            case 0 -> {
                byte[] junk = new byte[BTH + r.nextInt(1500)];
                r.nextBytes(junk);
                yield junk;
            }
            case 1 -> java.util.Arrays.copyOf(real, BTH + r.nextInt(real.length - BTH));
            case 2 -> {
                byte[] p = real.clone();
                int other = (qpn + 1 + r.nextInt(0xfffff0)) & 0xffffff;
                Be.u8(MemorySegment.ofArray(p), BTH + 5, other >>> 16);
                Be.u16(MemorySegment.ofArray(p), BTH + 6, other & 0xffff);
                yield p;
            }
            default -> {
                byte[] p = real.clone();
                setPsn(p, expectedPsn);
                yield p;
            }
        };
    }

    private static int psn(byte[] p) {
        return psn(p, BTH);
    }

    private static int psn(byte[] p, int bth) {
        return Be.u32(MemorySegment.ofArray(p), bth + 8) & 0xffffff;
    }

    private static void setPsn(byte[] p, int psn) {
        setPsn(p, psn, BTH);
    }

    private static void setPsn(byte[] p, int psn, int bth) {
        if (p.length < bth + 12) return; // cut inside the BTH: no PSN to set
        MemorySegment s = MemorySegment.ofArray(p);
        Be.u32(s, bth + 8, (Be.u32(s, bth + 8) & 0xff000000) | (psn & 0xffffff));
    }

    /**
     * Sends the UDP payload of IPv4 packet {@code p} from {@code from}, its ICRC made valid for the headers the
     * receiver rebuilds (this source address and port); a packet too short for an ICRC goes as it is.
     */
    private static void sendFrom(DatagramChannel from, byte[] p, String sourceIp, InetSocketAddress to) throws Exception {
        if (p.length >= BTH + 12 + 4) {
            MemorySegment s = MemorySegment.ofArray(p);
            Be.u32(s, 12, org.softrnic.wire.frame.Ipv4.toInt((java.net.Inet4Address) InetAddress.getByName(sourceIp)));
            Be.u16(s, 2, p.length);
            Be.u16(s, 4, 0);
            Be.u16(s, IP, ((InetSocketAddress) from.getLocalAddress()).getPort());
            Be.u16(s, IP + 4, p.length - IP);
            new Icrc().stamp(PacketBuffer.wrap(p), 0, 4, BTH, p.length - BTH);
        }
        from.send(ByteBuffer.wrap(p, BTH, p.length - BTH), to);
    }

    /** Moves packets and timers until neither link has had anything for {@code quietMs}. */
    private static void pumpQuiet(UdpPair.Side a, UdpPair.Side b, int quietMs) {
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < quietMs * 1_000_000L) {
            boolean moved = a.link().poll(a.nic()) | b.link().poll(b.nic());
            for (UdpPair.Side s : new UdpPair.Side[] {a, b}) if (s.nic().nextDeadline() <= System.nanoTime()) s.nic().runTimers();
            if (moved) quietSince = System.nanoTime();
        }
    }

    private static List<WorkCompletion> drainB(UdpPair.Side b) {
        List<WorkCompletion> got = new ArrayList<>();
        WorkCompletion[] wcs = {new WorkCompletion()};
        while (b.cq().poll(wcs) > 0) got.add(new WorkCompletion().copyFrom(wcs[0]));
        return got;
    }

    private static RecvWr recv(UdpPair.Side b, long wrId, long offset) {
        RecvWr r = new RecvWr(1);
        r.wrId = wrId;
        r.numSge = 1;
        r.sgList[0].set(b.mr().iova() + offset, 4096, b.mr().lkey());
        return r;
    }

    private static SendWr send(UdpPair.Side a, long wrId, long offset, int length) {
        SendWr w = new SendWr(1);
        w.wrId = wrId;
        w.opcode = SendOpcode.SEND;
        w.sendFlags = SendFlags.SIGNALED;
        w.numSge = 1;
        w.sgList[0].set(a.mr().iova() + offset, length, a.mr().lkey());
        return w;
    }

    private static void fill(UdpPair.Side a, long offset, int n, int seed) {
        for (int i = 0; i < n; i++) a.mr().segment().set(ValueLayout.JAVA_BYTE, offset + i, (byte) (i * 31 + seed));
    }

    private static java.util.Map<String, Long> nonZero(Counters c) {
        java.util.Map<String, Long> m = new java.util.TreeMap<>(c.snapshot());
        m.values().removeIf(v -> v == 0);
        return m;
    }
}
