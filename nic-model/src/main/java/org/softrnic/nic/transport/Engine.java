package org.softrnic.nic.transport;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.function.Consumer;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Counters;
import org.softrnic.nic.LinkProfile;
import org.softrnic.nic.PacketSink;
import org.softrnic.nic.mem.QpnTable;
import org.softrnic.nic.mem.KeyTable;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.time.Clock;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.ParseError;
import org.softrnic.wire.frame.Ecn;
import org.softrnic.wire.frame.FrameTemplate;
import org.softrnic.wire.frame.FrameView;
import org.softrnic.wire.frame.FrameWriter;
import org.softrnic.wire.header.Bth;

/**
 * The transport engine of one device: packets in, packets out, time from the injected clock. It owns the
 * per-QP transport state and dispatches to the requester, responder and completer. Single-threaded.
 * <p>
 * Just over 400 lines: receive's checks in the order rxe makes them, and the QP records the roles share, read
 * in one place so a packet's path stays in one file.
 */
public final class Engine {
    /** rxe's RXE_MAX_PKT_PER_ACK: the requester asks for an ACK at least this often. */
    static final int MAX_PKT_PER_ACK = 64;
    /** rxe's RXE_MAX_UNACKED_PSNS: the requester's window. */
    static final int MAX_UNACKED_PSNS = 128;
    /** Bytes kept free in front of each outgoing IP packet ({@link PacketBuffer#HEADROOM}). */
    public static final int HEADROOM = PacketBuffer.HEADROOM;
    /** RoCEv2 UDP source ports lie in 0xC000-0xFFFF (IB_ROCE_UDP_ENCAP_VALID_PORT_MIN). */
    static final int SPORT_MIN = 0xc000;

    final Counters counters;
    /** Why requests were refused, in words (what the requester's IBV_WC_* status cannot say). */
    public final org.softrnic.nic.Diagnostics diagnostics = new org.softrnic.nic.Diagnostics();
    final Clock clock;
    final KeyTable keys;
    private final PacketSink sink;
    /** Sees every packet before the link does (a trace); null for none. */
    private PacketSink transmitTap;

    public void transmitTap(PacketSink tap) {
        this.transmitTap = tap;
    }
    private final Consumer<AsyncEvent> events;
    private final LinkProfile link;
    /**
     * Every context, in QPN order, which keeps them in the order they were made ({@link QpnTable}); below 2^20 a
     * context is one load from its QPN.
     */
    final QpnTable<QpContext> contexts = new QpnTable<>();
    /** Work completions, and the error transitions that flush queues into them. */
    final Completions completions = new Completions(this);
    final FrameWriter writer = new FrameWriter();
    private final FrameView view;
    /** The buffer the next packet is built in; a sink that takes buffers over hands back another. */
    PacketBuffer tx;
    private int ipId;
    final Requester requester = new Requester(this);
    final Responder responder = new Responder(this);
    final Completer completer = new Completer(this);
    final Timers timers = new Timers(contexts);
    /** The QPs' context records (the responder's), side by side in slot order. */
    private final QpLines lines = new QpLines();
    /** The view a received packet reads its QP's record through. */
    private final RespLine.Cursor line = RespLine.cursor(lines);
    private final Paths paths;

    /** Native buffers come from {@code arena}; the device's owner closes it when the device is gone. */
    final Arena arena;

    public Engine(Counters counters, Clock clock, KeyTable keys, PacketSink sink, List<Gid> gids, int rocePort,
                  LinkProfile link, Consumer<AsyncEvent> events, Arena arena) {
        this.arena = arena;
        this.link = link;
        this.counters = counters;
        this.clock = clock;
        this.keys = keys;
        this.sink = sink;
        this.events = events;
        this.view = new FrameView(rocePort);
        this.tx = PacketBuffer.allocate(arena, PacketSink.BUFFER_BYTES);
        this.paths = new Paths(List.copyOf(gids), rocePort, link);
    }

    public void addQp(QueuePair qp) {
        put(context(qp));
    }

    private QpContext context(QueuePair qp) {
        QpContext c = new QpContext(qp, timers, lines);
        congestion.added(c);
        return c;
    }

    /** Beside {@link #contexts}, for QPNs below 2^20: each QP's record slot plus one, 0 for none. */
    private int[] slotByQpn = new int[64];

    private void put(QpContext c) {
        int qpn = c.qp.qpn();
        contexts.put(qpn, c);
        if (qpn >= QpnTable.DIRECT) return;
        if (qpn >= slotByQpn.length) slotByQpn = java.util.Arrays.copyOf(slotByQpn, Integer.highestOneBit(qpn) << 1);
        slotByQpn[qpn] = c.slot() + 1;
    }

    /**
     * The slot of the record ({@link QpLines}) of QPN {@code qpn}'s QP, or -1 when there is none: a request finds
     * what it needs there, without the QP's context object.
     */
    int slot(int qpn) {
        int[] t = slotByQpn;
        if (qpn >= 0 && qpn < t.length) return t[qpn] - 1;
        if (qpn < QpnTable.DIRECT) return -1;
        QpContext c = contexts.get(qpn);
        return c == null ? -1 : c.slot();
    }

    /**
     * Where a QP's context lines disagree with the QP (its state or an attribute the lines mirror), in words, or
     * null when every one agrees: the mirrors are copied at each change, and the simulations check them.
     */
    public String mirrorMismatch() {
        for (int i = 0, n = contexts.slots(); i < n; i++) {
            QpContext c = contexts.valueAt(i);
            if (c == null) continue;
            QueuePair qp = c.qp;
            if (c.qpState() != qp.state() || c.qpType() != qp.type() || c.destQpn() != qp.destQpn() || c.mtuBytes() != qp.mtuBytes()
                    || c.accessFlags() != qp.accessFlags() || c.pd != qp.pd() || c.pd() != c.pd || c.template() != c.template
                    || c.udpSourcePort() != c.udpSourcePort || c.hasPeer() != (c.peerGid != null) || qp.sqHead() != qp.sq().head()) {
                return qp + ": its line says " + c.qpState() + ", " + c.qpType() + ", dest_qp_num " + c.destQpn() + ", MTU " + c.mtuBytes()
                        + ", access 0x" + Integer.toHexString(c.accessFlags()) + (c.pd == qp.pd() && c.pd() == c.pd ? "" : ", and another PD")
                        + (c.template() == c.template ? "" : ", other headers") + (c.udpSourcePort() == c.udpSourcePort ? "" : ", UDP source port " + c.udpSourcePort())
                        + (c.hasPeer() == (c.peerGid != null) ? "" : c.hasPeer() ? ", a peer" : ", no peer")
                        + (qp.sqHead() == qp.sq().head() ? "" : ", and the QP's copy of the send queue's head is stale");
            }
        }
        return null;
    }

    /** The context of QP {@code qpn}, or null. */
    QpContext context(int qpn) {
        return contexts.get(qpn);
    }

    public void removeQp(QueuePair qp) {
        QpContext c = contexts.remove(qp.qpn());
        if (qp.qpn() < slotByQpn.length) slotByQpn[qp.qpn()] = 0;
        if (c != null) retire(c);
    }

    /** A context that leaves the engine: its timers stop, and its room in the window goes to the QPs waiting. */
    private void retire(QpContext c) {
        c.disarmTimers();
        c.releaseLines();
        txWindow.forget(c);
        congestion.forget(c);
        serveWaiting(); // no packet or timer may come to hand the room on
    }

    /** Lets the QPs waiting on the device's window send, if there is room now. */
    private void serveWaiting() {
        if (txWindow.ready()) txWindow.serve(requester);
    }

    final TxWindow txWindow = new TxWindow();

    /** Bounds the RC PSNs in flight over all QPs (see {@link TxWindow}); 0: no bound. */
    public void txWindow(int psns) {
        txWindow.limit(psns);
    }

    /** Each RC QP's window of unacknowledged PSNs: rxe's 128 unless set. */
    int maxUnackedPsns = MAX_UNACKED_PSNS;

    /**
     * Sets each RC QP's window of unacknowledged PSNs: rxe's RXE_MAX_UNACKED_PSNS (128) by default; a hardware RNIC
     * keeps far more in flight, which a simulated switch's buffer must then hold or drop.
     */
    public void maxUnackedPsns(int psns) {
        if (psns < 1 || psns > 1 << 22) throw new IllegalArgumentException("an unacknowledged-PSN window of " + psns + " is not in 1..2^22");
        maxUnackedPsns = psns;
    }

    /** The notification point, the reaction points and the port's gate. */
    final Congestion congestion = new Congestion(this);
    final Odp odp = new Odp(this);

    /** How long the driver takes to serve a page fault of an ODP region, in nanoseconds. */
    public void odpFaultNanos(long nanos) {
        if (nanos < 0) throw new IllegalArgumentException("a page fault cannot take negative time");
        odp.faultNanos = nanos;
    }

    /** Hears each page fault as it starts (null: none). */
    public void odpListener(org.softrnic.nic.OdpListener listener) {
        odp.listener = listener;
    }

    /** ibv_advise_mr's prefetch of {@code [va, va + len)} of checked region {@code mr}: the pages asked for. */
    public int odpPrefetch(org.softrnic.nic.mem.MemoryRegion mr, long va, long len, boolean flush) {
        return odp.prefetch(mr.resolve(va), va, len, flush);
    }

    /** Drops the NIC's translations of {@code [va, va + len)} of ODP region {@code mr}: the pages dropped. */
    public int odpInvalidate(org.softrnic.nic.mem.MemoryRegion mr, long va, long len) {
        return odp.invalidate(mr, va, len);
    }

    /** Drops the parts of implicit region {@code mr} whose memory was freed. */
    public void odpDropFreed(org.softrnic.nic.mem.MemoryRegion mr) {
        odp.gone(mr);
    }

    public void notificationPoint(org.softrnic.nic.cc.NotificationPoint np) {
        congestion.notificationPoint(np);
    }

    /** Gives each RC and UC QP, those there are and those to come, a DCQCN reaction point, at most {@code lineRateMbps}; null: none. */
    public void reactionPoint(org.softrnic.nic.cc.DcqcnParameters parameters, double lineRateMbps) {
        congestion.reactionPoint(parameters, lineRateMbps);
        paths.ecnCapable(congestion.ecnCapable());
    }

    /** What QP {@code qpn}'s reaction point shows now, or null when it has none. */
    public org.softrnic.nic.cc.ReactionPoint.RateState rateState(int qpn) {
        QpContext c = context(qpn);
        return c == null || c.rp == null ? null : c.rp.state(now());
    }

    public void txGate(org.softrnic.nic.TxGate gate) {
        congestion.gate(gate);
    }

    /** The port's gate opened: the requesters waiting for it go on. */
    public void portReady() {
        congestion.portReady();
    }

    private QpContext ctx(QueuePair qp) {
        QpContext c = context(qp.qpn());
        if (c == null) throw new IllegalStateException(qp + " is not known to the engine");
        return c;
    }

    /** Applies what a successful modify_qp changed (the attributes are already in {@code qp.attr()}). */
    public void modified(QueuePair qp, QpState from, int mask) {
        QpContext c = ctx(qp);
        QpAttr a = qp.attr();
        QpState to = qp.state();
        if (to == QpState.RESET) {
            qp.sq().clear();
            if (qp.rq() != null) qp.rq().clear();
            put(context(qp));
            retire(c);
            return;
        }
        c.mirror(qp);
        if ((mask & QpAttrMask.MAX_DEST_RD_ATOMIC) != 0) c.resp.sizeResources(a.maxDestRdAtomic);
        if ((mask & QpAttrMask.RQ_PSN) != 0) {
            c.respPsn(a.rqPsn & Psn.MASK);
            c.respAckPsn(c.respPsn());
            c.respLastOpcode(null);
            c.respNakSent(false);
        }
        if ((mask & QpAttrMask.SQ_PSN) != 0) {
            c.reqPsn = a.sqPsn & Psn.MASK;
            c.compPsn = c.reqPsn;
        }
        if ((mask & QpAttrMask.RETRY_CNT) != 0) c.retryLeft = a.retryCnt;
        if ((mask & QpAttrMask.RNR_RETRY) != 0) c.rnrRetryLeft = a.rnrRetry;
        if (qp.type() != QpType.UD && (mask & (QpAttrMask.AV | QpAttrMask.DEST_QPN)) != 0 && a.ahAttr != null) {
            c.sourcePort(udpSourcePort(a.ahAttr.flowLabel(), qp.qpn(), a.destQpNum));
            Paths.Path path = paths.of(a.ahAttr);
            // the equal vector the device already holds: QPs along one path keep one copy, as of its headers
            a.ahAttr = path.av();
            c.connectPath(path.headers(), path.av().dgid(), path.sgid());
        }
        if (qp.type() == QpType.UD && from == QpState.RESET) {
            c.sourcePort(udUdpSourcePort(qp.qpn()));
        }
        if (to == QpState.ERR && from != QpState.ERR) completions.flush(c);
        if (to == QpState.SQD && from != QpState.SQD) c.sqDrained = false; // a new drain, with its own SQ_DRAINED
        txWindow.recount(c); // a QP that leaves RTS has nothing in flight any more; a new SQ PSN starts with none
        if (to == QpState.RTS || to == QpState.SQD) requester.run(c);
        serveWaiting();
    }

    /** rdma_get_udp_sport(): RC and UC derive the UDP source port from the flow label or both QPNs. */
    static int udpSourcePort(int flowLabel, int lqpn, int rqpn) {
        int fl = flowLabel;
        if (fl == 0) {
            long v = (long) lqpn * rqpn;
            v ^= v >>> 20;
            v ^= v >>> 40;
            fl = (int) (v & 0xfffff);
        }
        int low = fl & 0x3fff;
        int high = fl & 0xfc000;
        low ^= high >>> 14;
        return low | SPORT_MIN;
    }

    /** rxe's UD source port: 0xC000 + hash_32(qpn, 14). */
    static int udUdpSourcePort(int qpn) {
        return SPORT_MIN + ((qpn * 0x61c88647) >>> (32 - 14));
    }

    /** The headers along {@code av}, shared with every QP of this device that sends along it. */
    FrameTemplate template(org.softrnic.verbs.AddressVector av) {
        return paths.of(av).headers();
    }

    /**
     * Starts a packet of QP {@code c} along template {@code t}: the QP's UDP source port (unless the link fixes
     * one), BTH opcode, P_Key, destination QP and PSN are set.
     */
    FrameWriter begin(QpContext c, FrameTemplate t, Opcode op, int dqpn, int psn) {
        return begin(c.udpSourcePort, t, op, dqpn, psn);
    }

    /** {@link #begin(QpContext, FrameTemplate, Opcode, int, int)} for the responder, from the QP's record. */
    FrameWriter begin(RespLine r, FrameTemplate t, Opcode op, int dqpn, int psn) {
        return begin(r.udpSourcePort(), t, op, dqpn, psn);
    }

    private FrameWriter begin(int udpSourcePort, FrameTemplate t, Opcode op, int dqpn, int psn) {
        FrameWriter w = writer.begin(tx, HEADROOM, t, op);
        if (link.udpSourcePort() < 0) w.udpSourcePort(udpSourcePort);
        w.bth().pkey(Bth.DEFAULT_PKEY).dqpn(dqpn).psn(psn);
        return w;
    }

    /** The IP length of the last packet built, for the requester's pacing. */
    int lastTxLength;

    /** Completes the packet begun with {@link #begin} around its payload and hands it to the link. */
    void transmit(int payloadLength) {
        int len = writer.finish(payloadLength, link.ipIdZero() ? 0 : ipId, !link.icrcUnseen() || transmitTap != null);
        lastTxLength = len;
        ipId = (ipId + 1) & 0xffff;
        if (transmitTap != null) transmitTap.transmit(tx, HEADROOM, len);
        PacketBuffer next = sink.handOver(tx, HEADROOM, len);
        if (next == null) {
            counters.inc(Counter.SEND_ERR); // as rxe when the IP stack refuses a packet: lost, retransmission recovers
            return;
        }
        counters.inc(Counter.SENT_PKTS);
        if (next.capacity() < PacketSink.BUFFER_BYTES) throw new IllegalStateException("the sink handed back a small buffer");
        tx = next;
    }

    /** A request posted to the send queue: let the requester work. */
    public void sendQueued(QueuePair qp) {
        requester.run(ctx(qp));
        serveWaiting(); // a local error may have freed room
    }

    /** The RC PSNs in flight as the device's window counts them (0 without a window). */
    public long txInFlight() {
        return txWindow.inFlight();
    }

    private final Warmer warmer = new Warmer(RespLine.cursor(lines));

    /** The most packets {@link #warm} takes at once. */
    public static final int BURST = Warmer.BURST;

    /** See {@link org.softrnic.nic.Nic#warm}. */
    public void warm(PacketBuffer[] buffers, int[] offsets, int[] lengths, int from, int n) {
        warmer.warm(buffers, offsets, lengths, from, n, this);
    }

    /**
     * Makes a received packet show what was on the wire before a tap reads it: on a link where the ICRC is
     * unseen, the ICRC it would carry (the sender stamps only for its own tap); where a socket hid the IPv4
     * identification, the one the ICRC was made for (a GSO segment's, rxe's), written into the rebuilt header.
     */
    public void prepareForTap(PacketBuffer buf, int offset, int length) {
        if (!link.icrcUnseen() && !link.ipIdHidden()) return;
        if (view.wrapIp(buf, offset, length) != null || !view.isRoce()) return;
        if (link.icrcUnseen()) view.stampIcrc();
        else IcrcCheck.verify(view, true);
    }

    /** One received IP packet (IPv4 or IPv6, UDP, RoCEv2). */
    public void receive(PacketBuffer buf, int offset, int length) {
        ParseError e = view.wrapIp(buf, offset, length);
        if (e == null && !view.isRoce()) {
            counters.inc(Counter.DROP_NOT_ROCE);
            return;
        }
        if (e == null && !link.icrcUnseen()) {
            e = IcrcCheck.verify(view, link.ipIdHidden());
            if (e == null) counters.inc(Counter.RCVD_ICRC_VERIFIED);
        }
        if (e != null) {
            counters.inc(e == ParseError.ICRC_MISMATCH ? Counter.DROP_BAD_ICRC : Counter.DROP_MALFORMED);
            return;
        }
        boolean ce = view.ecnBits() == Ecn.CE.bits;
        if (ce) counters.inc(Counter.NP_ECN_MARKED_ROCE_PACKETS);
        counters.inc(Counter.RCVD_PKTS);
        Opcode op = view.roce.opcode();
        if (op == Opcode.CNP) {
            congestion.cnp(view.roce.bth().dqpn()); // a CNP needs no answer
            return;
        }
        int dqpn = view.roce.bth().dqpn();
        // a request reads its QP's record only, found by QPN; the completer needs the context, which is its QP's view
        QpContext c = null;
        RespLine r;
        if (op.isRequest()) {
            int slot = slot(dqpn);
            r = slot < 0 ? null : line.at(slot);
        } else {
            r = c = context(dqpn);
        }
        if (r == null) {
            counters.inc(Counter.DROP_UNKNOWN_QP);
            return;
        }
        if (Opcodes.transport(r.qpType()) != op.transport()) {
            counters.inc(Counter.DROP_OPCODE_FOR_QP_TYPE);
            return;
        }
        // rxe's pkey_match: the port's full-member 0xFFFF matches 0xFFFF and the limited member 0x7FFF
        if ((view.roce.bth().pkey() & 0x7fff) != (Bth.DEFAULT_PKEY & 0x7fff)) {
            counters.inc(Counter.DROP_BAD_PKEY);
            return;
        }
        if (r.hasPeer() && !(view.ipVersion() == 4 ? PeerAddress.matchesIpv4(view, r) : PeerAddress.matchesIpv6(view, c != null ? c : context(dqpn)))) {
            counters.inc(Counter.DROP_WRONG_PEER); // rxe check_addr: RC and UC take packets from their peer only
            return;
        }
        if (ce && congestion.npEnabled() && r.hasPeer() && (op.isRequest() || op.opClass == org.softrnic.wire.OpClass.RDMA_READ_RESPONSE)) {
            if (c == null) c = context(dqpn);
            congestion.marked(c);
        }
        // with a device window, the QP's share is counted again after the packet: the context held before it, as a
        // listener may destroy the QP meanwhile (the engine forgets its share then)
        if (c == null && txWindow.limit() > 0) c = context(dqpn);
        if (op.isRequest()) responder.receive(r, dqpn, view);
        else completer.receive(c, view);
        if (txWindow.limit() > 0) {
            // an ACK frees room in the device's window for the QPs waiting on it; an error takes a QP's share away
            txWindow.recount(c);
            txWindow.serve(requester);
        }
    }

    /** No later than the earliest timer deadline of any QP (see {@link Timers}); Long.MAX_VALUE when none is armed. */
    public long nextDeadline() {
        return timers.nextDeadline();
    }

    /** The earliest timer deadline exactly, at the cost of a look at every QP: for a clock about to jump to it. */
    public long exactNextDeadline() {
        return timers.exactNextDeadline();
    }

    /** Fires every timer whose deadline has passed. */
    public void runTimers() {
        timers.run(clock.nanoTime(), completer);
        serveWaiting();
    }

    // ---- completions and errors, shared by the three roles

    void event(AsyncEvent.Type type, Object subject) {
        events.accept(new AsyncEvent(type, subject));
    }

    void srqLimit(org.softrnic.nic.qp.SharedReceiveQueue srq) {
        event(AsyncEvent.Type.SRQ_LIMIT_REACHED, srq);
    }

    /** A send posted while the send queue is in error (ERR or SQE) completes at once as flushed. */
    public void flushSends(QueuePair qp) {
        completions.flushSendQueue(ctx(qp));
    }

    /** A posted receive: the responder may be waiting on one (nothing to do: the peer retries after RNR). */
    public void recvQueued(QueuePair qp) {
        if (qp.state() == QpState.ERR) completions.flush(ctx(qp));
    }

    /** Local ACK timeout: 4.096 us x 2^timeout, 0 meaning none (IBTA 9.7.6.1.3). */
    static long timeoutNanos(int timeout) {
        return timeout == 0 ? QpContext.NEVER : 4096L << Math.min(timeout, 31);
    }

    long now() {
        return clock.nanoTime();
    }

    /** Hears each responder and completer step, or null (the default). */
    org.softrnic.nic.StateTrace stateTrace;

    public void stateTrace(org.softrnic.nic.StateTrace t) {
        stateTrace = t;
    }

    /** Tells the state trace a step; its failure must not change what the engine does with the packet. */
    void traceStep(int qpn, org.softrnic.nic.StateTrace.Role role, String state) {
        try {
            stateTrace.step(qpn, role, state);
        } catch (RuntimeException e) {
            // the trace is an observer
        }
    }

    /** Records why {@code qp} refused the request at {@code psn}. */
    void refuse(QueuePair qp, int psn, String why) {
        refuse(qp.qpn(), psn, why);
    }

    /** Records why the QP of QPN {@code qpn} refused the request at {@code psn}. */
    void refuse(int qpn, int psn, String why) {
        diagnostics.refuse(clock.nanoTime(), qpn, psn, why);
    }
}
