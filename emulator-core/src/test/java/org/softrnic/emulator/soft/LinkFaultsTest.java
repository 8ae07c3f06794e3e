package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;

/** A device's link_faults hit the link to the named peer only; its other links stay clean. */
class LinkFaultsTest {
    @Test
    void linkFaultsApplyToTheNamedPeerOnly() throws Exception {
        FaultConfig lossy = new FaultConfig(0.1, null, null, null, null, null, 5L);
        try (SoftFabric fabric = SoftFabric.threaded(); Arena arena = Arena.ofShared()) {
            SoftRnic a = fabric.add(SoftRnicConfig.builder().name("lfA").gid("10.7.0.1").linkFaults("lfB", lossy).build());
            SoftRnic b = fabric.add(SoftRnicConfig.builder().name("lfB").gid("10.7.0.2").build());
            SoftRnic c = fabric.add(SoftRnicConfig.builder().name("lfC").gid("10.7.0.3").build());
            try (RdmaContext ca = a.open(); RdmaContext cb = b.open(); RdmaContext cc = c.open();
                 ProtectionDomain pa = ca.allocPd(); ProtectionDomain pb = cb.allocPd(); ProtectionDomain pc = cc.allocPd();
                 CompletionQueue qa = ca.createCq(64); CompletionQueue qb = cb.createCq(64); CompletionQueue qc = cc.createCq(64);
                 MemoryRegion ma = pa.regMr(arena.allocate(65536), ApiPair.ALL_ACCESS);
                 MemoryRegion mb = pb.regMr(arena.allocate(65536), ApiPair.ALL_ACCESS);
                 MemoryRegion mc = pc.regMr(arena.allocate(65536), ApiPair.ALL_ACCESS);
                 QueuePair toB = pa.createQp(QpInitAttr.rc(qa, QpCaps.of(16, 1)));
                 QueuePair toC = pa.createQp(QpInitAttr.rc(qa, QpCaps.of(16, 1)));
                 QueuePair fromA1 = pb.createQp(QpInitAttr.rc(qb, QpCaps.of(1, 1)));
                 QueuePair fromA2 = pc.createQp(QpInitAttr.rc(qc, QpCaps.of(1, 1)))) {
                toB.modifyToRts(fast(QpAttr.rcConnect(cb.queryGid(1, 0), fromA1.qpn(), Mtu.MTU_1024)));
                fromA1.modifyToRts(fast(QpAttr.rcConnect(ca.queryGid(1, 0), toB.qpn(), Mtu.MTU_1024)));
                toC.modifyToRts(fast(QpAttr.rcConnect(cc.queryGid(1, 0), fromA2.qpn(), Mtu.MTU_1024)));
                fromA2.modifyToRts(fast(QpAttr.rcConnect(ca.queryGid(1, 0), toC.qpn(), Mtu.MTU_1024)));

                writes(toC, ma, mc, qa);
                assertEquals(0L, a.counters().get("link_dropped"), "the link to lfC is clean");
                writes(toB, ma, mb, qa);
                assertTrue(a.counters().get("link_dropped") > 0, "the link to lfB loses packets");
                assertEquals(0L, b.counters().get("link_dropped"), "lfB's own links are clean");
            }
        }
    }

    /**
     * Faults asked of a device on a kernel UDP link are applied to what it sends (the fault model of the
     * in-process fabric, around the socket) and counted; RC still completes, going back N.
     */
    @Test
    void faultsOnAUdpLinkAreAppliedAndCounted() throws Exception {
        FaultConfig faults = new FaultConfig(0.1, 0.05, 0.05, null, null, null, 5L);
        try (SoftRnic a = SoftRnic.open(SoftRnicConfig.builder().name("lfU").gid("127.0.0.41").link("udp:127.0.0.41:0")
                .faults(faults).build());
             SoftRnic b = SoftRnic.open(SoftRnicConfig.builder().name("lfV").gid("127.0.0.42").link("udp:127.0.0.42:0").build());
             End x = new End(a); End y = new End(b)) {
            x.connect(y, b.rocePort());
            y.connect(x, a.rocePort());
            writes(x.qp, x.mr, y.mr, x.cq);
            var c = a.counters();
            assertTrue(c.get("link_dropped") > 0 && c.get("link_duplicated") > 0 && c.get("link_reordered") > 0, c.toString());
            assertEquals(0L, b.counters().get("link_dropped"), "the peer's own link is clean");
        }
    }

    /**
     * Two devices on one address, each socket on a port of its own while their packets carry the RoCE port
     * 4791: each routes to the other's socket; the faulty one's route reaches its socket through the faults.
     */
    @Test
    void routesReachTheSocketBehindTheFaults() throws Exception {
        int pa = 20000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(20000);
        int pb = pa + 1;
        FaultConfig faults = new FaultConfig(0.05, null, null, null, null, null, 9L);
        try (SoftRnic a = SoftRnic.open(SoftRnicConfig.builder().name("lfR").gid("127.0.0.44").link("udp:127.0.0.44:" + pa)
                .faults(faults).build());
             SoftRnic b = SoftRnic.open(SoftRnicConfig.builder().name("lfS").gid("127.0.0.44").link("udp:127.0.0.44:" + pb).build());
             End x = new End(a); End y = new End(b)) {
            a.route(java.net.InetAddress.getByName("127.0.0.44"), pb);
            b.route(java.net.InetAddress.getByName("127.0.0.44"), pa);
            x.connect(y, 0);
            y.connect(x, 0);
            writes(x.qp, x.mr, y.mr, x.cq);
            assertTrue(a.counters().get("link_dropped") > 0, a.counters().toString());
        }
    }

    /** A device's context, PD, CQ, 64 KiB region and RC QP, closed in order. */
    private static final class End implements AutoCloseable {
        final Arena arena = Arena.ofShared();
        final RdmaContext ctx;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final MemoryRegion mr;
        final QueuePair qp;

        End(SoftRnic device) {
            ctx = device.open();
            pd = ctx.allocPd();
            cq = ctx.createCq(64);
            mr = pd.regMr(arena.allocate(65536), ApiPair.ALL_ACCESS);
            qp = pd.createQp(QpInitAttr.rc(cq, QpCaps.of(16, 1)));
        }

        /** To {@code peer}'s QP, at its RoCE port {@code udpPort} (0: the default). */
        void connect(End peer, int udpPort) {
            QpAttr attr = fast(QpAttr.rcConnect(peer.ctx.queryGid(1, 0), peer.qp.qpn(), Mtu.MTU_1024));
            if (udpPort != 0) attr.ahAttr = attr.ahAttr.withUdpPort(udpPort);
            qp.modifyToRts(attr);
        }

        @Override
        public void close() {
            try (arena; ctx; pd; cq; mr; qp) {
                // closed in reverse: QP, region, CQ, PD, context, memory
            }
        }
    }

    /** link_faults name peers on an in-process fabric; on a real link they are refused rather than ignored. */
    @Test
    void linkFaultsOnAUdpLinkAreRefusedNotIgnored() {
        var config = SoftRnicConfig.builder().name("lfW").gid("127.0.0.43").link("udp:127.0.0.43:0")
                .linkFaults("lfV", new FaultConfig(0.1, null, null, null, null, null, 5L)).build();
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> SoftRnic.open(config));
        assertTrue(e.getMessage().contains("link_faults name devices of an in-process fabric"), e.getMessage());
    }

    /** A 4 ms ACK timeout (perftest's 67 ms makes lossy tests slow). */
    private static QpAttr fast(QpAttr a) {
        a.timeout = 10;
        return a;
    }

    private static void writes(QueuePair qp, MemoryRegion from, MemoryRegion to, CompletionQueue cq) {
        SendWr wr = new SendWr(1).sge(from.addr(), 16384, from.lkey());
        wr.opcode = SendOpcode.RDMA_WRITE;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.remoteAddr = to.addr();
        wr.rkey = to.rkey();
        for (int i = 0; i < 16; i++) {
            qp.postSend(wr);
            ApiPair.awaitOk(cq);
        }
    }
}
