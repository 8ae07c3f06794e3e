package org.softrnic.emulator.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.os.Libc;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Nic;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * The libc UDP link: a WRITE crosses as GSO super-datagrams and GRO bursts with every ICRC intact, a CE mark
 * in the TOS reaches the device, and, where packets leave through a TAP in a namespace of the test's own, the
 * kernel's segments carry the identifications their ICRCs were stamped for (checked with a CRC of the test's own).
 */
class NativeUdpLinkTest {
    private record End(NativeUdpLink link, UdpPair.Device device) {}

    private static End end(String ip, Mtu mtu) throws Exception {
        NativeUdpLink link = NativeUdpLink.open(InetAddress.getByName(ip), 0, 0, Arena.ofAuto());
        return new End(link, UdpPair.device(ip, link.rocePort(), link.profile(), mtu, link));
    }

    private static void connect(End from, End to, String toIp, Mtu mtu, int trafficClass) {
        QpAttr attr = QpAttr.rcConnect(Gid.parse(toIp), to.device().qp().qpn(), mtu);
        attr.ahAttr = new AddressVector(attr.ahAttr.dgid(), 0, 0, 64, trafficClass).withUdpPort(to.link().rocePort());
        from.device().nic().modifyToRts(from.device().qp(), attr);
    }

    private static SendWr write(End a, End b, int length) {
        SendWr w = new SendWr(1);
        w.opcode = SendOpcode.RDMA_WRITE;
        w.sendFlags = SendFlags.SIGNALED;
        w.numSge = 1;
        w.sgList[0].set(a.device().mr().iova(), length, a.device().mr().lkey());
        w.remoteAddr = b.device().mr().iova();
        w.rkey = b.device().mr().rkey();
        return w;
    }

    /** Moves both ends on this thread until A completes {@code wanted} requests. */
    private static List<WorkCompletion> pump(End a, End b, int wanted) {
        List<WorkCompletion> got = new ArrayList<>();
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (got.size() < wanted && System.nanoTime() < deadline) {
            for (End e : new End[] {a, b}) {
                e.link().flush();
                e.link().poll(e.device().nic(), 64);
                Nic nic = e.device().nic();
                if (nic.nextDeadline() <= System.nanoTime()) nic.runTimers();
                e.link().flush();
            }
            int n = a.device().cq().poll(wcs);
            for (int i = 0; i < n; i++) got.add(new WorkCompletion().copyFrom(wcs[i]));
        }
        return got;
    }

    @Test
    void aWriteCrossesAsSuperDatagramsAndEveryIcrcVerifies() throws Exception {
        assumeTrue(NativeUdpLink.available(), "Linux, with native access");
        End a = end("127.0.0.1", Mtu.MTU_4096);
        End b = end("127.0.0.2", Mtu.MTU_4096);
        try (var la = a.link(); var lb = b.link()) {
            assertTrue(a.link().gso() && b.link().gro(), "this kernel offers UDP GSO and GRO");
            connect(a, b, "127.0.0.2", Mtu.MTU_4096, 0);
            connect(b, a, "127.0.0.1", Mtu.MTU_4096, 0);
            List<byte[]> sent = new ArrayList<>();
            List<byte[]> received = new ArrayList<>();
            a.link().tapSent((buf, off, len) -> sent.add(buf.segment.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE)));
            b.device().nic().tap((buf, off, len) -> received.add(buf.segment.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE)), null);
            MemorySegment src = a.device().mr().segment();
            for (int i = 0; i < 1 << 20; i++) src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            a.device().nic().postSend(a.device().qp(), write(a, b, 1 << 20));
            List<WorkCompletion> done = pump(a, b, 1);
            assertEquals(1, done.size());
            assertEquals(WcStatus.SUCCESS, done.getFirst().status);
            assertEquals(-1, MemorySegment.mismatch(src, 0, 1 << 20, b.device().mr().segment(), 0, 1 << 20));
            assertTrue(a.link().gsoSends() >= 256 / 15, "256 packets went down in super-datagrams: " + a.link().gsoSends());
            var c = b.device().nic().counters();
            assertEquals(0, c.get(Counter.DROP_BAD_ICRC), "segment k's ICRC holds for identification k");
            assertEquals(c.get(Counter.RCVD_PKTS), c.get(Counter.RCVD_ICRC_VERIFIED));
            assertEquals(b.link().received(), c.get(Counter.RCVD_PKTS), "every GRO burst was cut into its packets");
            assertTrue(b.link().received() >= 256);
            // a trace shows the wire: each segment with the identification the kernel gave it and the ICRC for
            // it, on the sending side as it left and on the receiving side as the device recovered it
            assertEquals(256, sent.size());
            assertEquals(received.size(), b.link().received());
            org.softrnic.wire.frame.FrameView v = new org.softrnic.wire.frame.FrameView(b.link().rocePort());
            int counted = 0;
            for (List<byte[]> packets : List.of(sent, received)) {
                for (byte[] p : packets) {
                    assertEquals(null, v.wrapIp(org.softrnic.wire.PacketBuffer.wrap(p), 0, p.length));
                    assertEquals(null, v.verifyIcrc(), "ICRC of a traced packet");
                    if (v.ipv4().id() != 0) counted++;
                }
            }
            assertTrue(counted > 200, "the segments' identifications count up: " + counted);
        }
    }

    /**
     * A QP whose traffic class carries CE (as if a switch had marked it): the TOS goes out, and the receiver sees it
     * through IP_RECVTOS; as a notification point it gets A's QP a CNP, which leaves with DSCP 48 through IP_TOS,
     * passes A's ICRC check and is counted there.
     */
    @Test
    void aCeMarkReadFromTheSocketIsCountedAndGetsTheSenderACnp() throws Exception {
        assumeTrue(NativeUdpLink.available(), "Linux, with native access");
        End a = end("127.0.0.1", Mtu.MTU_1024);
        End b = end("127.0.0.2", Mtu.MTU_1024);
        try (var la = a.link(); var lb = b.link()) {
            connect(a, b, "127.0.0.2", Mtu.MTU_1024, (26 << 2) | 3);
            connect(b, a, "127.0.0.1", Mtu.MTU_1024, 26 << 2);
            b.device().nic().notificationPoint(org.softrnic.nic.cc.NotificationPoint.firmware());
            a.device().nic().postSend(a.device().qp(), write(a, b, 16 * 1024));
            assertEquals(WcStatus.SUCCESS, pump(a, b, 1).getFirst().status);
            assertEquals(16, b.device().nic().counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS), "each request packet arrived CE");
            assertEquals(0, a.device().nic().counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS), "B's ACKs and CNPs are not marked");
            assertEquals(0, b.device().nic().counters().get(Counter.DROP_BAD_ICRC), "the ICRC masks the ECN bits");
            long cnps = b.device().nic().counters().get(Counter.NP_CNP_SENT);
            assertTrue(cnps >= 1, "16 marks within a few microseconds: at least one CNP");
            long end = System.nanoTime() + 5_000_000_000L;
            while (a.device().nic().counters().get(Counter.RP_CNP_IGNORED) < cnps && System.nanoTime() < end) {
                b.link().flush();
                a.link().poll(a.device().nic(), 64);
            }
            assertEquals(cnps, a.device().nic().counters().get(Counter.RP_CNP_IGNORED), "every CNP crossed the socket");
            assertEquals(0, a.device().nic().counters().get(Counter.DROP_BAD_ICRC));
        }
    }

    /**
     * A TAP with checksum offload but no UDP segmentation offload: the kernel cuts a super-datagram into packets
     * before the TAP:
     * each must carry its ICRC for the identification the kernel gave it (0, 1, 2, ...), and a real UDP checksum.
     */
    @Test
    void segmentsLeavingATapCarryTheirOwnIdentificationsIcrc() throws Exception {
        assumeTrue(NativeUdpLink.available() && NetNamespace.available(), "Linux, root and iproute2");
        try (NetNamespace ns = NetNamespace.create("softrnic-gso")) {
            ns.ip("tuntap", "add", "dev", "gso0", "mode", "tap");
            ns.ip("link", "set", "gso0", "mtu", "9000", "up");
            ns.ip("addr", "add", "10.77.0.1/24", "dev", "gso0");
            ns.ip("neigh", "add", "10.77.0.2", "lladdr", "02:00:00:00:00:02", "dev", "gso0");
            List<byte[]> frames = ns.inside(() -> {
                try (Arena arena = Arena.ofConfined(); Tap tap = Tap.open("gso0")) {
                    // the carrier comes up as the TAP is opened, but not at once: a send before it finds the route down
                    ns.awaitCarrier("gso0");
                    NativeUdpLink link = NativeUdpLink.open(InetAddress.getByName("10.77.0.1"), 4791, 4791, Arena.ofAuto());
                    try (link) {
                        UdpPair.Device d = UdpPair.device("10.77.0.1", 4791, link.profile(), Mtu.MTU_4096, link);
                        d.nic().modifyToRts(d.qp(), QpAttr.rcConnect(Gid.parse("10.77.0.2"), 0x11, Mtu.MTU_4096));
                        SendWr w = new SendWr(1);
                        w.opcode = SendOpcode.RDMA_WRITE;
                        w.numSge = 1;
                        w.sgList[0].set(d.mr().iova(), 64 * 1024, d.mr().lkey());
                        w.remoteAddr = 0x1000;
                        w.rkey = 0x1234;
                        d.nic().postSend(d.qp(), w);
                        link.flush();
                        assertTrue(link.gsoSends() >= 1, "sent as a super-datagram");
                        return tap.read(16, 5_000);
                    }
                }
            });
            assertEquals(16, frames.size(), "a 64 KiB WRITE at MTU 4096 is 16 packets");
            // the FIRST packet carries a RETH, so it is longer: it and the next make one super-datagram (a last
            // segment may be shorter), the other 14 the next; the kernel numbers each one's segments from 0
            int[] expected = {0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
            for (int i = 0; i < frames.size(); i++) {
                    byte[] f = frames.get(i);
                    assertEquals(expected[i], ((f[18] & 0xff) << 8) | (f[19] & 0xff), "IP identification of packet " + i);
                    assertEquals(icrcByTheSpec(f), (f[f.length - 4] & 0xff) | (f[f.length - 3] & 0xff) << 8
                            | (f[f.length - 2] & 0xff) << 16 | (f[f.length - 1] & 0xff) << 24, "ICRC of packet " + i);
                    assertTrue(((f[14 + 20 + 6] & 0xff) | (f[14 + 20 + 7] & 0xff)) != 0, "a real UDP checksum");
            }
        }
    }

    /**
     * The RoCEv2 ICRC as the IBTA (Annex A17) defines it, written here apart from the wire module's: CRC-32 over
     * eight 0xff bytes, then the IPv4 header with TOS, TTL and checksum as ones, the UDP header with its checksum
     * as ones, the BTH with its reserved byte as ones, and the rest up to the ICRC.
     */
    private static int icrcByTheSpec(byte[] frame) {
        byte[] p = java.util.Arrays.copyOfRange(frame, 14, frame.length - 4);
        p[1] = (byte) 0xff;
        p[8] = (byte) 0xff;
        p[10] = p[11] = (byte) 0xff;
        p[20 + 6] = p[20 + 7] = (byte) 0xff;
        p[28 + 4] = (byte) 0xff;
        CRC32 crc = new CRC32();
        crc.update(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});
        crc.update(p);
        return (int) crc.getValue();
    }

    /** A TAP device opened by name in the calling thread's namespace, read non-blocking. */
    private record Tap(int fd, Arena arena) implements AutoCloseable {
        static Tap open(String name) {
            Arena arena = Arena.ofConfined();
            MemorySegment err = arena.allocate(Libc.CAPTURE);
            int fd = (int) Libc.call(Libc.OPEN, err, arena.allocateFrom("/dev/net/tun"), Libc.O_RDWR | Libc.O_NONBLOCK, 0);
            assertTrue(fd >= 0, "open /dev/net/tun");
            MemorySegment ifr = arena.allocate(40, 8);
            ifr.setString(0, name);
            ifr.set(ValueLayout.JAVA_SHORT, 16, (short) (0x0002 | 0x1000)); // IFF_TAP | IFF_NO_PI
            assertTrue(Libc.call(Libc.IOCTL, err, fd, 0x400454caL, ifr) >= 0, "TUNSETIFF " + name);
            // TUNSETOFFLOAD TUN_F_CSUM: checksum offload, without which the kernel refuses GSO (EIO); no
            // segmentation offload, so the kernel segments before the TAP
            assertTrue(Libc.call(Libc.IOCTL, err, fd, 0x400454d0L, MemorySegment.ofAddress(1)) >= 0, "TUNSETOFFLOAD");
            return new Tap(fd, arena);
        }

        /** The IPv4 frames that come within {@code millis}, up to {@code n} (IPv6 router solicitations and the like skipped). */
        List<byte[]> read(int n, long millis) throws InterruptedException {
            List<byte[]> out = new ArrayList<>();
            MemorySegment err = arena.allocate(Libc.CAPTURE);
            MemorySegment buf = arena.allocate(65536, 8);
            long deadline = System.nanoTime() + millis * 1_000_000;
            while (out.size() < n && System.nanoTime() < deadline) {
                long got = Libc.call(Libc.READ, err, fd, buf.address(), 65536L);
                if (got <= 0) {
                    Thread.sleep(1);
                    continue;
                }
                byte[] f = buf.asSlice(0, got).toArray(ValueLayout.JAVA_BYTE);
                if (f.length > 14 && f[12] == 0x08 && f[13] == 0x00) out.add(f);
            }
            return out;
        }

        @Override
        public void close() {
            Libc.call(Libc.CLOSE, arena.allocate(Libc.CAPTURE), fd);
            arena.close();
        }
    }
}
