package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.cc.NotificationPoint;
import org.softrnic.nic.sim.LinkFaults;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpType;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.Ecn;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.Ipv4;

/**
 * DCQCN's notification point: a CE-marked data packet gets its QP's peer a CNP as ConnectX sends one, at most one
 * per QP each min_time_between_cnps; other packets, and devices without it (rxe's behaviour, the default), send none.
 */
class NotificationPointTest {
    private static Pair marked(Ecn ecn) {
        Pair p = new Pair(QpType.RC, Mtu.MTU_1024, 5,
                a -> a.ahAttr = new AddressVector(a.ahAttr.dgid(), 0, 0, 64, (26 << 2) | ecn.bits));
        p.fabric.faults(p.a.nic, p.b.nic, new LinkFaults(0, 0, 0, 1_000, 0, 1.0)); // a to b congested: every ECT packet CE
        return p;
    }

    @Test
    void aMarkedWriteGetsItsSenderOneCnpAsConnectXSendsIt() throws Exception {
        Pair p = marked(Ecn.ECT0);
        p.b.nic.notificationPoint(NotificationPoint.firmware());
        p.fabric.tracing(true);
        p.write64k();
        assertEquals(64, p.b.nic.counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS));
        assertEquals(1, p.b.nic.counters().get(Counter.NP_CNP_SENT), "64 marks in the same instant: one CNP");
        assertEquals(1, p.a.nic.counters().get(Counter.RP_CNP_IGNORED), "no reaction point yet: counted, not acted on");
        List<DecodedFrame> cnps = p.fabric.trace().stream().map(t -> new FrameCodec().decodeIp(t.bytes(), 0))
                .filter(d -> d.packet() != null && d.packet().opcode() == Opcode.CNP).toList();
        assertEquals(1, cnps.size());
        DecodedFrame cnp = cnps.getFirst();
        assertTrue(cnp.icrcOk(), cnp::errorMessage);
        assertEquals(p.a.qp.qpn(), cnp.packet().bth().dqpn(), "DestQP: the QP to throttle, the data's sender");
        assertTrue(cnp.packet().bth().becn());
        assertEquals(0, cnp.packet().bth().psn());
        assertEquals(0xffff, cnp.packet().bth().pkey());
        Ipv4 ip = (Ipv4) cnp.ip();
        assertEquals(48, ip.dscp(), "CNP_DSCP, whatever the QP's traffic class (26 here)");
        assertEquals(Ecn.ECT0.bits, ip.ecn());
        assertEquals(60, ip.totalLength(), "IP 60 B: BTH, 16 reserved bytes, ICRC");
    }

    @Test
    void marksInsideTheIntervalAreCoalescedPerQp() {
        for (long interval : new long[] {4_000, 50_000}) {
            Pair p = marked(Ecn.ECT1);
            p.b.nic.notificationPoint(new NotificationPoint(true, interval, 48));
            byte[] write = markedWrite(p);
            SimFabric f = p.fabric;
            long t0 = f.clock().nanoTime();
            for (int us = 0; us < 1000; us++) {
                f.clock().advanceTo(t0 + us * 1_000L);
                p.b.nic.receive(org.softrnic.wire.PacketBuffer.wrap(write.clone()), 0, write.length);
            }
            assertEquals(1000, p.b.nic.counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS));
            assertEquals(1000 / (interval / 1000), p.b.nic.counters().get(Counter.NP_CNP_SENT),
                    "one CNP at 0, then one per " + interval + " ns of marks (the firmware's min_time_between_cnps)");
        }
    }

    @Test
    void unmarkedPacketsAcksAndDevicesWithoutItSendNone() {
        Pair ect = marked(Ecn.NOT_ECT);
        ect.b.nic.notificationPoint(NotificationPoint.firmware());
        ect.write64k();
        assertEquals(0, ect.b.nic.counters().get(Counter.NP_CNP_SENT), "Not-ECT packets are never marked");

        Pair acks = new Pair(QpType.RC, Mtu.MTU_1024, 5,
                a -> a.ahAttr = new AddressVector(a.ahAttr.dgid(), 0, 0, 64, (26 << 2) | Ecn.ECT0.bits));
        acks.fabric.faults(acks.b.nic, acks.a.nic, new LinkFaults(0, 0, 0, 1_000, 0, 1.0)); // only b to a: the ACKs
        acks.a.nic.notificationPoint(NotificationPoint.firmware());
        acks.write64k();
        assertTrue(acks.a.nic.counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS) > 0);
        assertEquals(0, acks.a.nic.counters().get(Counter.NP_CNP_SENT), "an ACK never triggers a CNP");

        Pair off = marked(Ecn.ECT0);
        off.write64k();
        assertEquals(64, off.b.nic.counters().get(Counter.NP_ECN_MARKED_ROCE_PACKETS));
        assertEquals(0, off.b.nic.counters().get(Counter.NP_CNP_SENT), "off by default, as rxe");
    }

    /** An RDMA WRITE ONLY from a's address to b's QP, CE-marked, at b's next PSN: a duplicate after the first. */
    static byte[] markedWrite(Pair p) {
        byte[] frame = Pkt.of(Opcode.RC_RDMA_WRITE_ONLY).qpn(p.b.qp.qpn()).psn(0).reth(p.b.va(0), p.b.mr.rkey(), 4)
                .payload(new byte[4]).from("192.0.2.1").to("192.0.2.2").frame();
        frame[1] = (byte) (frame[1] | Ecn.CE.bits); // the ICRC masks the TOS; the IPv4 checksum follows
        Ipv4.refreshChecksum(java.lang.foreign.MemorySegment.ofArray(frame), 0);
        return frame;
    }
}
