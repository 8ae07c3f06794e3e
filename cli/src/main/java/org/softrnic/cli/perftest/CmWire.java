package org.softrnic.cli.perftest;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.softrnic.cli.RunFailure;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.EventChannel;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.verbs.cm.RdmaCm;

/**
 * perftest's exchange under -R (create_comm_struct with use_rdma_cm): an RC connection the RDMA CM makes to the
 * server's port, one QP of depth 1 with one receive kept posted; each message one signalled SEND, read from the
 * receive's completion (rdma_write_data, rdma_read_data), keys as struct pingpong_dest (rdma_write_keys).
 */
final class CmWire extends PerftestWire {
    /** Where the receive lands and where a SEND goes from, in the comm context's buffer. */
    private static final int RECV_AT = 0, SEND_AT = 2048, AREA = 2048;
    /** perftest's control QP: no READs, retry_count 7, RNR retry 7 (infinite). */
    private static final ConnParam CONTROL = new ConnParam(null, 0, 0, 0, 7, 7, false, 0);
    /** Long enough for a REQ's 16 sends (98 s) to end in UNREACHABLE. */
    static final Duration CM_WAIT = Duration.ofSeconds(120);

    private final boolean client;
    private final int gidIndex;
    private final EventChannel channel;
    private final CmId id;
    private ProtectionDomain pd;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private MemoryRegion mr;
    private QueuePair qp;
    private RecvWr recv;
    private final WorkCompletion[] wc = {new WorkCompletion()};

    private CmWire(boolean client, int gidIndex, EventChannel channel, CmId id) {
        this.client = client;
        this.gidIndex = gidIndex;
        this.channel = channel;
        this.id = id;
    }

    /**
     * rdma_client_connect: address, route, the control QP, one receive, rdma_connect, ESTABLISHED. A refusal (the
     * server not listening yet) is tried again, a second apart, until {@code endNanos}.
     */
    static CmWire connect(InetAddress local, InetAddress server, int port, int gidIndex, long endNanos) throws IOException {
        while (true) {
            EventChannel ch = RdmaCm.createEventChannel();
            CmWire w = new CmWire(true, gidIndex, ch, ch.createId(PortSpace.TCP));
            try {
                w.id.resolveAddr(new InetSocketAddress(local, 0), new InetSocketAddress(server, port), Duration.ofMillis(2000));
                w.expect(CmEventType.ADDR_RESOLVED);
                w.id.resolveRoute(Duration.ofMillis(2000));
                w.expect(CmEventType.ROUTE_RESOLVED);
                w.resources(w.id);
                w.id.connect(CONTROL);
                CmEvent e = w.next(CM_WAIT);
                if (e.type() == CmEventType.ESTABLISHED) return w;
                if (System.nanoTime() - endNanos >= 0) {
                    throw new RunFailure("the perftest server at " + server.getHostAddress() + " port " + port + " refused the rdma_cm"
                            + " connection (" + e + ")");
                }
                w.close();
                Thread.sleep(1000);
            } catch (IOException | RuntimeException e) {
                w.close();
                throw e;
            } catch (InterruptedException e) {
                w.close();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    /**
     * rdma_server_connect: a listener on the port (at this device's address: perftest binds the wildcard, which on a
     * host of one device is the same), the first CONNECT_REQUEST, the control QP on its id, one
     * receive, rdma_accept; then the listener goes, as perftest destroys it.
     */
    static CmWire accept(InetAddress local, int port, int gidIndex, int timeoutSeconds) throws IOException {
        EventChannel ch = RdmaCm.createEventChannel();
        CmId listener = ch.createId(PortSpace.TCP);
        CmWire w = null;
        try {
            listener.bind(new InetSocketAddress(local, port));
            listener.listen(1);
            Duration wait = timeoutSeconds > 0 ? Duration.ofSeconds(timeoutSeconds) : Duration.ofDays(365);
            CmEvent e = ch.getEvent(wait);
            if (e == null) throw new RunFailure("no client came within " + timeoutSeconds + " s");
            if (e.type() != CmEventType.CONNECT_REQUEST) throw new RunFailure("bad event waiting for connect request " + e);
            w = new CmWire(false, gidIndex, ch, e.id());
            w.resources(w.id);
            w.id.accept(CONTROL);
            listener.close(); // perftest destroys its listen id once the control connection is accepted
            return w;
        } catch (RuntimeException | InterruptedException e) {
            listener.close();
            if (w != null) w.close();
            else ch.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            throw (RuntimeException) e;
        }
    }

    /** The comm context's objects: PD, a CQ each way, a buffer, the RC QP of depth 1 on the id, one receive posted. */
    private void resources(CmId on) {
        pd = on.verbs().allocPd();
        sendCq = on.verbs().createCq(1);
        recvCq = on.verbs().createCq(1);
        mr = pd.regMr(java.lang.foreign.Arena.ofAuto().allocate(2 * AREA, 64), Access.LOCAL_WRITE);
        qp = on.createQp(pd, new QpInitAttr(QpType.RC, sendCq, recvCq, null, new QpCaps(1, 1, 1, 1, 0), false));
        recv = new RecvWr(1).sge(mr.addr() + RECV_AT, AREA, mr.lkey());
        qp.postRecv(recv);
    }

    /** rdma_cm's context of the device (cm_id->verbs): the one the test's objects are made on. */
    org.softrnic.verbs.RdmaContext verbs() {
        return id.verbs();
    }

    @Override
    byte[] exchange(byte[] mine, long endNanos) throws IOException {
        if (client) {
            send(mine);
            return receive(mine.length, endNanos);
        }
        byte[] theirs = receive(mine.length, endNanos);
        send(mine);
        return theirs;
    }

    /** rdma_write_data: one signalled SEND, waited for. */
    private void send(byte[] message) throws IOException {
        java.lang.foreign.MemorySegment.copy(message, 0, mr.segment(), java.lang.foreign.ValueLayout.JAVA_BYTE, SEND_AT, message.length);
        SendWr w = new SendWr(1).sge(mr.addr() + SEND_AT, message.length, mr.lkey());
        w.opcode = SendOpcode.SEND;
        w.sendFlags = SendFlags.SIGNALED;
        qp.postSend(w);
        WorkCompletion c = poll(sendCq, org.softrnic.cli.oob.ToolSockets.deadline(org.softrnic.cli.oob.ToolSockets.exchangeSeconds()));
        if (c.status != WcStatus.SUCCESS) throw new IOException("the rdma_cm exchange's SEND completed with " + c.status.ibvName());
    }

    /** rdma_read_data: the receive's completion, its bytes, and the receive posted again. */
    private byte[] receive(int length, long endNanos) throws IOException {
        WorkCompletion c = poll(recvCq, endNanos);
        if (c.status != WcStatus.SUCCESS) throw new IOException("the rdma_cm exchange's receive completed with " + c.status.ibvName());
        if (c.byteLen != length) {
            throw new java.net.ProtocolException("the peer sent " + c.byteLen + " bytes where perftest sends " + length);
        }
        byte[] theirs = mr.segment().asSlice(RECV_AT, length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        qp.postRecv(recv);
        return theirs;
    }

    private WorkCompletion poll(CompletionQueue cq, long endNanos) throws IOException {
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() - endNanos > 0) throw new IOException("the peer sent nothing on the rdma_cm connection in time");
            Thread.onSpinWait(); // an empty poll moves a device this thread drives
        }
        return wc[0];
    }

    @Override
    byte[] encode(Key k) {
        return k.toDest(gidIndex);
    }

    @Override
    Key decode(byte[] msg) {
        return Key.fromDest(msg);
    }

    /** -R sends no "done": the connections' ends are the RDMA CM's DREQs. */
    @Override
    void done() {
    }

    /** Nothing to wait for here: the test connections' end (their DREQ and DREP) keeps the device answering. */
    @Override
    void lingerUntilClosed(int seconds) {
    }

    private CmEvent next(Duration wait) throws IOException, InterruptedException {
        CmEvent e = channel.getEvent(wait);
        if (e == null) throw new IOException("the RDMA CM brought no event within " + wait.toSeconds() + " s");
        return e;
    }

    private void expect(CmEventType type) throws IOException, InterruptedException {
        CmEvent e = next(CM_WAIT);
        if (e.type() != type) throw new RunFailure("rdma_cm: " + e + " where " + type + " was due");
    }

    /** rdma_disconnect and, briefly, its answer (crossed DREQs as a rule: both sides disconnect); then every object. */
    private boolean closed;

    /** Once: a failed attempt is closed where it failed, and a second close does nothing. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            if (qp != null) {
                try {
                    id.disconnect();
                    for (long end = System.nanoTime() + 2_000_000_000L; System.nanoTime() < end; ) {
                        CmEvent e = channel.getEvent(Duration.ofMillis(100));
                        if (e != null && e.type() == CmEventType.CONNECT_REQUEST && e.id() != id) e.id().close(); // refused
                        if (e != null && e.type() == CmEventType.DISCONNECTED) break;
                    }
                } catch (RuntimeException | InterruptedException e) {
                    // not connected (a refused attempt), or gone: nothing to say
                }
                qp.close();
            }
            if (mr != null) mr.close();
            if (sendCq != null) sendCq.close();
            if (recvCq != null) recvCq.close();
            if (pd != null) pd.close();
            id.close();
        } finally {
            channel.close();
        }
    }
}
