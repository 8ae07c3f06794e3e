package org.softrnic.emulator.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.Counter;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * Two soft RNICs on 127.0.0.1 and 127.0.0.2 talk RC over kernel UDP sockets, on one thread: the ICRCs they
 * compute for identification 0 and the bound port verify at the other end; so do the ICRCs of a sender that
 * counts its identification up as rxe does, which the receive side recovers; a changed byte is dropped.
 */
class UdpLinkTest {
    static UdpPair.Side side(String ip, int port) throws Exception {
        return UdpPair.side(ip, port);
    }

    @Test
    void rcOverUdpLoopbackVerifiesEveryIcrc() throws Exception {
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        UdpPair.Side a = side("127.0.0.1", port);
        UdpPair.Side b = side("127.0.0.2", port);
        try (var la = a.link(); var lb = b.link()) {
            writeSendRead(a, b, "127.0.0.1", "127.0.0.2");
        }
    }

    /**
     * A sender whose ICRCs cover an identification counting up (rxe's), while the kernel sends 0: the receive
     * side finds each identification from the ICRC, and every packet verifies.
     */
    @Test
    void anRxeStyleIdentificationIsRecoveredFromTheIcrc() throws Exception {
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        UdpPair.Side a = UdpPair.side("127.0.0.1", port, port, true, null);
        UdpPair.Side b = UdpPair.side("127.0.0.2", port, port, true, null);
        try (var la = a.link(); var lb = b.link()) {
            writeSendRead(a, b, "127.0.0.1", "127.0.0.2");
        }
    }

    /**
     * A link that flips one payload byte of one packet: the receiver finds no identification that explains
     * the ICRC and drops it (drop_bad_icrc), go-back-N sends it again, and every byte lands as it was sent.
     */
    @Test
    void aPayloadByteFlippedOnTheWayIsDroppedAndResent() throws Exception {
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        int[] sent = {0};
        UdpPair.Side a = UdpPair.side("127.0.0.1", port, port, true, (buf, off, len) -> {
            // the 10th packet, a middle packet of the WRITE: its 100th payload byte (IP 20, UDP 8, BTH 12 before it)
            if (++sent[0] == 10) {
                long at = off + 20 + 8 + 12 + 100;
                buf.segment.set(ValueLayout.JAVA_BYTE, at, (byte) (buf.segment.get(ValueLayout.JAVA_BYTE, at) ^ 0x20));
            }
        });
        UdpPair.Side b = UdpPair.side("127.0.0.2", port, port, true, null);
        try (var la = a.link(); var lb = b.link()) {
            writeSendRead(a, b, "127.0.0.1", "127.0.0.2", 1);
        }
    }

    /**
     * IPv6 has one loopback address, so the two devices share ::1 and bind their own socket ports; each link
     * routes to the other's socket while the packets carry the RoCE port 4791, which the ICRC covers.
     */
    @Test
    void rcOverIpv6LoopbackVerifiesEveryIcrcExactly() throws Exception {
        UdpPair.Side a;
        try {
            a = UdpPair.side("::1", 0, 4791);
        } catch (java.io.IOException e) {
            Assumptions.abort("no IPv6 loopback here: " + e.getMessage());
            return;
        }
        UdpPair.Side b = UdpPair.side("::1", 0, 4791);
        try (var la = a.link(); var lb = b.link()) {
            a.link().route(InetAddress.getByName("::1"), b.link().localPort());
            b.link().route(InetAddress.getByName("::1"), a.link().localPort());
            writeSendRead(a, b, "::1", "::1");
            for (UdpPair.Side x : new UdpPair.Side[] {a, b}) {
                assertEquals(0, x.nic().counters().get(Counter.DROP_NOT_ROCE), "the RoCE port survived the routing");
            }
        }
    }

    /** RDMA WRITE, SEND and READ from A to B; every byte lands and every ICRC verifies against the rebuilt headers. */
    private static void writeSendRead(UdpPair.Side a, UdpPair.Side b, String addressA, String addressB) {
        writeSendRead(a, b, addressA, addressB, 0);
    }

    /** The same, with {@code badIcrc} packets expected to be dropped by B for their ICRC. */
    private static void writeSendRead(UdpPair.Side a, UdpPair.Side b, String addressA, String addressB, long badIcrc) {
        {
            UdpPair.connect(a, addressB, b.qp().qpn());
            UdpPair.connect(b, addressA, a.qp().qpn());
            for (int i = 0; i < 100_000; i++) a.mr().segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 13));
            SendWr w = new SendWr(1);
            w.opcode = SendOpcode.RDMA_WRITE;
            w.sendFlags = SendFlags.SIGNALED;
            w.numSge = 1;
            w.sgList[0].set(a.mr().iova(), 100_000, a.mr().lkey());
            w.remoteAddr = b.mr().iova() + 4096;
            w.rkey = b.mr().rkey();
            a.nic().postSend(a.qp(), w);
            RecvWr r = new RecvWr(1);
            r.numSge = 1;
            r.sgList[0].set(b.mr().iova() + 200_000, 4096, b.mr().lkey());
            b.nic().postRecv(b.qp(), r);
            SendWr s = new SendWr(1);
            s.opcode = SendOpcode.SEND;
            s.sendFlags = SendFlags.SIGNALED;
            s.numSge = 1;
            s.sgList[0].set(a.mr().iova(), 3000, a.mr().lkey());
            a.nic().postSend(a.qp(), s);
            SendWr rd = new SendWr(1);
            rd.opcode = SendOpcode.RDMA_READ;
            rd.sendFlags = SendFlags.SIGNALED;
            rd.numSge = 1;
            rd.sgList[0].set(a.mr().iova() + 500_000, 100_000, a.mr().lkey());
            rd.remoteAddr = b.mr().iova() + 4096;
            rd.rkey = b.mr().rkey();
            a.nic().postSend(a.qp(), rd);
            List<WorkCompletion> done = UdpPair.pump(a, b, 3);
            assertEquals(3, done.size(), "three completions");
            assertTrue(done.stream().allMatch(c -> c.status == WcStatus.SUCCESS), done.toString());
            assertEquals(-1, MemorySegment.mismatch(a.mr().segment(), 0, 100_000, b.mr().segment(), 4096, 4096 + 100_000));
            assertEquals(-1, MemorySegment.mismatch(a.mr().segment(), 0, 100_000, a.mr().segment(), 500_000, 600_000));
            for (UdpPair.Side x : new UdpPair.Side[] {a, b}) {
                long bad = x == b ? badIcrc : 0;
                assertEquals(bad, x.nic().counters().get(Counter.DROP_BAD_ICRC), x.nic().config().name());
                assertEquals(x.link().received() - bad, x.nic().counters().get(Counter.RCVD_ICRC_VERIFIED), "every other ICRC verified");
                assertTrue(x.link().received() > 0);
            }
        }
    }
}
