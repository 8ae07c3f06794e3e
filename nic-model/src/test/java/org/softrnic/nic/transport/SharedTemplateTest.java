package org.softrnic.nic.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.Handles;
import org.softrnic.nic.Nic;
import org.softrnic.nic.NicConfig;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.time.VirtualClock;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.wire.Be;

/**
 * QPs that send along the same path share one header template; each packet still leaves from its own QP's
 * UDP source port (rdma_get_udp_sport for RC, rxe's hash of the QPN for UD), unless the link fixes one.
 */
class SharedTemplateTest {
    private static final Gid LOCAL = Gid.parse("192.0.2.1");
    private static final Gid PEER = Gid.parse("192.0.2.2");

    /**
     * UDP source port, BTH destination QP and, for IPv6, the flow label of each packet sent, in order (IP
     * packets, no Ethernet header).
     */
    private final List<int[]> sent = new ArrayList<>();
    private final PacketSink sink = (buffer, offset, length) -> {
        boolean v4 = Be.u8(buffer.segment, offset) >>> 4 == 4;
        int udp = offset + (v4 ? 20 : 40);
        int flowLabel = v4 ? -1 : Be.u32(buffer.segment, offset) & 0xfffff;
        sent.add(new int[] {Be.u16(buffer.segment, udp), Be.u24(buffer.segment, udp + 8 + 5), flowLabel});
        return true;
    };

    @Test
    void rcQpsToOnePeerSendFromTheirOwnPorts() {
        Nic nic = new Nic(NicConfig.of("a", LOCAL, 1), new VirtualClock(), sink);
        Device d = new Device(nic);
        int[] peers = {0x300, 0x301, 0x302, 0x300};
        List<QueuePair> qps = new ArrayList<>();
        for (int peer : peers) {
            QueuePair qp = d.qp(QpType.RC);
            nic.modifyToRts(qp, QpAttr.rcConnect(PEER, peer, Mtu.MTU_1024));
            qps.add(qp);
        }
        for (QueuePair qp : qps) nic.postSend(qp, d.send());
        assertEquals(peers.length, sent.size());
        for (int i = 0; i < peers.length; i++) {
            assertEquals(peers[i], sent.get(i)[1]);
            assertEquals(Engine.udpSourcePort(0, qps.get(i).qpn(), peers[i]), sent.get(i)[0], "QP " + i + "'s source port");
            // each connect passed a vector of its own; the QPs now hold the one their path keeps
            assertSame(qps.get(0).attr().ahAttr, qps.get(i).attr().ahAttr, "QP " + i + "'s address vector");
        }
    }

    @Test
    void vectorsThatDifferOnlyInTheFlowLabelAreTwoPathsOverIpv6() {
        Gid local = Gid.parse("2001:db8::1");
        Gid peer = Gid.parse("2001:db8::2");
        Nic nic = new Nic(NicConfig.of("a", local, 1), new VirtualClock(), sink);
        Device d = new Device(nic);
        int[] flowLabels = {0, 0x12345, 0};
        List<QueuePair> qps = new ArrayList<>();
        for (int flowLabel : flowLabels) {
            QueuePair qp = d.qp(QpType.RC);
            QpAttr attr = QpAttr.rcConnect(peer, 0x300, Mtu.MTU_1024);
            attr.ahAttr = new AddressVector(peer, 0, flowLabel, 64, 0);
            nic.modifyToRts(qp, attr);
            qps.add(qp);
            nic.postSend(qp, d.send());
        }
        assertEquals(3, sent.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(flowLabels[i], sent.get(i)[2], "packet " + i + "'s flow label");
            assertEquals(Engine.udpSourcePort(flowLabels[i], qps.get(i).qpn(), 0x300), sent.get(i)[0], "packet " + i + "'s source port");
        }
        assertNotSame(qps.get(0).attr().ahAttr, qps.get(1).attr().ahAttr);
        assertSame(qps.get(0).attr().ahAttr, qps.get(2).attr().ahAttr);
    }

    @Test
    void udQpsSendingToOneAddressSendFromTheirOwnPorts() {
        Nic nic = new Nic(NicConfig.of("a", LOCAL, 1), new VirtualClock(), sink);
        Device d = new Device(nic);
        List<QueuePair> qps = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            QueuePair qp = d.qp(QpType.UD);
            QpAttr attr = QpAttr.rcConnect(PEER, 0, Mtu.MTU_1024);
            attr.qkey = 0x11111111;
            nic.modifyToRts(qp, attr);
            qps.add(qp);
        }
        for (QueuePair qp : qps) {
            SendWr w = d.send();
            w.ah = Handles.ah(AddressVector.to(PEER));
            w.remoteQpn = 0x400;
            w.remoteQkey = 0x11111111;
            nic.postSend(qp, w);
        }
        assertEquals(3, sent.size());
        for (int i = 0; i < 3; i++) assertEquals(Engine.udUdpSourcePort(qps.get(i).qpn()), sent.get(i)[0], "UD QP " + i);
    }

    @Test
    void aLinkThatFixesThePortKeepsItForEveryQp() {
        Nic nic = new Nic(NicConfig.of("a", LOCAL, 1).withLink(new org.softrnic.nic.LinkProfile(false, 50000, false)), new VirtualClock(), sink);
        Device d = new Device(nic);
        for (int peer : new int[] {0x300, 0x301}) {
            QueuePair qp = d.qp(QpType.RC);
            nic.modifyToRts(qp, QpAttr.rcConnect(PEER, peer, Mtu.MTU_1024));
            nic.postSend(qp, d.send());
        }
        assertEquals(2, sent.size());
        for (int[] p : sent) assertEquals(50000, p[0]);
    }

    /** A PD, a CQ and a small region on {@code nic}, and QPs and sends over them. */
    private record Device(Nic nic, ProtectionDomain pd, CompletionQueue cq, MemoryRegion mr) {
        Device(Nic nic) {
            this(nic, nic.allocPd(), null, null);
        }

        Device {
            if (cq == null) cq = nic.createCq(64);
            if (mr == null) mr = nic.regMr(pd, Arena.ofAuto().allocate(64, 8), Access.LOCAL_WRITE);
        }

        QueuePair qp(QpType type) {
            return nic.createQp(pd, type, cq, cq, null, new QpCaps(4, 4, 1, 1, 0), false);
        }

        SendWr send() {
            SendWr w = new SendWr(1);
            w.opcode = SendOpcode.SEND;
            w.numSge = 1;
            w.sgList[0].set(mr.iova(), 16, mr.lkey());
            return w;
        }
    }
}
