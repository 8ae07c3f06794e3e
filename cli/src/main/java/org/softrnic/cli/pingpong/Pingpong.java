package org.softrnic.cli.pingpong;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.softrnic.cli.oob.ToolSockets;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.CompletionChannel;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Gid;
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
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.SharedReceiveQueue;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * What ibv_rc_pingpong, ibv_uc_pingpong and ibv_ud_pingpong do, on any verbs context: the same TCP
 * exchange, connection attributes, receive refilling, ping-pong rhythm and result lines, so that either side
 * can be the real tool. UD receives carry the 40-byte GRH in front, sends go through an address handle with
 * Q_Key 0x11111111, and the message must fit the port's MTU.
 */
final class Pingpong {
    static final long RECV_WRID = 1;
    static final long SEND_WRID = 2;
    static final int UD_QKEY = 0x11111111;
    static final int GRH = 40;

    /**
     * @param srq   ibv_srq_pingpong: {@code numQp} RC QPs sharing one SRQ, 256 addresses exchanged each way
     */
    record Options(QpType type, boolean srq, int numQp, int port, int ibPort, int size, Mtu mtu, int rxDepth, int iters,
                   int sl, boolean events, int gidIndex, String server, int waitSeconds, boolean verify, int timeout) {}

    /** ibv_srq_pingpong always exchanges this many addresses, unused ones zero. */
    static final int SRQ_MAX_QP = 256;

    /** The exchange's read timeout: short, so that a wait keeps the device moving (ToolSockets.readFully). */
    private static final int TICK_MS = 1;

    private final Options o;
    private final PrintWriter out;
    private final Runnable progress;

    /** {@code progress} moves the device while the exchange waits (an inline device answers ARP only then). */
    Pingpong(Options o, PrintWriter out, Runnable progress) {
        this.o = o;
        this.out = out;
        this.progress = progress;
    }

    /** Runs one ping-pong; returns the exit status the tools use (0, or 1 on a failure). */
    int run(RdmaContext ctx) throws IOException, InterruptedException {
        boolean ud = o.type() == QpType.UD;
        int mtu = ctx.queryPort(o.ibPort()).activeMtu().bytes;
        if (ud && o.size() > mtu) {
            System.err.printf("softrnic pingpong: Requested size larger than port MTU (%d)%n", mtu);
            return 1;
        }
        int n = o.srq() ? o.numQp() : 1;
        if (o.srq() && n > o.rxDepth()) {
            System.err.printf("softrnic pingpong: -r %d is too small for %d QPs: srq needs at least one receive per QP%n", o.rxDepth(), n);
            return 1;
        }
        int grh = ud ? GRH : 0;
        List<AutoCloseable> made = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = keep(made, ctx.allocPd());
            CompletionChannel channel = o.events() ? keep(made, ctx.createCompChannel()) : null;
            CompletionQueue cq = keep(made, ctx.createCq(o.rxDepth() + n, channel));
            MemoryRegion mr = keep(made, pd.regMr(arena.allocate(Math.max(o.size(), 1) + grh, 4096), Access.LOCAL_WRITE));
            SharedReceiveQueue srq = o.srq() ? keep(made, pd.createSrq(o.rxDepth(), 1, 0)) : null;
            QueuePair[] qps = new QueuePair[n];
            for (int i = 0; i < n; i++) {
                QpCaps caps = new QpCaps(1, srq == null ? o.rxDepth() : 1, 1, 1, 0);
                qps[i] = keep(made, pd.createQp(new QpInitAttr(o.type(), cq, cq, srq, caps, false)));
                QpAttr init = new QpAttr();
                init.qpState = QpState.INIT;
                init.pkeyIndex = 0;
                init.portNum = o.ibPort();
                init.qpAccessFlags = 0;
                init.qkey = UD_QKEY;
                qps[i].modify(init, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT
                        | (ud ? QpAttrMask.QKEY : QpAttrMask.ACCESS_FLAGS));
            }
            Receives receives = new Receives(srq, qps[0], mr, o.size() + grh);
            receives.post(o.rxDepth());
            if (o.events()) cq.reqNotify(false);

            Gid gid = ctx.queryGid(o.ibPort(), o.gidIndex());
            PingpongDest[] me = new PingpongDest[o.srq() ? SRQ_MAX_QP : 1];
            for (int i = 0; i < me.length; i++) {
                me[i] = i < n ? new PingpongDest(0, qps[i].qpn(), ThreadLocalRandom.current().nextInt() & 0xffffff, gid)
                        : PingpongDest.ZERO;
            }
            // ibv_ud_pingpong prints its own address with ": GID"; the others with ", GID"
            for (int i = 0; i < n; i++) out.println("  local address:  " + (ud ? me[i].describe().replace(", GID", ": GID") : me[i].describe()));
            out.flush();
            PingpongDest[] peer = o.server() == null ? serve(me, qps, pd) : connect(me, qps, pd);
            for (int i = 0; i < n; i++) out.println("  remote address: " + peer[i].describe());
            out.flush();
            if (ah != null) keep(made, ah);
            return pingpong(qps, cq, channel, mr, receives, peer);
        } finally {
            for (int i = made.size() - 1; i >= 0; i--) {
                try {
                    made.get(i).close();
                } catch (Exception e) {
                    System.err.println("softrnic pingpong: " + e.getMessage());
                }
            }
        }
    }

    private static <T extends AutoCloseable> T keep(List<AutoCloseable> made, T c) {
        made.add(c);
        return c;
    }

    /** Where receives go: the SRQ, or the one QP's own queue; refilled as the examples do. */
    private static final class Receives {
        final SharedReceiveQueue srq;
        final QueuePair qp;
        final RecvWr wr = new RecvWr(1);
        int outstanding;

        Receives(SharedReceiveQueue srq, QueuePair qp, MemoryRegion mr, int length) {
            this.srq = srq;
            this.qp = qp;
            wr.wrId = RECV_WRID;
            wr.numSge = 1;
            wr.sgList[0].set(mr.addr(), length, mr.lkey());
        }

        void post(int count) {
            for (int i = 0; i < count; i++) {
                if (srq != null) srq.postRecv(wr);
                else qp.postRecv(wr);
                outstanding++;
            }
        }
    }

    /** The server: waits for one client, connects to its QP, then answers with its own address. */
    private PingpongDest[] serve(PingpongDest[] me, QueuePair[] qps, ProtectionDomain pd) throws IOException {
        try (Socket s = ToolSockets.accept(o.port(), progress, o.timeout())) {
            s.setSoTimeout(TICK_MS);
            PingpongDest[] peer = new PingpongDest[me.length];
            for (int i = 0; i < me.length; i++) {
                byte[] msg = new byte[PingpongDest.WIRE_BYTES];
                // the client's first word may come long after its connection (qemu's forwarder connects while the
                // guest boots): that wait is the wait for a client, --timeout; the rest of the exchange is quick
                long end = ToolSockets.deadline(i == 0 ? o.timeout() : ToolSockets.exchangeSeconds());
                ToolSockets.readFully(s.getInputStream(), msg, progress, end);
                peer[i] = PingpongDest.fromWire(msg);
            }
            connectAll(qps, me, peer, pd);
            for (PingpongDest d : me) s.getOutputStream().write(d.toWire());
            readFully(s.getInputStream(), new byte[5]); // "done"
            return peer;
        }
    }

    /** The client: sends its address, reads the server's, says done, then connects. */
    private PingpongDest[] connect(PingpongDest[] me, QueuePair[] qps, ProtectionDomain pd) throws IOException {
        InetSocketAddress to = new InetSocketAddress(ToolSockets.address(o.server()), o.port());
        long end = System.nanoTime() + Duration.ofSeconds(o.waitSeconds()).toNanos();
        PingpongDest[] peer = ToolSockets.connectAndStart(to, end, s -> {
            try (s) {
                PingpongDest[] theirs = new PingpongDest[me.length];
                s.setSoTimeout(TICK_MS);
                OutputStream w = s.getOutputStream();
                for (PingpongDest d : me) w.write(d.toWire());
                for (int i = 0; i < me.length; i++) {
                    byte[] msg = new byte[PingpongDest.WIRE_BYTES];
                    // a server that read our address answers once its QP is connected, which a guest under
                    // emulation may take longer than the exchange's 15 s over: wait for it as long as --wait
                    // allows (15 s at least), as ibv_rc_pingpong waits; a closed socket still fails at once
                    ToolSockets.readFully(s.getInputStream(), msg, progress,
                            Math.max(end, ToolSockets.deadline(ToolSockets.exchangeSeconds())));
                    theirs[i] = PingpongDest.fromWire(msg);
                }
                w.write("done\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                return theirs;
            }
        });
        connectAll(qps, me, peer, pd);
        return peer;
    }

    private void readFully(InputStream in, byte[] b) throws IOException {
        ToolSockets.readFully(in, b, progress);
    }

    private void connectAll(QueuePair[] qps, PingpongDest[] me, PingpongDest[] peer, ProtectionDomain pd) {
        for (int i = 0; i < qps.length; i++) connectQp(qps[i], me[i], peer[i], pd);
    }

    /** UD: the address handle made when connecting. */
    private org.softrnic.verbs.AddressHandle ah;

    /** pp_connect_ctx: RTR and RTS with the examples' attributes; UD also makes the address handle. */
    private void connectQp(QueuePair qp, PingpongDest me, PingpongDest peer, ProtectionDomain pd) {
        if (o.type() == QpType.UD) {
            QpAttr a = new QpAttr();
            a.qpState = QpState.RTR;
            qp.modify(a, QpAttrMask.STATE);
            a.qpState = QpState.RTS;
            a.sqPsn = me.psn();
            qp.modify(a, QpAttrMask.STATE | QpAttrMask.SQ_PSN);
            ah = pd.createAh(new AddressVector(peer.gid(), o.gidIndex(), 0, 1, 0));
            return;
        }
        QpAttr a = new QpAttr();
        a.qpState = QpState.RTR;
        a.pathMtu = o.mtu();
        a.destQpNum = peer.qpn();
        a.rqPsn = peer.psn();
        a.ahAttr = new AddressVector(peer.gid(), o.gidIndex(), 0, 1, 0);
        int rtr = QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN | QpAttrMask.RQ_PSN;
        if (o.type() == QpType.RC) {
            a.maxDestRdAtomic = 1;
            a.minRnrTimer = 12;
            rtr |= QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER;
        }
        qp.modify(a, rtr);
        a.qpState = QpState.RTS;
        a.sqPsn = me.psn();
        int rts = QpAttrMask.STATE | QpAttrMask.SQ_PSN;
        if (o.type() == QpType.RC) {
            a.timeout = 14;
            a.retryCnt = 7;
            a.rnrRetry = 7;
            a.maxRdAtomic = 1;
            rts |= QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC;
        }
        qp.modify(a, rts);
    }

    /**
     * The examples' main loop: the client sends first on every QP; each QP sends again once its send and a
     * receive completed; the counts are over all QPs.
     */
    private int pingpong(QueuePair[] qps, CompletionQueue cq, CompletionChannel channel, MemoryRegion mr, Receives receives,
                         PingpongDest[] peer) throws InterruptedException {
        boolean ud = o.type() == QpType.UD;
        SendWr send = new SendWr(1).sge(mr.addr() + (ud ? GRH : 0), o.size(), mr.lkey());
        send.wrId = SEND_WRID;
        send.opcode = SendOpcode.SEND;
        send.sendFlags = SendFlags.SIGNALED;
        if (ud) {
            send.ah = ah;
            send.remoteQpn = peer[0].qpn();
            send.remoteQkey = UD_QKEY;
        }
        MemorySegment data = mr.segment().asSlice(ud ? GRH : 0, o.size());
        int sent = 0;
        int differed = 0;
        long[] pending = new long[qps.length];
        for (int q = 0; q < qps.length; q++) {
            pending[q] = RECV_WRID;
            if (o.server() != null) {
                if (o.verify()) pattern(data, sent++);
                qps[q].postSend(send);
                pending[q] |= SEND_WRID;
            }
        }
        int refillBelow = o.srq() ? qps.length : 1;
        WorkCompletion[] wc = new WorkCompletion[o.srq() ? qps.length + o.rxDepth() : 2];
        for (int i = 0; i < wc.length; i++) wc[i] = new WorkCompletion();
        long start = System.nanoTime();
        long quietSince = start;
        int rcnt = 0;
        int scnt = 0;
        while (rcnt < o.iters() || scnt < o.iters()) {
            int ne;
            if (channel != null) {
                if (channel.getCqEvent(Duration.ofSeconds(60)) == null) {
                    System.err.println("Failed to get cq_event");
                    return 1;
                }
                cq.ackEvents(1);
                cq.reqNotify(false);
            }
            do {
                ne = cq.poll(wc, wc.length);
                if (ne > 0) {
                    quietSince = System.nanoTime();
                } else if (o.timeout() > 0 && System.nanoTime() - quietSince > o.timeout() * 1_000_000_000L) {
                    System.err.println("softrnic pingpong: no completion for " + o.timeout() + " s (--timeout): the peer is gone");
                    return 1;
                }
            } while (channel == null && ne < 1);
            for (int i = 0; i < ne; i++) {
                if (wc[i].status != WcStatus.SUCCESS) {
                    System.err.printf("Failed status %s (%d) for wr_id %d%s%n", wc[i].status.description, wc[i].status.value,
                            (int) wc[i].wrId, org.softrnic.cli.oob.RetryNote.after(wc[i].status));
                    return 1;
                }
                int q = 0;
                while (q < qps.length && qps[q].qpn() != wc[i].qpNum) q++;
                if (q == qps.length) {
                    System.err.printf("Couldn't find QPN %06x%n", wc[i].qpNum);
                    return 1;
                }
                if (wc[i].wrId == SEND_WRID) {
                    scnt++;
                } else if (wc[i].wrId == RECV_WRID) {
                    // the peer's n-th message, checked before this side's next send overwrites the buffer
                    if (o.verify() && !carries(data, rcnt)) differed++;
                    if (--receives.outstanding <= refillBelow) receives.post(o.rxDepth() - receives.outstanding);
                    rcnt++;
                } else {
                    System.err.printf("Completion for unknown wr_id %d%n", (int) wc[i].wrId);
                    return 1;
                }
                pending[q] &= ~wc[i].wrId;
                if (scnt < o.iters() && pending[q] == 0) {
                    if (o.verify()) pattern(data, sent++);
                    qps[q].postSend(send);
                    pending[q] = RECV_WRID | SEND_WRID;
                }
            }
        }
        double usec = (System.nanoTime() - start) / 1000.0;
        long bytes = (long) o.size() * o.iters() * 2;
        out.printf("%d bytes in %.2f seconds = %.2f Mbit/sec%n", bytes, usec / 1_000_000, bytes * 8 / usec);
        out.printf("%d iters in %.2f seconds = %.2f usec/iter%n", o.iters(), usec / 1_000_000, usec / o.iters());
        if (o.verify()) out.printf("verified %d received messages: %d differed from the peer's pattern%n", rcnt, differed);
        out.flush();
        return differed == 0 ? 0 : 1;
    }

    /** --verify: message {@code seq}'s bytes, which both sides write before sending and check on receipt. */
    private static void pattern(MemorySegment data, int seq) {
        for (int i = 0; i < data.byteSize(); i++) data.set(ValueLayout.JAVA_BYTE, i, patternByte(seq, i));
    }

    /** Whether {@code data} holds message {@code seq}'s pattern, byte for byte. */
    private static boolean carries(MemorySegment data, int seq) {
        for (int i = 0; i < data.byteSize(); i++) if (data.get(ValueLayout.JAVA_BYTE, i) != patternByte(seq, i)) return false;
        return true;
    }

    private static byte patternByte(int seq, int i) {
        return (byte) (seq * 131 + i * 7 + (i >>> 8) + 1);
    }
}
