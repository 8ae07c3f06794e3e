package org.softrnic.cli.ucmatose;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.softrnic.cli.RunFailure;
import org.softrnic.cli.cmatest.CmatestRun;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.PortSpace;

/**
 * What librdmacm's cmatose (installed as ucmatose) does: -c connections through the RDMA CM; the server,
 * once all are up, SENDs -C messages of -S bytes on each and receives as many back; the client receives
 * them, replies in kind, and answers the server's disconnect. Its progress lines and "return status" are
 * cmatose's.
 */
final class Ucmatose extends CmatestRun<Ucmatose.Node> {
    record Options(InetAddress server, InetAddress bind, int connections, int count, int size, int port, int tos,
                   int ackTimeout, int waitSeconds) {
        boolean client() {
            return server != null;
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(120);
    private final Options o;
    private int disconnectsLeft;

    /** One connection's objects (struct cmatest_node). */
    final class Node implements CmatestRun.Node {
        CmId id;
        ProtectionDomain pd;
        CompletionQueue sendCq;
        CompletionQueue recvCq;
        MemoryRegion mr;
        boolean connected;

        @Override
        public CmId id() {
            return id;
        }

        /** init_node: a PD, a send and a receive CQ of -C entries, an RC QP signalling every send, one message buffer. */
        void init() {
            pd = id.verbs().allocPd();
            int cqe = Math.max(1, o.count());
            sendCq = id.verbs().createCq(cqe);
            recvCq = id.verbs().createCq(cqe);
            id.createQp(pd, new QpInitAttr(QpType.RC, sendCq, recvCq, null, new QpCaps(cqe, cqe, 1, 1, 0), true));
            if (o.count() > 0) mr = pd.regMr(arena.allocate(Math.max(1, o.size()), 8), Access.LOCAL_WRITE);
        }

        void postRecvs() {
            for (int i = 0; i < o.count(); i++) {
                RecvWr wr = new RecvWr(1);
                wr.numSge = 1;
                wr.sgList[0].set(mr.addr(), o.size(), mr.lkey());
                id.qp().postRecv(wr);
            }
        }

        void postSends() {
            if (!connected) return;
            for (int i = 0; i < o.count(); i++) {
                SendWr wr = new SendWr(1).sge(mr.addr(), o.size(), mr.lkey());
                wr.opcode = SendOpcode.SEND;
                id.qp().postSend(wr);
            }
        }

        @Override
        public void close() {
            if (id == null) return;
            if (id.qp() != null) id.qp().close();
            if (sendCq != null) sendCq.close();
            if (recvCq != null) recvCq.close();
            if (mr != null) mr.close();
            if (pd != null) pd.close();
            id.close();
        }
    }

    Ucmatose(Options o, PrintWriter out) {
        super(out, o.connections());
        this.o = o;
    }

    int run() throws InterruptedException {
        if (o.client()) say("cmatose: starting client");
        return run(o.client(), o.waitSeconds());
    }

    @Override
    protected int server() throws InterruptedException {
        say("cmatose: starting server");
        CmId listen = channel.createId(PortSpace.TCP);
        try {
            InetAddress at = o.bind();
            listen.bind(new InetSocketAddress(at, o.port()));
            listen.listen(0);
            int ret = connectEvents(o.waitSeconds() > 0 ? Duration.ofSeconds(o.waitSeconds()) : Duration.ofDays(365));
            if (ret != 0) return ret;
            if (o.count() > 0) {
                say("initiating data transfers");
                for (Node n : nodes) n.postSends();
                say("completing sends");
                poll(true);
                say("receiving data transfers");
                poll(false);
                say("data transfers complete");
            }
            say("cmatose: disconnecting");
            for (Node n : nodes) {
                if (!n.connected) continue;
                n.connected = false;
                n.id.disconnect();
            }
            ret = disconnectEvents();
            say("disconnected");
            return ret;
        } finally {
            listen.close();
        }
    }

    @Override
    protected void reset() {
        disconnectsLeft = 0;
    }

    @Override
    protected int connectAndTransfer() throws InterruptedException {
        say("cmatose: connecting");
        for (int i = 0; i < o.connections(); i++) {
            Node n = new Node();
            n.id = channel.createId(PortSpace.TCP);
            nodes.add(n);
            n.id.resolveAddr(new InetSocketAddress(o.bind(), 0), new InetSocketAddress(o.server(), o.port()),
                    Duration.ofMillis(2000));
        }
        int ret = connectEvents(WAIT);
        if (ret == 0 && o.count() > 0) {
            say("receiving data transfers");
            poll(false);
            say("sending replies");
            for (Node n : nodes) n.postSends();
            say("data transfers complete");
        }
        int ret2 = disconnectEvents();
        return ret != 0 ? ret : ret2;
    }

    private int disconnectEvents() throws InterruptedException {
        int ret = 0;
        while (disconnectsLeft > 0 && ret == 0) {
            CmEvent e = channel.getEvent(WAIT);
            if (e == null) throw new RunFailure("no disconnect came within " + WAIT.toSeconds() + " s");
            ret = handle(e);
        }
        return ret;
    }

    @Override
    protected int handle(CmEvent e) {
        Node n = node(e.id());
        if (n == null && e.type() != CmEventType.CONNECT_REQUEST) return 0; // an id of an attempt given up
        switch (e.type()) {
            case ADDR_RESOLVED -> {
                if (o.tos() >= 0) n.id.setTos(o.tos());
                if (o.ackTimeout() >= 0) n.id.setAckTimeout(o.ackTimeout());
                n.id.resolveRoute(Duration.ofMillis(2000));
            }
            case ROUTE_RESOLVED -> {
                n.init();
                if (o.count() > 0) n.postRecvs();
                // cmatose asks one READ each way and 5 retries, and leaves the RNR retry count 0
                n.id.connect(new ConnParam(null, 1, 1, 0, 5, 0, false, 0));
            }
            case CONNECT_REQUEST -> {
                if (nodes.size() == o.connections()) {
                    say("cmatose: failing connection request");
                    e.id().reject(null);
                    e.id().close();
                    return -12; // -ENOMEM, as connect_handler returns it
                }
                Node c = new Node();
                c.id = e.id();
                nodes.add(c);
                c.init();
                if (o.ackTimeout() >= 0) c.id.setAckTimeout(o.ackTimeout());
                if (o.count() > 0) c.postRecvs();
                c.id.accept(null);
            }
            case ESTABLISHED -> {
                n.connected = true;
                connectsLeft--;
                disconnectsLeft++;
            }
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                return failed("cmatose", e);
            }
            case DISCONNECTED -> {
                n.id.disconnect(); // the DREP, or our own DREQ's end
                disconnectsLeft--;
            }
            default -> { }
        }
        return 0;
    }

    /** poll_cqs: -C completions from each connected node's send or receive CQ; a failed one ends the run. */
    private void poll(boolean send) {
        WorkCompletion[] wc = new WorkCompletion[8];
        for (int i = 0; i < wc.length; i++) wc[i] = new WorkCompletion();
        for (Node n : nodes) {
            if (!n.connected) continue;
            CompletionQueue cq = send ? n.sendCq : n.recvCq;
            long end = System.nanoTime() + WAIT.toNanos();
            for (int done = 0; done < o.count(); ) {
                int got = cq.poll(wc);
                for (int k = 0; k < got; k++) {
                    if (wc[k].status != WcStatus.SUCCESS) {
                        throw new RunFailure("a " + (send ? "send" : "receive") + " completed with " + wc[k].status.ibvName());
                    }
                }
                done += got;
                if (got == 0 && System.nanoTime() - end > 0) throw new RunFailure("completions stopped coming: " + done + " of " + o.count());
                if (got == 0) Thread.onSpinWait(); // an empty poll moves a device this thread drives
            }
        }
    }
}
