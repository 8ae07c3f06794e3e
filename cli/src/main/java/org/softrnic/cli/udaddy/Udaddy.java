package org.softrnic.cli.udaddy;

import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.softrnic.cli.RunFailure;
import org.softrnic.cli.cmatest.CmatestRun;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.PortSpace;

/**
 * What librdmacm's udaddy does: -c UD "connections" through the RDMA CM's SIDR on RDMA_PS_UDP port 7174. The
 * client learns each server QP's number and Q_Key from the SIDR_REP and SENDs -C messages of -S bytes with its
 * own QPN as immediate data; the server receives them, makes an address handle from the first one's GRH and
 * answers in kind. Its progress lines and "return status" are udaddy's.
 */
final class Udaddy extends CmatestRun<Udaddy.Node> {
    record Options(InetAddress server, InetAddress bind, int connections, int count, int size, int tos, int waitSeconds) {
        boolean client() {
            return server != null;
        }
    }

    /** udaddy's port: it has no option for it (its -p is the port space). */
    static final int PORT = 7174;
    /** sizeof(struct ibv_grh): room in front of every receive. */
    static final int GRH = 40;
    private static final int ENOMEM = -12, EINVAL = -22;
    private static final Duration WAIT = Duration.ofSeconds(120);
    private final Options o;

    /** One "connection": struct cmatest_node. */
    final class Node implements CmatestRun.Node {
        CmId id;
        ProtectionDomain pd;
        CompletionQueue cq;
        MemoryRegion mr;
        MemorySegment mem;
        AddressHandle ah;
        int remoteQpn;
        int remoteQkey;
        boolean connected;

        @Override
        public CmId id() {
            return id;
        }

        /** verify_test_params: a message must fit the port's active MTU. */
        int verify() {
            int mtu = id.verbs().queryPort(1).activeMtu().bytes;
            if (o.count() > 0 && o.size() > mtu) {
                say("udaddy: message_size " + o.size() + " is larger than active mtu " + mtu);
                return EINVAL;
            }
            return 0;
        }

        /** init_node: a PD, one CQ of 2 x -C entries, a UD QP that signals only what asks, one buffer with room for the GRH. */
        void init() {
            pd = id.verbs().allocPd();
            cq = id.verbs().createCq(o.count() > 0 ? o.count() * 2 : 2);
            int depth = Math.max(1, o.count());
            id.createQp(pd, new QpInitAttr(QpType.UD, cq, cq, null, new QpCaps(depth, depth, 1, 1, 0), false));
            if (o.count() > 0) {
                mem = arena.allocate(o.size() + GRH, 8);
                mr = pd.regMr(mem, Access.LOCAL_WRITE);
            }
        }

        void postRecvs() {
            RecvWr wr = new RecvWr(1).sge(mr.addr(), o.size() + GRH, mr.lkey());
            for (int i = 0; i < o.count(); i++) id.qp().postRecv(wr);
        }

        /** post_sends: SEND_WITH_IMM, the immediate this QP's number, to the peer's QPN and Q_Key. */
        void postSends(int flags) {
            if (!connected || o.count() == 0) return;
            SendWr wr = new SendWr(1).sge(mr.addr(), o.size(), mr.lkey());
            wr.opcode = SendOpcode.SEND_WITH_IMM;
            wr.sendFlags = flags;
            wr.immData = id.qp().qpn(); // htobe32(qp_num): immData is the number the wire carries
            wr.ah = ah;
            wr.remoteQpn = remoteQpn;
            wr.remoteQkey = remoteQkey;
            for (int i = 0; i < o.count(); i++) id.qp().postSend(wr);
        }

        /** create_reply_ah: back to the sender of the first datagram, its QPN from the immediate, our own Q_Key. */
        void replyTo(WorkCompletion wc) {
            ah = pd.createAhFromWc(wc, mem, 1);
            remoteQpn = wc.immData;
            remoteQkey = id.qp().query().qkey;
        }

        @Override
        public void close() {
            if (id == null) return;
            if (ah != null) ah.close();
            if (id.qp() != null) id.qp().close();
            if (cq != null) cq.close();
            if (mr != null) mr.close();
            if (pd != null) pd.close();
            id.close();
        }
    }

    Udaddy(Options o, PrintWriter out) {
        super(out, o.connections());
        this.o = o;
    }

    int run() throws InterruptedException {
        if (o.client()) say("udaddy: starting client");
        return run(o.client(), o.waitSeconds());
    }

    @Override
    protected int server() throws InterruptedException {
        say("udaddy: starting server");
        CmId listen = channel.createId(PortSpace.UDP);
        try {
            InetAddress at = o.bind();
            listen.bind(new InetSocketAddress(at, PORT));
            listen.listen(0);
            connectEvents(o.waitSeconds() > 0 ? Duration.ofSeconds(o.waitSeconds()) : Duration.ofDays(365));
            if (o.count() > 0) {
                say("receiving data transfers");
                poll();
                say("sending replies");
                for (Node n : nodes) n.postSends(SendFlags.SIGNALED);
                poll();
                say("data transfers complete");
            }
            return 0; // udaddy's server ends 0 whatever its connections did
        } finally {
            listen.close();
        }
    }

    @Override
    protected int connectAndTransfer() throws InterruptedException {
        say("udaddy: connecting");
        for (int i = 0; i < o.connections(); i++) {
            Node n = new Node();
            n.id = channel.createId(PortSpace.UDP);
            nodes.add(n);
            n.id.resolveAddr(new InetSocketAddress(o.bind(), 0), new InetSocketAddress(o.server(), PORT),
                    Duration.ofMillis(2000));
        }
        int ret = connectEvents(WAIT);
        if (ret != 0) return ret;
        if (o.count() > 0) {
            say("initiating data transfers");
            for (Node n : nodes) n.postSends(0);
            say("receiving data transfers");
            poll();
            say("data transfers complete");
        }
        return 0;
    }

    @Override
    protected int handle(CmEvent e) {
        Node n = node(e.id());
        switch (e.type()) {
            case ADDR_RESOLVED -> {
                if (o.tos() >= 0) n.id.setTos(o.tos());
                n.id.resolveRoute(Duration.ofMillis(2000));
            }
            case ROUTE_RESOLVED -> {
                int ret = n.verify();
                if (ret != 0) {
                    connectsLeft--;
                    return ret;
                }
                n.init();
                if (o.count() > 0) n.postRecvs();
                n.id.connect(null);
            }
            case CONNECT_REQUEST -> {
                return accept(e.id());
            }
            case ESTABLISHED -> {
                // resolved_handler: the SIDR_REP's QPN and Q_Key, and an address handle from the route
                n.remoteQpn = e.ud().qpNum();
                n.remoteQkey = e.ud().qkey();
                n.ah = n.pd.createAh(e.ud().ahAttr());
                n.connected = true;
                connectsLeft--;
            }
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                return failed("udaddy", e);
            }
            default -> { }
        }
        return 0;
    }

    /** connect_handler: a node for the request, receives posted, then rdma_accept (the SIDR_REP); past -c, a reject. */
    private int accept(CmId id) {
        if (nodes.size() == o.connections()) {
            say("udaddy: failing connection request");
            id.reject(null);
            id.close();
            return ENOMEM;
        }
        Node c = new Node();
        c.id = id;
        nodes.add(c);
        int ret = c.verify();
        if (ret != 0) {
            connectsLeft--;
            say("udaddy: failing connection request");
            id.reject(null);
            return ret;
        }
        c.init();
        if (o.count() > 0) c.postRecvs();
        id.accept(null);
        c.connected = true;
        connectsLeft--;
        return 0;
    }

    /**
     * poll_cqs: -C completions from each connected node; the first makes a server's reply handle. udaddy counts
     * without looking; a failed completion here ends the run, naming its status.
     */
    private void poll() {
        WorkCompletion[] wc = new WorkCompletion[8];
        for (int i = 0; i < wc.length; i++) wc[i] = new WorkCompletion();
        for (Node n : nodes) {
            if (!n.connected) continue;
            long end = System.nanoTime() + WAIT.toNanos();
            for (int done = 0; done < o.count(); ) {
                int got = n.cq.poll(wc);
                for (int k = 0; k < got; k++) {
                    if (wc[k].status != WcStatus.SUCCESS) throw new RunFailure("a completion came with " + wc[k].status.ibvName());
                }
                if (got > 0 && n.ah == null) n.replyTo(wc[0]);
                done += got;
                if (got == 0 && System.nanoTime() - end > 0) throw new RunFailure("completions stopped coming: " + done + " of " + o.count());
                if (got == 0) Thread.onSpinWait(); // an empty poll moves a device this thread drives
            }
        }
    }
}
