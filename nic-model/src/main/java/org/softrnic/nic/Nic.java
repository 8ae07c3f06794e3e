package org.softrnic.nic;

import static org.softrnic.nic.VerbChecks.checkPd;
import static org.softrnic.nic.VerbChecks.error;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.QpnTable;
import org.softrnic.nic.mem.KeyTable;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWqe;
import org.softrnic.nic.qp.SendWqe;
import org.softrnic.nic.qp.SharedReceiveQueue;
import org.softrnic.nic.time.Clock;
import org.softrnic.nic.transport.Engine;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpTransitions;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.PacketBuffer;

/**
 * One soft RNIC: the verbs objects with rdma-core's checks, and the transport engine. Packets come in
 * through {@link #receive} and go out through the {@link PacketSink}; time comes from the {@link Clock},
 * and {@link #runTimers} must be called once {@link #nextDeadline} has passed. Not thread-safe: the caller
 * runs everything on one thread (emulator-core's event loop, or a simulation).
 * <p>
 * Longer than 400 lines for a reason: it is the device's whole verbs surface, each verb a few lines that check
 * and hand on (to {@link Posting}, the key table, the engine), grouped as ibv_* groups them; split, a caller
 * would have to know which part holds which verb.
 */
public final class Nic implements PacketReceiver {
    /** rxe hands out QP numbers from 17 on; 0 and 1 are the special QPs. */
    static final int FIRST_QPN = 0x11;

    private final NicConfig config;
    private final Clock clock;
    private final Counters counters = new Counters();
    private final KeyTable keys;
    private final Engine engine;
    private final Posting posting;
    /** In QPN order, which keeps the QP objects in the order they were made ({@link QpnTable}). */
    private final QpnTable<QueuePair> qps = new QpnTable<>();
    private final List<AsyncEvent> events = new ArrayList<>();
    private Consumer<AsyncEvent> eventListener = e -> { };
    private int nextQpn = FIRST_QPN;
    private int nextHandle = 1;
    /** The device's own objects (QP1's PD and CQs, as the kernel's MAD layer has them) are numbered apart. */
    private int nextKernelHandle = KERNEL_HANDLES;
    private static final int KERNEL_HANDLES = 0x40000000;
    private boolean kernel;

    /**
     * Makes the device's own objects in {@code body} (the CM's QP1 and its queues): their handles come from a
     * range of their own, so that an application's first PD is still PD 1, as in a uverbs context.
     */
    public <T> T kernel(java.util.function.Supplier<T> body) {
        kernel = true;
        try {
            return body.get();
        } finally {
            kernel = false;
        }
    }

    private int handle() {
        return kernel ? nextKernelHandle++ : nextHandle++;
    }
    private int mrCount;
    private int cqCount;

    public Nic(NicConfig config, Clock clock, PacketSink sink) {
        this(config, clock, sink, java.lang.foreign.Arena.ofAuto());
    }

    /** A device whose native buffers come from {@code arena}, which its owner closes after the device is gone. */
    public Nic(NicConfig config, Clock clock, PacketSink sink, java.lang.foreign.Arena arena) {
        this.config = config;
        this.clock = clock;
        this.keys = new KeyTable(config.seed());
        this.engine = new Engine(counters, clock, keys, sink, config.gids(), config.rocePort(), config.link(), this::event, arena);
        this.posting = new Posting(keys, engine);
    }

    private void event(AsyncEvent e) {
        events.add(e);
        eventListener.accept(e);
    }

    public NicConfig config() { return config; }
    public DeviceAttributes queryDevice() { return config.attributes(); }
    public List<Gid> gids() { return config.gids(); }
    public Counters counters() { return counters; }

    /** Hears every responder and completer step by rxe's state names; null stops it. */
    public void stateTrace(StateTrace t) { engine.stateTrace(t); }

    /** Why this device refused requests, in words with the numbers. */
    public Diagnostics diagnostics() { return engine.diagnostics; }

    /** Null when the engine's copies of its QPs' attributes agree with the QPs, else where they do not (tests). */
    public String mirrorMismatch() { return engine.mirrorMismatch(); }
    public Clock clock() { return clock; }

    /** Called on the engine thread for every async event. */
    public void onAsyncEvent(Consumer<AsyncEvent> listener) {
        this.eventListener = listener;
    }

    /** Async events so far, oldest first, and forgets them (as ibv_get_async_event consumes them). */
    public List<AsyncEvent> drainEvents() {
        List<AsyncEvent> out = List.copyOf(events);
        events.clear();
        return out;
    }

    // ---- PD

    public ProtectionDomain allocPd() {
        return new ProtectionDomain(handle());
    }

    public void deallocPd(ProtectionDomain pd) {
        if (pd.closed()) throw error("ibv_dealloc_pd", Errno.EINVAL, pd + " is already deallocated");
        if (pd.users() > 0) throw error("ibv_dealloc_pd", Errno.EBUSY, pd + " still has " + pd.users() + " MRs, QPs or SRQs");
        pd.markClosed();
    }

    // ---- MR

    /** Registers {@code segment}; its iova is its native address, or 0 for a heap segment (as with ZERO_BASED). */
    public MemoryRegion regMr(ProtectionDomain pd, MemorySegment segment, int access) {
        return regMr(pd, segment, segment.isNative() ? segment.address() : 0, access);
    }

    public MemoryRegion regMr(ProtectionDomain pd, MemorySegment segment, long iova, int access) {
        String verb = "ibv_reg_mr";
        checkAccess(verb, pd, access);
        if (segment.isReadOnly() && (access & (Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)) != 0) {
            throw error(verb, Errno.EINVAL, "a read-only segment cannot be registered for writing");
        }
        return register(verb, access, kernel, (lkey, rkey) -> (access & Access.ON_DEMAND) != 0
                ? MemoryRegion.onDemand(pd, segment, iova, access, lkey, rkey) : new MemoryRegion(pd, segment, iova, access, lkey, rkey));
    }

    /**
     * ibv_reg_mr(pd, NULL, SIZE_MAX, access | IBV_ACCESS_ON_DEMAND): an implicit ODP region, whose keys reach every
     * address the device is shown memory at ({@link #odpCover}), faulted in as it is touched.
     */
    public MemoryRegion regImplicitOdp(ProtectionDomain pd, int access) {
        String verb = "ibv_reg_mr";
        checkAccess(verb, pd, access);
        if ((access & Access.ON_DEMAND) == 0) throw error(verb, Errno.EINVAL, "an implicit region (address 0, length SIZE_MAX) needs IBV_ACCESS_ON_DEMAND");
        if ((access & (Access.MW_BIND | Access.ZERO_BASED)) != 0) {
            throw error(verb, Errno.EINVAL, "an implicit ODP region takes no memory windows and is not zero-based (mlx5 refuses both)");
        }
        return register(verb, access, false, (lkey, rkey) -> MemoryRegion.implicitOdp(pd, access, lkey, rkey));
    }

    private void checkAccess(String verb, ProtectionDomain pd, int access) {
        checkPd(verb, pd);
        String bad = Access.invalidReason(access);
        if (bad != null) throw error(verb, Errno.EINVAL, bad);
    }

    /** A new region {@code make} builds with a fresh lkey (the device's own stream's, for its own) and rkey, filed and counted. */
    private MemoryRegion register(String verb, int access, boolean kernelKey, java.util.function.BiFunction<Integer, Integer, MemoryRegion> make) {
        if (mrCount >= config.attributes().maxMr()) throw error(verb, Errno.ENOMEM, "max_mr reached");
        int lkey = kernelKey ? keys.newKernelKey() : keys.newKey();
        MemoryRegion mr = make.apply(lkey, (access & Access.REMOTE_ANY) != 0 ? lkey : 0);
        keys.add(mr);
        mr.pd().attach();
        mrCount++;
        return mr;
    }

    /**
     * Shows implicit ODP region {@code mr} the memory of native {@code segment}: the part of the process's address space
     * its page faults may map (a kernel's region sees the whole address space; a Java device is shown it).
     */
    public void odpCover(MemoryRegion mr, MemorySegment segment) {
        String verb = "odp_cover";
        if (!mr.isImplicit()) throw error(verb, Errno.EINVAL, "the region is not an implicit ODP region");
        if (!segment.isNative()) throw error(verb, Errno.EINVAL, "an implicit region reaches native memory only (a heap segment has no address)");
        engine.odpDropFreed(mr);
        String bad = mr.implicitParts().cover(mr, segment);
        if (bad != null) throw error(verb, Errno.EINVAL, bad);
    }

    /** ib_alloc_mr(IB_MR_TYPE_MEM_REG): an empty region of up to {@code maxLength} bytes for REG_MR requests. */
    public MemoryRegion allocMr(ProtectionDomain pd, long maxLength) {
        String verb = "ib_alloc_mr";
        checkPd(verb, pd);
        if (maxLength <= 0) throw error(verb, Errno.EINVAL, "max length must be positive");
        if (mrCount >= config.attributes().maxMr()) throw error(verb, Errno.ENOMEM, "max_mr reached");
        MemoryRegion mr = MemoryRegion.fastReg(pd, maxLength, keys.newKey());
        keys.add(mr);
        pd.attach();
        mrCount++;
        return mr;
    }

    public void deregMr(MemoryRegion mr) {
        String verb = "ibv_dereg_mr";
        if (keys.byLkey(mr.lkey()) != mr) throw error(verb, Errno.EINVAL, mr + " is not registered");
        if (mr.boundWindows() > 0) {
            throw error(verb, Errno.EBUSY, mr + " has " + mr.boundWindows() + " memory windows bound");
        }
        keys.remove(mr);
        mr.invalidate();
        mr.pd().detach();
        mrCount--;
    }

    // ---- MW

    /** ibv_alloc_mw: type 1 or 2. The window starts unbound with a fresh rkey. */
    public MemoryWindow allocMw(ProtectionDomain pd, int type) {
        String verb = "ibv_alloc_mw";
        checkPd(verb, pd);
        if (type != 1 && type != 2) throw error(verb, Errno.EINVAL, "memory window type must be 1 or 2, not " + type);
        MemoryWindow mw = new MemoryWindow(pd, type, keys.newKey());
        keys.addWindow(mw);
        pd.attach();
        return mw;
    }

    public void deallocMw(MemoryWindow mw) {
        if (keys.windowByRkey(mw.rkey()) != mw) throw error("ibv_dealloc_mw", Errno.EINVAL, mw + " does not exist");
        mw.invalidate();
        keys.removeWindow(mw);
        mw.pd().detach();
    }

    /**
     * ibv_bind_mw for a type 1 window: a BIND_MW work request on {@code qp}'s send queue, completed in order
     * with IBV_WC_BIND_MW (or IBV_WC_MW_BIND_ERR).
     */
    public void bindMw(QueuePair qp, MemoryWindow mw, long wrId, MemoryRegion mr, long addr, long length, int access) {
        SendWr wr = new SendWr(1);
        int before = mw.postedRkey();
        bindMwRequest(wr, mw, wrId, addr, length, access);
        try {
            postBind(qp, wr, mw, mr);
        } catch (RuntimeException e) {
            mw.cancelBind(wr.bindRkey, before);
            throw e;
        }
    }

    /**
     * Fills {@code wr} with the BIND_MW request that ibv_bind_mw posts for a type 1 window (the window's
     * next rkey taken); post it with {@link #postBind}.
     */
    public static void bindMwRequest(SendWr wr, MemoryWindow mw, long wrId, long addr, long length, int access) {
        if (mw.type() != 1) throw error("ibv_bind_mw", Errno.EINVAL, "ibv_bind_mw binds type 1 windows; post IBV_WR_BIND_MW for type 2");
        wr.numSge = 0;
        wr.wrId = wrId;
        wr.opcode = SendOpcode.BIND_MW;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.bindRkey = mw.nextBindRkey();
        wr.bindAddr = addr;
        wr.bindLength = length;
        wr.bindAccess = access;
    }

    // ---- CQ

    public CompletionQueue createCq(int cqe) {
        if (cqe < 1 || cqe > config.attributes().maxCqe()) {
            throw error("ibv_create_cq", Errno.EINVAL, "cqe " + cqe + " not in 1.." + config.attributes().maxCqe());
        }
        if (cqCount >= config.attributes().maxCq()) throw error("ibv_create_cq", Errno.ENOMEM, "max_cq reached");
        cqCount++;
        return new CompletionQueue(handle(), cqe);
    }

    public void destroyCq(CompletionQueue cq) {
        if (cq.users() > 0) throw error("ibv_destroy_cq", Errno.EBUSY, "CQ is still used by " + cq.users() + " QPs");
        cqCount--;
    }

    public int pollCq(CompletionQueue cq, WorkCompletion[] out) {
        return cq.poll(out);
    }

    // ---- SRQ

    public SharedReceiveQueue createSrq(ProtectionDomain pd, int maxWr, int maxSge, int limit) {
        String verb = "ibv_create_srq";
        checkPd(verb, pd);
        DeviceAttributes a = config.attributes();
        if (maxWr < 1 || maxWr > a.maxSrqWr()) throw error(verb, Errno.EINVAL, "max_wr " + maxWr + " not in 1.." + a.maxSrqWr());
        if (maxSge < 1 || maxSge > a.maxSrqSge()) throw error(verb, Errno.EINVAL, "max_sge " + maxSge + " not in 1.." + a.maxSrqSge());
        if (limit < 0 || limit > maxWr) throw error(verb, Errno.EINVAL, "srq_limit " + limit + " exceeds max_wr");
        pd.attach();
        return new SharedReceiveQueue(handle(), pd, maxWr, maxSge, limit);
    }

    /** ibv_modify_srq with IBV_SRQ_LIMIT: arms the limit event. */
    public void modifySrq(SharedReceiveQueue srq, int limit) {
        if (limit < 0 || limit > srq.ring().capacity()) throw error("ibv_modify_srq", Errno.EINVAL, "srq_limit too large");
        srq.arm(limit);
    }

    public void destroySrq(SharedReceiveQueue srq) {
        if (srq.users() > 0) throw error("ibv_destroy_srq", Errno.EBUSY, "SRQ is still used by " + srq.users() + " QPs");
        srq.pd().detach();
    }

    public void postSrqRecv(SharedReceiveQueue srq, RecvWr wr) {
        posting.recv(null, srq, wr);
    }

    // ---- QP

    public QueuePair createQp(ProtectionDomain pd, QpType type, CompletionQueue sendCq, CompletionQueue recvCq,
                              SharedReceiveQueue srq, QpCaps caps, boolean sqSigAll) {
        String verb = "ibv_create_qp";
        checkPd(verb, pd);
        VerbChecks.createQp(config.attributes(), type, pd, sendCq, recvCq, srq, caps);
        if (qps.size() >= config.attributes().maxQp()) throw error(verb, Errno.ENOMEM, "max_qp reached");
        return register(new QueuePair(allocQpn(), type, pd, sendCq, recvCq, srq, caps, sqSigAll));
    }

    /** A new QP joins the device: it holds its PD, CQs and SRQ, and the engine takes its packets. */
    private QueuePair register(QueuePair qp) {
        qps.put(qp.qpn(), qp);
        qp.pd().attach();
        qp.sendCq().attach();
        qp.recvCq().attach();
        if (qp.srq() != null) qp.srq().attach();
        engine.addQp(qp);
        return qp;
    }

    /** QP1's number: the General Services Interface, where the CM's MADs come and go. */
    public static final int GSI_QPN = 1;
    /** The Q_Key of every datagram to and from QP1 (IBTA 13.4.6.1; rxe's GSI_QKEY). */
    public static final int GSI_QKEY = 0x80010000;

    /**
     * QP1, the General Services Interface, as rxe runs it (the kernel's MAD layer makes it): a UD QP numbered 1,
     * taking datagrams with the GSI Q_Key only, ready to send and receive (RTS). One per device; EEXIST for a
     * second while the first lives.
     */
    public QueuePair createGsi(ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq, QpCaps caps) {
        String verb = "ibv_create_qp";
        checkPd(verb, pd);
        VerbChecks.createQp(config.attributes(), QpType.UD, pd, sendCq, recvCq, null, caps);
        if (qps.containsKey(GSI_QPN)) throw error(verb, Errno.EEXIST, "this device's QP1 (the GSI) exists already");
        QueuePair qp = register(new QueuePair(GSI_QPN, QpType.UD, pd, sendCq, recvCq, null, caps, false));
        QpAttr attr = new QpAttr();
        attr.qkey = GSI_QKEY;
        modifyToRts(qp, attr);
        return qp;
    }

    private int allocQpn() {
        while (qps.containsKey(nextQpn)) nextQpn = nextQpn >= 0xffffff ? FIRST_QPN : nextQpn + 1;
        int qpn = nextQpn;
        nextQpn = nextQpn >= 0xffffff ? FIRST_QPN : nextQpn + 1;
        return qpn;
    }

    public QueuePair qp(int qpn) {
        return qps.get(qpn);
    }

    public void destroyQp(QueuePair qp) {
        if (qps.remove(qp.qpn()) == null) throw error("ibv_destroy_qp", Errno.EINVAL, qp + " does not exist");
        qp.markDestroyed();
        engine.removeQp(qp);
        qp.pd().detach();
        qp.sendCq().detach();
        qp.recvCq().detach();
        if (qp.srq() != null) qp.srq().detach();
    }

    /** ibv_modify_qp: the transition and attribute mask are checked against the IBTA table first. */
    public void modifyQp(QueuePair qp, QpAttr attr, int mask) {
        String verb = "ibv_modify_qp";
        QpState current = qp.state();
        if ((mask & QpAttrMask.CUR_STATE) != 0 && attr.curQpState != current) {
            throw error(verb, Errno.EINVAL, "cur_qp_state " + attr.curQpState.ibvName() + " but the QP is in "
                    + current.ibvName());
        }
        QpState next = (mask & QpAttrMask.STATE) != 0 ? attr.qpState : current;
        String wrong = QpTransitions.check(qp.type(), current, next, mask);
        if (wrong != null) throw error(verb, Errno.EINVAL, wrong);
        VerbChecks.qpAttr(verb, config, qp, attr, mask);
        qp.apply(attr, mask);
        if (next == QpState.RTR && qp.type() == QpType.UD) qp.pathMtu(config.activeMtu());
        qp.state(next);
        engine.modified(qp, current, mask);
    }

    /**
     * Walks a QP from RESET through INIT and RTR to RTS, each step with exactly the attributes the transition
     * table requires for its type, taken from {@code attr} (the usual connect sequence of a verbs program).
     */
    public void modifyToRts(QueuePair qp, QpAttr attr) {
        QpState[] path = {QpState.INIT, QpState.RTR, QpState.RTS};
        for (QpState next : path) {
            QpTransitions.Rule rule = QpTransitions.rule(qp.state(), next, qp.type());
            if (rule == null) throw error("ibv_modify_qp", Errno.EINVAL, qp + " cannot go to " + next.ibvName());
            attr.qpState = next;
            modifyQp(qp, attr, QpAttrMask.STATE | rule.required());
        }
    }

    // ---- posting

    /** ibv_post_send on the device's thread: the request written into its WQE, published and answered at once. */
    public void postSend(QueuePair qp, SendWr wr) {
        posting.send(qp, wr, null, null);
    }

    /** Posts the request ibv_bind_mw made ({@link #bindMwRequest}) to bind {@code window} over {@code region}. */
    public void postBind(QueuePair qp, SendWr wr, MemoryWindow window, MemoryRegion region) {
        posting.send(qp, wr, window, region);
    }

    public void postRecv(QueuePair qp, RecvWr wr) {
        posting.recv(qp, null, wr);
    }

    /**
     * ibv_post_send's first half, on any thread, one at a time per QP: checks {@code wr} and writes it into the
     * send queue's next WQE ({@code typeOneBind}: it is ibv_bind_mw's; {@code window} and {@code region}: a bind's,
     * found by the poster; {@code lkeys}: the regions an inline request's SGEs name). Publish it with the ring's
     * {@link org.softrnic.nic.qp.Ring#publish}, then ring {@link #doorbell}. Reads only the QP's type, caps and
     * (volatile) state and the device's fixed configuration; a full ring grows through its
     * {@link org.softrnic.nic.qp.Ring#growWith grower}.
     */
    public SendWqe writeSend(QueuePair qp, SendWr wr, boolean typeOneBind, MemoryWindow window, MemoryRegion region,
                             IntFunction<MemoryRegion> lkeys) {
        return Posting.writeSend(qp, wr, typeOneBind, window, region, lkeys, null);
    }

    /** ibv_post_recv's first half (ibv_post_srq_recv's when {@code qp} is null), as {@link #writeSend}. */
    public RecvWqe writeRecv(QueuePair qp, SharedReceiveQueue srq, RecvWr wr) {
        return Posting.writeRecv(qp, srq, wr);
    }

    /** The doorbell of an SRQ: what was published goes live. */
    public void doorbell(SharedReceiveQueue srq) {
        srq.ring().accept();
    }

    /**
     * The doorbell, on the device's thread: what was published to {@code qp}'s queues goes live and runs. Returns
     * the requests dropped because a destroy or a reset overtook them (the poster checked the QP before it).
     */
    public int doorbell(QueuePair qp) {
        return posting.doorbell(qp);
    }

    // ---- packets and time

    /** One received IP packet (IPv4 or IPv6 header first). */
    @Override
    public void receive(PacketBuffer buffer, int offset, int length) {
        if (receiveTap != null) {
            engine.prepareForTap(buffer, offset, length);
            receiveTap.transmit(buffer, offset, length);
        }
        engine.receive(buffer, offset, length);
        if (agent != null) agent.poll();
    }

    /** The most packets {@link #warm} takes at once. */
    public static final int BURST = Engine.BURST;

    /**
     * Loads the state of the QPs that received packets {@code from} to {@code from + n} go to (the first
     * {@link #BURST}), before they are handed to {@link #receive} one by one: a link that has several
     * packets at hand calls it first, so that their cache misses overlap. It only reads.
     */
    @Override
    public void warm(PacketBuffer[] buffers, int[] offsets, int[] lengths, int from, int n) {
        engine.warm(buffers, offsets, lengths, from, n);
    }

    private DeviceAgent agent;

    /** Attaches the consumer that lives in the device (the CM on QP1); one per device. */
    public void attach(DeviceAgent a) {
        if (agent != null) throw new IllegalStateException("this device has its agent already");
        agent = a;
    }

    private PacketSink receiveTap;

    /** Shows every packet received to {@code in}, and every packet sent to {@code out}, first (a trace); null for none. */
    public void tap(PacketSink in, PacketSink out) {
        this.receiveTap = in;
        engine.transmitTap(out);
    }

    /**
     * Bounds the RC PSNs this device keeps in flight over all its QPs, for a link that drops what it cannot
     * hold (a kernel UDP socket); 0, the default, for none.
     */
    public void txWindow(int psns) {
        engine.txWindow(psns);
    }

    /** Makes this device a DCQCN notification point (CNPs on CE-marked packets), or not ({@link org.softrnic.nic.cc.NotificationPoint#OFF}). */
    public void notificationPoint(org.softrnic.nic.cc.NotificationPoint np) {
        engine.notificationPoint(np);
    }

    /**
     * Gives each RC and UC QP, those there are and those to come, a DCQCN reaction point: its requester paces at the rate CNPs leave
     * it, at most {@code lineRateMbps}, and its data goes out ECT(0). Null parameters: none (the default, as rxe).
     */
    public void reactionPoint(org.softrnic.nic.cc.DcqcnParameters parameters, double lineRateMbps) {
        engine.reactionPoint(parameters, lineRateMbps);
    }

    /** QP {@code qpn}'s rate, target rate, α and CNPs handled now, or null when it has no reaction point. */
    public org.softrnic.nic.cc.ReactionPoint.RateState rateState(int qpn) {
        return engine.rateState(qpn);
    }

    /** The port's transmit gate (see {@link TxGate}); null: the port takes every packet at once. */
    public void txGate(TxGate gate) {
        engine.txGate(gate);
    }

    /** The port's gate opened again: the requesters held back by it go on. */
    public void portReady() {
        engine.portReady();
    }

    /** Each RC QP's window of unacknowledged PSNs (rxe's 128 by default), for a simulated hardware RNIC. */
    public void maxUnackedPsns(int psns) {
        engine.maxUnackedPsns(psns);
    }

    /** How long the driver takes to serve a page fault of an ODP region (500 µs unless set). */
    public void odpFaultNanos(long nanos) {
        engine.odpFaultNanos(nanos);
    }

    /** Hears each page fault as it starts (null: none). */
    public void odpListener(OdpListener listener) {
        engine.odpListener(listener);
    }

    /**
     * ibv_advise_mr(IBV_ADVISE_MR_ADVICE_PREFETCH*): maps the ranges {@code lkeys}, {@code addrs} and {@code lengths}
     * name in ODP regions of {@code pd}, at once with {@code flush} (IBV_ADVISE_MR_FLAG_FLUSH: the call returns when
     * they are mapped), else after a fault's time. Every entry is checked before any is prefetched: EFAULT for a key or
     * range the PD does not hold, EINVAL for a region that is not ODP. The pages asked for.
     */
    public int odpPrefetch(ProtectionDomain pd, int[] lkeys, long[] addrs, long[] lengths, boolean write, boolean flush) {
        String verb = "ibv_advise_mr";
        MemoryRegion[] regions = new MemoryRegion[lkeys.length];
        for (int i = 0; i < lkeys.length; i++) {
            MemoryRegion mr = keys.byLkey(lkeys[i]);
            if (mr == null) throw error(verb, Errno.EFAULT, String.format("SGE %d: no region has lkey 0x%x", i, lkeys[i]));
            var e = mr.check(pd, write ? Access.LOCAL_WRITE : 0, addrs[i], lengths[i]);
            if (e != null) throw error(verb, Errno.EFAULT, String.format("SGE %d, [0x%x, +%d) with lkey 0x%x: %s", i, addrs[i], lengths[i],
                    lkeys[i], e.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')));
            if (mr.odp() == null && !mr.isImplicit()) {
                throw error(verb, Errno.EINVAL, String.format("SGE %d: the region is not ODP: its pages are pinned and always mapped", i));
            }
            regions[i] = mr;
        }
        int pages = 0;
        for (int i = 0; i < regions.length; i++) pages += engine.odpPrefetch(regions[i], addrs[i], lengths[i], flush);
        return pages;
    }

    /**
     * Drops the NIC's translations of {@code [addr, addr + length)} of ODP region {@code mr}, as the kernel's MMU notifier
     * does when the memory is unmapped or migrated: the next access faults again. The pages dropped.
     */
    public int odpInvalidate(MemoryRegion mr, long addr, long length) {
        return engine.odpInvalidate(mr, addr, length);
    }

    private int linkIpMtu;

    /** The link's IP MTU (0: no bound): the RDMA CM's routes fit their path MTU to it, as iboe_get_mtu does. */
    public void linkIpMtu(int mtu) {
        linkIpMtu = mtu;
    }

    public int linkIpMtu() {
        return linkIpMtu;
    }

    /** The RC PSNs in flight as the device-wide window counts them (0 without one): for tests and diagnostics. */
    public long txInFlight() {
        return engine.txInFlight();
    }

    /** No later than the earliest timer deadline (cheap, for a loop's every turn); Long.MAX_VALUE when none is armed. */
    public long nextDeadline() {
        return agent == null ? engine.nextDeadline() : Math.min(engine.nextDeadline(), agent.nextDeadline());
    }

    /** The earliest timer deadline exactly: what a virtual clock jumps to when nothing else is pending. */
    public long exactNextDeadline() {
        return agent == null ? engine.exactNextDeadline() : Math.min(engine.exactNextDeadline(), agent.nextDeadline());
    }

    public void runTimers() {
        engine.runTimers();
        if (agent != null) agent.runTimers(clock.nanoTime());
    }
}
