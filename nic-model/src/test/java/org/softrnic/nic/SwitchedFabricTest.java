package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.sim.EcnMarking;
import org.softrnic.nic.sim.Pfc;
import org.softrnic.nic.sim.PortStatistics;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.nic.sim.Topology;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;

/** Two senders into one receiver through one switch: serialisation, queues, ECN at dequeue, drops and PFC. */
class SwitchedFabricTest {
    private static final long MIB = 1 << 20;

    /** Senders s1 and s2 each WRITE 1 MiB to r at once, over 10 Gb/s links of 1 µs; returns the fabric run to idle. */
    private static SimFabric incast(Topology.Switch sw, boolean dcqcn) {
        SimFabric f = new SimFabric(11);
        f.topology(Topology.star(List.of("r", "s1", "s2"), sw, 10, 1_000));
        Pair.Side r = new Pair.Side(f.add(NicConfig.of("r", Gid.parse("10.0.0.1"), 1)), 4 << 20, 256);
        if (dcqcn) r.nic.notificationPoint(org.softrnic.nic.cc.NotificationPoint.firmware());
        for (int i = 1; i <= 2; i++) {
            Pair.Side s = new Pair.Side(f.add(NicConfig.of("s" + i, Gid.parse("10.0.0." + (i + 1)), i + 1)), 2 << 20, 256);
            if (dcqcn) s.nic.reactionPoint(org.softrnic.nic.cc.DcqcnParameters.firmware(), 10_000);
            s.qp = s.nic.createQp(s.pd, QpType.RC, s.scq, s.rcq, null, new QpCaps(16, 16, 1, 1, 0), false);
            Pair.Side rq = new Pair.Side(r.nic, r.pd, r.mem, r.mr, r.scq, r.rcq);
            rq.qp = r.nic.createQp(r.pd, QpType.RC, r.scq, r.rcq, null, new QpCaps(16, 16, 1, 1, 0), false);
            // DSCP 26: priority 3, the lossless one; ECT(0) is the reaction point's to set
            java.util.function.Consumer<org.softrnic.verbs.QpAttr> tc = a -> a.ahAttr = new AddressVector(a.ahAttr.dgid(), 0, 0, 64, 26 << 2);
            Pair.connect(s, rq, r.nic.gids().getFirst(), QpType.RC, Mtu.MTU_1024, 0x10, 0x10, tc);
            Pair.connect(rq, s, s.nic.gids().getFirst(), QpType.RC, Mtu.MTU_1024, 0x10, 0x10, tc);
            SendWr w = s.wr(i, SendOpcode.RDMA_WRITE, 0, (int) MIB);
            w.remoteAddr = r.va((i - 1) * 2 * MIB);
            w.rkey = r.mr.rkey();
            s.post(w);
        }
        f.runUntilIdle();
        return f;
    }

    @Test
    void theBottleneckSerialisesAtItsRateAndQueuesTheRest() {
        SimFabric f = incast(new Topology.Switch("sw", 32 * MIB, EcnMarking.OFF, Pfc.OFF), false);
        PortStatistics down = f.portStatistics("sw", "r");
        // 2 MiB in 2048 packets of 1024 B payload, 44 B of IP, UDP, BTH and ICRC, 38 of framing, at 10 Gb/s: 1.835 ms
        long wire = 2048L * (1024 + 44 + 38);
        assertTrue(down.txBytes() >= wire, "every data packet crossed the port: " + down.txBytes());
        assertEquals(0, down.drops());
        assertTrue(down.maxQueueBytes() > 100_000, "two line-rate senders into one port queue up: " + down.maxQueueBytes());
        long took = f.clock().nanoTime();
        assertTrue(took >= wire * 8 / 10, "no faster than the port's rate: " + took + " ns");
    }

    @Test
    void aSmallBufferDropsAndGoBackNRecovers() {
        SimFabric f = incast(new Topology.Switch("sw", 64 * 1024, EcnMarking.OFF, Pfc.OFF), false);
        assertTrue(f.portStatistics("sw", "r").drops() > 0, "a 64 KiB buffer overflows");
    }

    @Test
    void ecnMarksAtDequeueAndDcqcnKeepsTheQueueNearKmin() {
        SimFabric f = incast(new Topology.Switch("sw", 32 * MIB, EcnMarking.hpcc(10), Pfc.OFF), true);
        PortStatistics down = f.portStatistics("sw", "r");
        assertTrue(down.marks() > 0, "marked above Kmin");
        assertEquals(0, down.drops());
        assertTrue(down.maxQueueBytes() < 400_000, "DCQCN held the queue: " + down.maxQueueBytes());
    }

    @Test
    void pfcPausesTheSendersInsteadOfDropping() {
        Pfc pfc = Pfc.on(3, 40_000, 10, 1_000, Pfc.MTU_1024_FRAME);
        SimFabric f = incast(new Topology.Switch("sw", 128 * 1024, EcnMarking.OFF, pfc), false);
        assertEquals(0, f.portStatistics("sw", "r").drops(), "lossless: paused, not dropped");
        assertTrue(f.portStatistics("sw", "s1").pauseFramesSent() > 0, "XOFF to s1");
        assertTrue(f.portStatistics("sw", "s2").pauseFramesSent() > 0, "XOFF to s2");
    }
}
