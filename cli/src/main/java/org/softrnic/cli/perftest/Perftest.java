package org.softrnic.cli.perftest;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.softrnic.cli.oob.ToolSockets;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RecvWr;

/**
 * One perftest 4.5 tool in either role, step for step as the C tool goes: version, system data and MTU; the
 * 108-byte key handshakes (one per QP, then barriers that carry QP 0's keys); the test, per size under -a; the
 * client's results where the tool sends them; the close handshake and "done". One region holds every QP's
 * source area and, in its second half, the areas the peer targets; the report is printed in perftest's formats.
 */
final class Perftest {
    /** How long a side with no close handshake waits for its peer to leave. */
    private static final int LINGER_SECONDS = 15;

    private final PerftestOptions o;
    private final Runnable progress;
    private final PerftestReport report;

    Perftest(PerftestOptions o, PrintWriter out, Runnable progress) {
        this.o = o;
        this.progress = progress;
        this.report = new PerftestReport(o, out);
    }

    /** The QPs, closed before the CQs and the region they use. */
    private static final class QpList extends ArrayList<QueuePair> implements AutoCloseable {
        @Override
        public void close() {
            for (QueuePair qp : this) qp.close();
        }
    }

    /** The run's objects, once the QPs are connected. */
    private record Session(PerftestWire wire, List<PerftestWire.Key> mine, List<PerftestWire.Key> peers, List<QueuePair> qps,
                           CompletionQueue sendCq, CompletionQueue recvCq, MemoryRegion mr) {
        /** A barrier: QP 0's keys once more. */
        void sync() throws IOException {
            wire.exchangeKey(mine.getFirst());
        }

        /** A barrier the peer reaches once its run is over: bounded by --timeout only. */
        void awaitPeer(int timeoutSeconds) throws IOException {
            wire.exchangeKeyAfterRun(mine.getFirst(), timeoutSeconds);
        }
    }

    int run(RdmaContext ctx) throws IOException {
        boolean client = o.client();
        if (!client) report.waiting();
        try (PerftestWire wire = client ? connect(ctx) : accept(ctx)) {
            if (!client) wire.exchangeVersion(o.timeout());
            wire.exchangeSysData();
            Mtu mine = o.mtu() != null ? o.mtu() : ctx.queryPort(1).activeMtu();
            Mtu mtu = Mtu.values()[wire.exchangeMtu(mine.ordinal() + 1) - 1];
            int maxReads = ctx.queryDevice().maxQpRdAtom();
            int outReads = o.test().verb.readsOut() ? maxReads : 1;
            report.info(client, mtu, maxReads);
            PerftestTest t = o.test();
            int n = o.qps();
            long buff = o.buffSize();
            boolean send = t.verb == PerftestTest.Verb.SEND;
            // under -R the test's objects are made on rdma_cm's own context of the device, as perftest makes them on
            // cm_id->verbs: librdmacm refuses a PD of another context (on a soft RNIC either would do)
            RdmaContext res = wire instanceof CmWire cw ? cw.verbs() : ctx;
            try (Arena arena = Arena.ofShared();
                 ProtectionDomain pd = res.allocPd();
                 CompletionQueue sendCq = res.createCq(o.txDepth() * n + 1);
                 CompletionQueue recvCq = res.createCq(PerftestOptions.RX_DEPTH * n + 1);
                 MemoryRegion mr = pd.regMr(arena.allocate(2L * n * buff, 4096), Access.LOCAL_WRITE | t.verb.mrAccess | verifyAccess());
                 QpList own = new QpList();
                 CmTests cm = o.rdmaCm() ? (client ? CmTests.client(local(ctx)) : CmTests.listen(local(ctx), o.port(), n)) : null) {
                if (o.verify() && !client) VerifyRun.prepareTargets(mr, n, buff);
                List<PerftestWire.Key> keys = new ArrayList<>();
                List<PerftestWire.Key> peers = new ArrayList<>();
                QpCaps caps = new QpCaps(o.txDepth(), PerftestOptions.RX_DEPTH, 1, 1, 0);
                List<QueuePair> qps = cm != null ? cm.qps() : own;
                if (cm != null) {
                    // create_rdma_cm_connection: a barrier, every QP connected through the RDMA CM, a barrier
                    wire.exchangeKey(PerftestWire.Key.ZERO);
                    cm.connect(client ? ToolSockets.address(o.server()) : null, o.port(), n, pd, sendCq, recvCq, caps,
                            t.verb.readsOut() ? outReads : 0);
                    wire.exchangeKey(PerftestWire.Key.ZERO);
                } else {
                    for (int i = 0; i < n; i++) {
                        QueuePair qp = pd.createQp(new QpInitAttr(QpType.RC, sendCq, recvCq, null, caps, false));
                        own.add(qp);
                        toInit(qp);
                    }
                }
                for (int i = 0; i < n; i++) {
                    QueuePair qp = qps.get(i);
                    keys.add(new PerftestWire.Key(0, outReads, qp.qpn(), ThreadLocalRandom.current().nextInt() & 0xffffff,
                            mr.rkey(), mr.addr() + (n + i) * buff, ctx.queryGid(1, o.gidIndex()), 0));
                }
                for (int i = 0; i < n; i++) peers.add(wire.exchangeKey(keys.get(i)));
                for (PerftestWire.Key p : peers) {
                    if (cm == null && p.gid().isIpv4Mapped() != keys.getFirst().gid().isIpv4Mapped()) {
                        throw new IOException("the GIDs are of different families");
                    }
                }
                // the latency tests other than send_lat hand their keys over once more in a per-QP loop
                if (t.kind == PerftestTest.Kind.LAT && !send) wire.exchangeKey(keys.getFirst());
                // the BW servers stay at RTR: they never send (ctx_connect)
                for (int i = 0; i < n && cm == null; i++) {
                    connect(qps.get(i), keys.get(i), peers.get(i), mtu, outReads, client || t.kind == PerftestTest.Kind.LAT);
                }
                Session ss = new Session(wire, keys, peers, qps, sendCq, recvCq, mr);
                if (send) ss.sync();
                for (PerftestWire.Key k : keys) report.address("local", k);
                for (int i = 0; i < n; i++) {
                    // the remote lines print what this handshake brought, one QP at a time
                    report.address("remote", wire.exchangeKey(keys.get(i)));
                }
                if (!send) ss.sync(); // "additional handshake required after moving qp to RTR"
                return switch (t) {
                    case WRITE_BW, READ_BW, ATOMIC_BW -> bw(ss);
                    case SEND_BW -> sendBw(ss);
                    case WRITE_LAT -> writeLat(ss);
                    case READ_LAT -> readLat(ss);
                    case SEND_LAT -> sendLat(ss);
                };
            } catch (PerftestException e) {
                System.err.println(e.getMessage());
                return 1;
            }
        }
    }

    /**
     * write/read/atomic_bw: the client runs every size while the server waits in the next handshake; then the
     * client's figures for the last size go over, and the server prints them as its row.
     */
    private int bw(Session ss) throws IOException, PerftestException {
        report.header();
        PerftestWire wire = ss.wire();
        if (o.client()) {
            BwRun run = new BwRun(o, progress);
            BwRun.Result r = null;
            VerifyRun.Outcome checked = null;
            for (int size : o.sizes()) {
                if (o.verify()) {
                    checked = new VerifyRun(o, progress).client(ss.qps(), ss.sendCq(), ss.mr(), ss.peers(), size, o.iters());
                    r = checked.result();
                } else {
                    r = run.client(ss.qps(), ss.sendCq(), ss.mr(), ss.peers(), size, o.iters());
                }
                report.bwRow(r);
            }
            report.line();
            ss.sync();
            exchangeResult(wire, r);
            if (checked != null) {
                report.verified(checked);
                close(ss);
                return checked.differed() == 0 ? 0 : 1;
            }
        } else {
            ss.awaitPeer(o.timeout()); // the server is passive: it only moves its device meanwhile
            report.bwRow(exchangeResult(wire, new BwRun.Result(0, 0, 0, 0, 0)));
            if (o.test() == PerftestTest.ATOMIC_BW) report.line();
        }
        close(ss);
        if (!o.client() && o.test() != PerftestTest.ATOMIC_BW) report.line();
        return 0;
    }

    /** xchg_bw_reports: size, iters, peak, average, message rate; the server's own values mean nothing. */
    private static BwRun.Result exchangeResult(PerftestWire wire, BwRun.Result r) throws IOException {
        return new BwRun.Result(wire.exchangeLong(r.size()), wire.exchangeLong(r.iters()), wire.exchangeDouble(r.peak()),
                wire.exchangeDouble(r.avg()), wire.exchangeDouble(r.rate()));
    }

    /**
     * send_bw, per size: the server posts its receives before a barrier, the client sends, both print their own
     * rows, and (under -a) a barrier closes the size. No figures are exchanged.
     */
    private int sendBw(Session ss) throws IOException, PerftestException {
        report.header();
        BwRun run = new BwRun(o, progress);
        int nq = ss.qps().size();
        for (int size : o.sizes()) {
            RecvWr[] recvs = new RecvWr[nq];
            int[] posted = new int[nq];
            for (int q = 0; q < nq; q++) {
                recvs[q] = receive(ss, q, size);
                if (!o.client()) posted[q] = postReceives(ss.qps().get(q), recvs[q]);
            }
            ss.sync(); // the client may send only once the receives are there
            BwRun.Result r = o.client()
                    ? run.client(ss.qps(), ss.sendCq(), ss.mr(), ss.peers(), size, o.iters())
                    : run.server(ss.qps(), ss.recvCq(), recvs, posted, size, o.iters());
            report.bwRow(r);
            if (o.all()) ss.awaitPeer(o.timeout());
        }
        report.line();
        close(ss);
        return 0;
    }

    /**
     * write_lat: both write in turn, the server first; both print a row per size; no close handshake: the
     * tool just exits. A NIC keeps answering until its QP is gone, so this side stays until the peer has
     * closed the connection (its last write may still wait for an ACK, above all when -D timed the two ends
     * apart).
     */
    private int writeLat(Session ss) throws PerftestException {
        report.header();
        LatRun lat = lat(ss);
        for (int size : o.sizes()) report.latRow(lat.write(!o.client(), size), size);
        report.line();
        ss.wire().lingerUntilClosed(LINGER_SECONDS);
        return 0;
    }

    /** read_lat: the client alone reads; the server goes straight to the close handshake, which waits for the client. */
    private int readLat(Session ss) throws IOException, PerftestException {
        if (o.client()) {
            report.header();
            LatRun lat = lat(ss);
            for (int size : o.sizes()) report.latRow(lat.read(size), size);
        }
        close(ss);
        report.line();
        return 0;
    }

    /** send_lat, per size: both post receives, a barrier, then a SEND ping-pong the client starts; both print a row. */
    private int sendLat(Session ss) throws IOException, PerftestException {
        report.header();
        LatRun lat = lat(ss);
        for (int size : o.sizes()) {
            RecvWr recv = receive(ss, 0, size);
            int posted = postReceives(ss.qps().getFirst(), recv);
            ss.sync();
            report.latRow(lat.send(!o.client(), size, ss.recvCq(), recv, posted), size);
        }
        report.line();
        close(ss);
        return 0;
    }

    private LatRun lat(Session ss) {
        return new LatRun(o, ss.qps().getFirst(), ss.sendCq(), ss.mr(), ss.peers().getFirst(), progress);
    }

    /** Receives land in the area the peer would target (ctx_set_recv_wqes); wr_id = the QP's index. */
    private RecvWr receive(Session ss, int q, int size) {
        RecvWr recv = new RecvWr(1);
        recv.wrId = q;
        recv.numSge = 1;
        recv.sgList[0].set(ss.mine().get(q).vaddr(), size, ss.mr().lkey());
        return recv;
    }

    /** rx_depth receives, or fewer when fewer messages will come. */
    private int postReceives(QueuePair qp, RecvWr recv) {
        int count = o.timed() ? PerftestOptions.RX_DEPTH : Math.min(PerftestOptions.RX_DEPTH, o.iters());
        for (int i = 0; i < count; i++) qp.postRecv(recv);
        return count;
    }

    /** ctx_close_connection: one more handshake (the peer may still be in its run), then "done". */
    private void close(Session ss) throws IOException {
        ss.awaitPeer(o.timeout());
        ss.wire().done();
    }

    /** write_bw --verify reads every WRITE back. */
    private int verifyAccess() {
        return o.verify() ? org.softrnic.verbs.Access.REMOTE_READ : 0;
    }

    private void toInit(QueuePair qp) {
        QpAttr init = new QpAttr();
        init.qpState = QpState.INIT;
        init.portNum = 1;
        init.qpAccessFlags = o.test().verb.qpAccess | verifyAccess();
        qp.modify(init, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
    }

    /** ctx_modify_qp_to_rtr and, unless a passive BW server, ctx_modify_qp_to_rts. */
    private void connect(QueuePair qp, PerftestWire.Key me, PerftestWire.Key peer, Mtu mtu, int outReads, boolean toRts) {
        QpAttr a = new QpAttr();
        a.qpState = QpState.RTR;
        a.pathMtu = mtu;
        a.destQpNum = peer.qpn();
        a.rqPsn = peer.psn();
        a.maxDestRdAtomic = outReads;
        a.minRnrTimer = 12;
        a.ahAttr = new AddressVector(peer.gid(), o.gidIndex(), 0, 0xff, 0);
        qp.modify(a, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN | QpAttrMask.RQ_PSN
                | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);
        if (!toRts) return;
        a.qpState = QpState.RTS;
        a.timeout = 14;
        a.retryCnt = 7;
        a.rnrRetry = 7;
        a.sqPsn = me.psn();
        a.maxRdAtomic = Math.max(1, peer.outReads());
        qp.modify(a, QpAttrMask.STATE | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY | QpAttrMask.SQ_PSN
                | QpAttrMask.MAX_QP_RD_ATOMIC);
    }

    /** The address of the GID -x names: where -R's connections start and end on this side. */
    private InetAddress local(RdmaContext ctx) {
        return ctx.queryGid(1, o.gidIndex()).toInetAddress();
    }

    /** The server's exchange: a TCP client on -p, or under -R an rdma_cm connection to it. */
    private PerftestWire accept(RdmaContext ctx) throws IOException {
        if (o.rdmaCm()) return CmWire.accept(local(ctx), o.port(), o.gidIndex(), o.timeout());
        return new TcpWire(ToolSockets.accept(o.port(), progress, o.timeout()), false, progress);
    }

    /** The client's connection, once the versions are exchanged (retried while --wait lasts). */
    private PerftestWire connect(RdmaContext ctx) throws IOException {
        if (o.rdmaCm()) {
            CmWire w = CmWire.connect(local(ctx), ToolSockets.address(o.server()), o.port(), o.gidIndex(), System.nanoTime() + o.waitSeconds() * 1_000_000_000L);
            try {
                w.exchangeVersion();
                return w;
            } catch (IOException | RuntimeException e) {
                w.close();
                throw e;
            }
        }
        long end = System.nanoTime() + o.waitSeconds() * 1_000_000_000L;
        return ToolSockets.connectAndStart(new InetSocketAddress(ToolSockets.address(o.server()), o.port()), end, s -> {
            PerftestWire w = new TcpWire(s, true, progress);
            // a server that read our version answers with its own once it is ready, which a guest under emulation
            // may take longer than the exchange's 15 s over: wait as long as --wait allows (15 s at least); a
            // connection closed under us (qemu's forwarder before the guest listens) still fails at once. A retry
            // after the server read our version would leave that server failing to read the page size.
            w.exchangeVersion((int) Math.max(ToolSockets.exchangeSeconds(), (end - System.nanoTime()) / 1_000_000_000L));
            return w;
        });
    }
}
