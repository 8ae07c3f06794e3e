package org.softrnic.cli.pingpong;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
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
import org.softrnic.nic.qp.RecvWr;
import org.softrnic.nic.qp.SendFlags;
import org.softrnic.nic.qp.SendOpcode;
import org.softrnic.verbs.CompletionChannel;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SendWr;

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

    record Options(QpType type, int port, int ibPort, int size, Mtu mtu, int rxDepth, int iters, int sl, boolean events,
                   int gidIndex, String server, int waitSeconds) {}

    /** How often the TCP exchange stops waiting to let the device answer ARP and move packets. */
    private static final int TICK_MS = 20;

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
            System.err.printf("Requested size larger than port MTU (%d)%n", mtu);
            return 1;
        }
        int grh = ud ? GRH : 0;
        try (Arena arena = Arena.ofShared();
             ProtectionDomain pd = ctx.allocPd();
             CompletionChannel channel = o.events() ? ctx.createCompChannel() : null;
             CompletionQueue cq = ctx.createCq(o.rxDepth() + 1, channel);
             MemoryRegion mr = pd.regMr(arena.allocate(Math.max(o.size(), 1) + grh, 4096), Access.LOCAL_WRITE);
             QueuePair qp = pd.createQp(new QpInitAttr(o.type(), cq, cq, null, new QpCaps(1, o.rxDepth(), 1, 1, 0), false))) {
            QpAttr init = new QpAttr();
            init.qpState = QpState.INIT;
            init.pkeyIndex = 0;
            init.portNum = o.ibPort();
            init.qpAccessFlags = 0;
            init.qkey = UD_QKEY;
            qp.modify(init, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT
                    | (ud ? QpAttrMask.QKEY : QpAttrMask.ACCESS_FLAGS));
            RecvWr recv = new RecvWr(1);
            recv.wrId = RECV_WRID;
            recv.numSge = 1;
            recv.sgList[0].set(mr.addr(), o.size() + grh, mr.lkey());
            int routs = 0;
            for (; routs < o.rxDepth(); routs++) qp.postRecv(recv);
            if (o.events()) cq.reqNotify(false);

            Gid gid = ctx.queryGid(o.ibPort(), o.gidIndex());
            PingpongDest me = new PingpongDest(0, qp.qpn(), ThreadLocalRandom.current().nextInt() & 0xffffff, gid);
            // ibv_ud_pingpong prints its own address with ": GID"; the others with ", GID"
            out.println("  local address:  " + (ud ? me.describe().replace(", GID", ": GID") : me.describe()));
            out.flush();
            PingpongDest peer = o.server() == null ? serve(me, qp, pd) : connect(me, qp, pd);
            if (peer == null) return 1;
            out.println("  remote address: " + peer.describe());
            out.flush();
            try {
                return pingpong(qp, cq, channel, mr, recv, routs, peer);
            } finally {
                if (ah != null) ah.close();
            }
        }
    }

    /** The server: waits for one client, connects to its QP, then answers with its own address. */
    private PingpongDest serve(PingpongDest me, QueuePair qp, ProtectionDomain pd) throws IOException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(o.port()), 1);
            listener.setSoTimeout(TICK_MS);
            try (Socket s = accept(listener)) {
                s.setSoTimeout(TICK_MS);
                byte[] msg = new byte[PingpongDest.WIRE_BYTES];
                readFully(s.getInputStream(), msg);
                PingpongDest peer = PingpongDest.fromWire(msg);
                connectQp(qp, me, peer, pd);
                s.getOutputStream().write(me.toWire());
                readFully(s.getInputStream(), new byte[5]); // "done"
                return peer;
            }
        }
    }

    /** The client: sends its address, reads the server's, says done, then connects. */
    private PingpongDest connect(PingpongDest me, QueuePair qp, ProtectionDomain pd) throws IOException {
        InetAddress server;
        try {
            server = InetAddress.ofLiteral(o.server()); // an address, never a name to look up
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("SERVER must be an IP address, not '" + o.server() + "'");
        }
        InetSocketAddress to = new InetSocketAddress(server, o.port());
        long end = System.nanoTime() + Duration.ofSeconds(o.waitSeconds()).toNanos();
        while (true) {
            byte[] msg = new byte[PingpongDest.WIRE_BYTES];
            try (Socket s = connectRetrying(to, end)) {
                s.setSoTimeout(TICK_MS);
                OutputStream w = s.getOutputStream();
                w.write(me.toWire());
                readFully(s.getInputStream(), msg);
                w.write("done\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            } catch (IOException e) {
                // a peer still coming up can fail the first exchange (its neighbour entry flapping, or qemu's
                // forwarder accepting before the guest listens): nothing was agreed yet, so try again while
                // the wait lasts
                if (System.nanoTime() > end) throw e;
                pause();
                continue;
            }
            PingpongDest peer = PingpongDest.fromWire(msg);
            connectQp(qp, me, peer, pd);
            return peer;
        }
    }

    private static void pause() throws IOException {
        try {
            Thread.sleep(200);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException();
        }
    }

    /** The examples give up at once when nobody listens; a client started beside its server may wait. */
    private static Socket connectRetrying(InetSocketAddress to, long endNanos) throws IOException {
        while (true) {
            Socket s = new Socket(); // a socket whose connect failed cannot try again
            try {
                s.connect(to, 5_000);
                return s;
            } catch (java.net.SocketException | java.net.SocketTimeoutException e) {
                s.close();
                if (System.nanoTime() > endNanos) throw new IOException("Couldn't connect to " + to.getHostString() + ":" + to.getPort(), e);
                pause();
            }
        }
    }

    private Socket accept(ServerSocket listener) throws IOException {
        while (true) {
            try {
                return listener.accept();
            } catch (java.net.SocketTimeoutException e) {
                progress.run();
            }
        }
    }

    /** Reads exactly {@code b.length} bytes, moving the device whenever the socket makes it wait. */
    private void readFully(InputStream in, byte[] b) throws IOException {
        int at = 0;
        while (at < b.length) {
            try {
                int n = in.read(b, at, b.length - at);
                if (n < 0) throw new java.io.EOFException("the peer closed the exchange");
                at += n;
            } catch (java.net.SocketTimeoutException e) {
                progress.run();
            }
        }
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

    /** The examples' main loop: the client sends first; each side sends again once its send and a receive completed. */
    private int pingpong(QueuePair qp, CompletionQueue cq, CompletionChannel channel, MemoryRegion mr, RecvWr recv, int routs,
                         PingpongDest peer) throws InterruptedException {
        boolean ud = o.type() == QpType.UD;
        SendWr send = new SendWr(1).sge(mr.addr() + (ud ? GRH : 0), o.size(), mr.lkey());
        if (ud) {
            send.ah = ah;
            send.remoteQpn = peer.qpn();
            send.remoteQkey = UD_QKEY;
        }
        send.wrId = SEND_WRID;
        send.opcode = SendOpcode.SEND;
        send.sendFlags = SendFlags.SIGNALED;
        long pending = RECV_WRID;
        if (o.server() != null) {
            qp.postSend(send);
            pending |= SEND_WRID;
        }
        WorkCompletion[] wc = {new WorkCompletion(), new WorkCompletion()};
        long start = System.nanoTime();
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
                ne = cq.poll(wc, 2);
            } while (channel == null && ne < 1);
            for (int i = 0; i < ne; i++) {
                if (wc[i].status != WcStatus.SUCCESS) {
                    System.err.printf("Failed status %s (%d) for wr_id %d%n", wc[i].status.description, wc[i].status.value, (int) wc[i].wrId);
                    return 1;
                }
                if (wc[i].wrId == SEND_WRID) {
                    scnt++;
                } else if (wc[i].wrId == RECV_WRID) {
                    if (--routs <= 1) {
                        while (routs < o.rxDepth()) {
                            qp.postRecv(recv);
                            routs++;
                        }
                    }
                    rcnt++;
                } else {
                    System.err.printf("Completion for unknown wr_id %d%n", (int) wc[i].wrId);
                    return 1;
                }
                pending &= ~wc[i].wrId;
                if (scnt < o.iters() && pending == 0) {
                    qp.postSend(send);
                    pending = RECV_WRID | SEND_WRID;
                }
            }
        }
        double usec = (System.nanoTime() - start) / 1000.0;
        long bytes = (long) o.size() * o.iters() * 2;
        out.printf("%d bytes in %.2f seconds = %.2f Mbit/sec%n", bytes, usec / 1_000_000, bytes * 8 / usec);
        out.printf("%d iters in %.2f seconds = %.2f usec/iter%n", o.iters(), usec / 1_000_000, usec / o.iters());
        out.flush();
        return 0;
    }
}
