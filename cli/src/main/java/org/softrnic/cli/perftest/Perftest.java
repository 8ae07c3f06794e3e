package org.softrnic.cli.perftest;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.ThreadLocalRandom;
import org.softrnic.nic.cq.WcStatus;
import org.softrnic.nic.cq.WorkCompletion;
import org.softrnic.nic.mem.Access;
import org.softrnic.nic.qp.AddressVector;
import org.softrnic.nic.qp.Gid;
import org.softrnic.nic.qp.Mtu;
import org.softrnic.nic.qp.QpAttr;
import org.softrnic.nic.qp.QpAttrMask;
import org.softrnic.nic.qp.QpCaps;
import org.softrnic.nic.qp.QpState;
import org.softrnic.nic.qp.QpType;
import org.softrnic.nic.qp.SendFlags;
import org.softrnic.nic.qp.SendOpcode;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SendWr;
import org.softrnic.cli.oob.ToolSockets;

/**
 * ib_write_bw and ib_read_bw of perftest 4.5, in either role: the same TCP exchange (version, system data,
 * MTU, three 108-byte key handshakes, the test, one more, the client's five result values, a last one and
 * "done"), the same buffers (the peer targets the second half of the region), attributes, signalling and
 * report. The server is passive: it only moves its device while the client runs.
 */
final class Perftest {
    enum Test {
        WRITE_BW("RDMA_Write", SendOpcode.RDMA_WRITE, 5000, Access.REMOTE_WRITE),
        READ_BW("RDMA_Read", SendOpcode.RDMA_READ, 1000, Access.REMOTE_READ),
        SEND_BW("Send", SendOpcode.SEND, 1000, Access.REMOTE_WRITE);

        final String title;
        final SendOpcode opcode;
        final int defaultIters;
        final int access;

        Test(String title, SendOpcode opcode, int defaultIters, int access) {
            this.title = title;
            this.opcode = opcode;
            this.defaultIters = defaultIters;
            this.access = access;
        }

        boolean read() {
            return this == READ_BW;
        }

        boolean send() {
            return this == SEND_BW;
        }
    }

    record Options(Test test, String server, int port, int size, int iters, int gidIndex, int txDepth, String device,
                   int waitSeconds) {}

    static final String RESULT_LINE = "-".repeat(87);
    private static final int CYCLE_BUFFER = 4096;
    /** ib_send_bw's server keeps this many receives posted. */
    private static final int RX_DEPTH = 512;

    private final Options o;
    private final PrintWriter out;
    private final Runnable progress;

    Perftest(Options o, PrintWriter out, Runnable progress) {
        this.o = o;
        this.out = out;
        this.progress = progress;
    }

    int run(RdmaContext ctx) throws IOException, InterruptedException {
        boolean client = o.server() != null;
        try (Socket s = client ? connect() : accept(); PerftestWire wire = new PerftestWire(s, client, progress)) {
            wire.exchangeVersion();
            wire.exchangeSysData();
            Mtu mtu = Mtu.values()[wire.exchangeMtu(ctx.queryPort(1).activeMtu().ordinal() + 1) - 1];
            printInfo(ctx, client, mtu);
            int half = Math.max(o.size(), CYCLE_BUFFER);
            int outReads = o.test().read() ? ctx.queryDevice().maxQpRdAtom() : 1;
            try (Arena arena = Arena.ofShared();
                 ProtectionDomain pd = ctx.allocPd();
                 CompletionQueue cq = ctx.createCq(Math.max(o.txDepth(), RX_DEPTH) + 1);
                 MemoryRegion mr = pd.regMr(arena.allocate(2L * half, 4096), Access.LOCAL_WRITE | o.test().access);
                 QueuePair qp = pd.createQp(QpInitAttr.rc(cq, new QpCaps(o.txDepth(), RX_DEPTH, 1, 1, 0)))) {
                QpAttr init = new QpAttr();
                init.qpState = QpState.INIT;
                init.portNum = 1;
                init.qpAccessFlags = o.test().access | (o.test().send() ? Access.LOCAL_WRITE : 0);
                qp.modify(init, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
                Gid gid = ctx.queryGid(1, o.gidIndex());
                PerftestWire.Key me = new PerftestWire.Key(0, outReads, qp.qpn(), ThreadLocalRandom.current().nextInt() & 0xffffff,
                        mr.rkey(), mr.addr() + half, gid, 0);
                PerftestWire.Key peer = wire.exchangeKey(me);
                if (peer.gid().isIpv4Mapped() != gid.isIpv4Mapped()) throw new IOException("the GIDs are of different families");
                connect(qp, me, peer, mtu, outReads, client);
                if (o.test().send()) wire.exchangeKey(me); // ib_send_bw syncs once more right after connecting
                out.println(address("local", me));
                wire.exchangeKey(me);
                out.println(address("remote", peer));
                if (!o.test().send()) wire.exchangeKey(me);
                out.println(RESULT_LINE);
                out.println(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]");
                out.flush();
                if (o.test().send()) return sendBw(client, wire, me, qp, cq, mr, peer);
                if (client) {
                    Result r = runClient(qp, cq, mr, peer);
                    if (r == null) return 1;
                    printRow(r.size, r.iters, r.peak, r.avg, r.rate);
                    out.println(RESULT_LINE);
                    out.flush();
                    wire.exchangeKey(me);
                    wire.exchangeLong(r.size);
                    wire.exchangeLong(r.iters);
                    wire.exchangeDouble(r.peak);
                    wire.exchangeDouble(r.avg);
                    wire.exchangeDouble(r.rate);
                } else {
                    wire.exchangeKey(me); // the client runs the test meanwhile; this side only moves its device
                    long size = wire.exchangeLong(0);
                    long iters = wire.exchangeLong(0);
                    double peak = wire.exchangeDouble(0);
                    double avg = wire.exchangeDouble(0);
                    double rate = wire.exchangeDouble(0);
                    printRow(size, iters, peak, avg, rate);
                }
                wire.exchangeKey(me);
                wire.done();
                if (!client) out.println(RESULT_LINE);
                out.flush();
                return 0;
            }
        }
    }

    private record Result(long size, long iters, double peak, double avg, double rate) {}

    /**
     * ib_send_bw after the addresses: the server posts its receives, a barrier, the client sends while the
     * server receives (and re-posts), each prints its own row (the server's peak 0.00), then the close.
     */
    private int sendBw(boolean client, PerftestWire wire, PerftestWire.Key me, QueuePair qp, CompletionQueue cq,
                       MemoryRegion mr, PerftestWire.Key peer) throws IOException {
        org.softrnic.nic.qp.RecvWr recv = new org.softrnic.nic.qp.RecvWr(1);
        recv.numSge = 1;
        recv.sgList[0].set(mr.addr(), o.size(), mr.lkey());
        int posted = 0;
        if (!client) {
            for (; posted < Math.min(RX_DEPTH, o.iters()); posted++) qp.postRecv(recv);
        }
        wire.exchangeKey(me); // the client may send only once the receives are there
        Result r;
        if (client) {
            r = runClient(qp, cq, mr, peer);
        } else {
            r = runServer(qp, cq, recv, posted);
        }
        if (r == null) return 1;
        printRow(r.size, r.iters, r.peak, r.avg, r.rate);
        out.println(RESULT_LINE);
        out.flush();
        wire.exchangeKey(me);
        wire.done();
        return 0;
    }

    /** run_iter_bw_server: receives until all came, re-posting; timed from the first to the last. */
    private Result runServer(QueuePair qp, CompletionQueue cq, org.softrnic.nic.qp.RecvWr recv, int posted) {
        WorkCompletion[] wc = new WorkCompletion[16];
        for (int i = 0; i < wc.length; i++) wc[i] = new WorkCompletion();
        int n = o.iters();
        int got = 0;
        long first = 0;
        long last = 0;
        while (got < n) {
            int k = cq.poll(wc);
            long now = System.nanoTime();
            for (int i = 0; i < k; i++) {
                if (wc[i].status != WcStatus.SUCCESS) {
                    System.err.printf(" Completion with error at server%n Failed status %d: wr_id %d%n", wc[i].status.value, (int) wc[i].wrId);
                    return null;
                }
                if (got++ == 0) first = now;
                last = now;
                if (posted < n) {
                    qp.postRecv(recv);
                    posted++;
                }
            }
        }
        double seconds = Math.max(1e-9, (last - first) / 1e9);
        return new Result(o.size(), n, 0.0, (double) o.size() * n / seconds / 0x100000, n / seconds / 1e6);
    }

    /** run_iter_bw with post_list 1 and CQ moderation 1: tx_depth requests outstanding, each signaled. */
    private Result runClient(QueuePair qp, CompletionQueue cq, MemoryRegion mr, PerftestWire.Key peer) {
        int n = o.iters();
        long[] posted = new long[n];
        long[] completed = new long[n];
        SendWr wr = new SendWr(1).sge(mr.addr(), o.size(), mr.lkey());
        wr.opcode = o.test().opcode;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.remoteAddr = peer.vaddr();
        wr.rkey = peer.rkey();
        WorkCompletion[] wc = new WorkCompletion[16];
        for (int i = 0; i < wc.length; i++) wc[i] = new WorkCompletion();
        int scnt = 0;
        int ccnt = 0;
        while (ccnt < n) {
            while (scnt < n && scnt - ccnt < o.txDepth()) {
                wr.wrId = scnt;
                posted[scnt] = System.nanoTime();
                qp.postSend(wr);
                scnt++;
            }
            int got = cq.poll(wc);
            long now = System.nanoTime();
            for (int i = 0; i < got; i++) {
                if (wc[i].status != WcStatus.SUCCESS) {
                    System.err.printf(" Completion with error at client%n Failed status %d: wr_id %d syndrom 0x%x%n",
                            wc[i].status.value, (int) wc[i].wrId, wc[i].vendorErr);
                    return null;
                }
                completed[ccnt++] = now;
            }
        }
        double seconds = (completed[n - 1] - posted[0]) / 1e9;
        double avg = (double) o.size() * n / seconds / 0x100000;
        double rate = n / seconds / 1e6;
        // perftest's peak: the best time per message over every run of consecutive messages i..j
        long best = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) best = Math.min(best, (completed[j] - posted[i]) / (j - i + 1));
        }
        double peak = best > 0 ? o.size() / (best / 1e9) / 0x100000 : avg;
        return new Result(o.size(), n, peak, avg, rate);
    }

    /** ctx_modify_qp_to_rtr/rts: the client to RTS, the server (passive) to RTR only. */
    private void connect(QueuePair qp, PerftestWire.Key me, PerftestWire.Key peer, Mtu mtu, int outReads, boolean client) {
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
        if (!client) return;
        a.qpState = QpState.RTS;
        a.timeout = 14;
        a.retryCnt = 7;
        a.rnrRetry = 7;
        a.sqPsn = me.psn();
        a.maxRdAtomic = Math.max(1, peer.outReads());
        qp.modify(a, QpAttrMask.STATE | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY | QpAttrMask.SQ_PSN
                | QpAttrMask.MAX_QP_RD_ATOMIC);
    }

    private Socket accept() throws IOException {
        out.print("\n************************************\n* Waiting for client to connect... *\n************************************\n");
        out.flush();
        return ToolSockets.accept(o.port(), progress);
    }

    private Socket connect() throws IOException {
        return ToolSockets.connect(new InetSocketAddress(ToolSockets.address(o.server()), o.port()),
                System.nanoTime() + o.waitSeconds() * 1_000_000_000L);
    }

    /** ctx_print_test_info. */
    private void printInfo(RdmaContext ctx, boolean client, Mtu mtu) {
        out.println(RESULT_LINE);
        out.println(" ".repeat(20) + o.test().title + " BW Test");
        out.printf(" Dual-port       : %s\t\tDevice         : %s%n", "OFF", o.device());
        out.printf(" Number of qps   : %d\t\tTransport type : %s%n", 1, "IB");
        out.printf(" Connection type : %s\t\tUsing SRQ      : %s%n", "RC", "OFF");
        out.printf(" PCIe relax order: %s%n", "ON"); // as Debian's perftest prints it (built with relaxed ordering)
        out.printf(" ibv_wr* API     : %s%n", "OFF");
        if (client) out.printf(" TX depth        : %d%n", o.txDepth());
        if (!client && o.test().send()) out.printf(" RX depth        : %d%n", RX_DEPTH);
        out.printf(" CQ Moderation   : %d%n", 1);
        out.printf(" Mtu             : %d[B]%n", mtu.bytes);
        out.printf(" Link type       : %s%n", "Ethernet");
        out.printf(" GID index       : %d%n", o.gidIndex());
        if (o.test().read()) out.printf(" Outstand reads  : %d%n", ctx.queryDevice().maxQpRdAtom());
        else out.printf(" Max inline data : %d[B]%n", 0);
        out.printf(" rdma_cm QPs\t : %s%n", "OFF");
        out.printf(" Data ex. method : %s%n", "Ethernet");
        out.println(RESULT_LINE);
        out.flush();
    }

    /** ctx_print_pingpong_data: C's "%#0Nx" (the width counts "0x"; zero has no prefix) and the GID in decimal. */
    private String address(String side, PerftestWire.Key k) {
        StringBuilder sb = new StringBuilder(String.format(" %s address: LID %s QPN %s PSN %s", side, cHex(k.lid(), 4),
                cHex(k.qpn(), 6), cHex(k.psn(), 6)));
        if (o.test().read()) sb.append(" OUT ").append(cHex(k.outReads(), 4));
        if (!o.test().send()) {
            sb.append(" RKey ").append(cHex(Integer.toUnsignedLong(k.rkey()), 8)).append(" VAddr ").append(cHex(k.vaddr(), 16));
        }
        sb.append("\n GID: ");
        byte[] g = k.gid().raw();
        for (int i = 0; i < 16; i++) sb.append(String.format(i == 0 ? "%02d" : ":%02d", g[i] & 0xff));
        return sb.toString();
    }

    static String cHex(long v, int width) {
        if (v == 0) return "0".repeat(width);
        String digits = Long.toHexString(v);
        return "0x" + "0".repeat(Math.max(0, width - 2 - digits.length())) + digits;
    }

    private void printRow(long size, long iters, double peak, double avg, double rate) {
        out.printf(" %-7d    %-10d       %-7.2f            %-7.2f\t\t   %-7.6f%n", size, iters, peak, avg, rate);
    }
}
