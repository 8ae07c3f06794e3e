package org.softrnic.nic.cm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Diagnostics;
import org.softrnic.nic.DeviceAgent;
import org.softrnic.nic.Nic;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.CmaHeader;
import org.softrnic.wire.mad.Mad;
import org.softrnic.wire.mad.SidrStatus;

/**
 * The communication manager of one device, as the kernel's cm.c runs it for RoCE: its ids move through
 * {@link CmTable} only, on the device's thread and its clock. It sends and takes CM MADs on QP1
 * ({@link MadPort}), retransmits a REQ, REP or DREQ on its timer up to max_cm_retries times, answers
 * duplicates as the table says, waits out timewait, and refuses a REQ no one listens for with REJ 8.
 * Matching is by communication IDs only; TIDs are opaque, as Send is no response method.
 */
public final class CmAgent implements DeviceAgent {
    /** IB_CM_REJ_* reasons the CM itself sends. */
    public static final int REJ_TIMEOUT = 4, REJ_INVALID_SERVICE_ID = 8, REJ_STALE_CONN = 10, REJ_CONSUMER_DEFINED = 28;
    /** SIDR_REP's status (ib_cm.h's ib_cm_sidr_status): answered, no listener, refused. */
    public static final int SIDR_SUCCESS = SidrStatus.SUCCESS.value, SIDR_UNSUPPORTED = SidrStatus.UNSUPPORTED.value,
            SIDR_REJECT = SidrStatus.REJECT.value;
    /** The high half of our TIDs: a freshly loaded 6.1 kernel's count of MAD agents on a RoCE port (opaque to a peer). */
    private static final long HI_TID = 2;

    final Nic nic;
    private final MadPort port;
    private final long guid;
    private final int randomOperand;
    private int nextIndex;
    /** cm.c's cm_*_handler functions: what each received message does. */
    private final CmHandlers handlers = new CmHandlers(this);
    final Map<Integer, IbCmId> byLocalId = new HashMap<>();
    final Map<RemoteKey, IbCmId> byRemote = new HashMap<>();
    final Map<Long, IbCmId> listeners = new HashMap<>();
    /** SIDR requests being answered, by the peer's Request ID and address (cm.c's remote_sidr_table). */
    final Map<SidrKey, IbCmId> sidrOpen = new HashMap<>();

    record RemoteKey(int commId, long guid) {}

    /**
     * cm.c keys on the Request ID and the source LID, which RoCE leaves 0: the source GID stands in for it, so two
     * hosts that pick the same Request ID are told apart.
     */
    record SidrKey(int requestId, org.softrnic.verbs.Gid source) {}

    /**
     * Makes the device's QP1 and attaches the CM to the device. {@code guid} is the node GUID the messages
     * carry; {@code seed} picks the communication IDs (cm.c XORs a random operand into a cyclic index).
     */
    public CmAgent(Nic nic, long guid, long seed) {
        this.nic = nic;
        this.guid = guid;
        this.randomOperand = new Random(seed).nextInt();
        this.port = nic.kernel(() -> new MadPort(nic));
        nic.attach(this);
    }

    public long guid() {
        return guid;
    }

    /** Ids the CM still holds (listeners, connections, timewait): for tests that look for leaks. */
    int liveIds() {
        return byLocalId.size();
    }

    /** SIDR requests being answered. */
    int openSidrRequests() {
        return sidrOpen.size();
    }

    // ---- the consumer's verbs (ib_cm's)

    public IbCmId createId(IbCmHandler handler) {
        int id;
        do id = nextIndex++ ^ randomOperand; while (byLocalId.containsKey(id));
        IbCmId c = new IbCmId(id, handler);
        byLocalId.put(id, c);
        return c;
    }

    /** ib_cm_listen: REQs for {@code serviceId} make new ids that report to this one's handler. */
    public void listen(IbCmId id, long serviceId) {
        if (listeners.containsKey(serviceId)) {
            throw new VerbsException("ib_cm_listen", Errno.EBUSY, String.format("service ID 0x%016x has a listener", serviceId));
        }
        check(id, CmInput.START_LISTEN, "ib_cm_listen");
        step(id, CmInput.START_LISTEN, "ib_cm_listen");
        id.serviceId = serviceId;
        listeners.put(serviceId, id);
    }

    public void sendReq(IbCmId id, CmReq r) {
        check(id, CmInput.SEND_REQ, "ib_send_cm_req");
        id.serviceId = r.serviceId();
        id.localQpn = r.localQpn();
        int sgid = nic.gids().indexOf(r.localGid());
        if (sgid < 0) throw new VerbsException("ib_send_cm_req", Errno.EINVAL, r.localGid() + " is not one of the device's GIDs");
        id.av = new AddressVector(r.remoteGid(), sgid, r.flowLabel(), r.hopLimit(), r.trafficClass());
        id.packetLifeTime = r.packetLifeTime();
        id.avTimeout = r.packetLifeTime() + 1; // cm_init_av_by_path
        id.tid = tid(id);
        byte[] mad = CmFormat.req(id, r, guid);
        step(id, CmInput.SEND_REQ, "ib_send_cm_req");
        id.timeoutNanos = CmTimeouts.reqTimeoutNanos(r.packetLifeTime(), r.remoteCmResponseTimeout());
        id.maxRetries = r.maxCmRetries();
        arm(id, mad);
    }

    /**
     * ib_send_cm_sidr_req: asks the peer at {@code av} for the QPN and Q_Key of the UD service {@code serviceId};
     * sent again every {@code timeoutNanos}, {@code maxRetries} times, then SIDR_REQ_ERROR.
     */
    public void sendSidrReq(IbCmId id, long serviceId, AddressVector av, long timeoutNanos, int maxRetries, byte[] privateData) {
        check(id, CmInput.SEND_SIDR_REQ, "ib_send_cm_sidr_req");
        id.serviceId = serviceId;
        id.av = av;
        id.tid = tid(id);
        byte[] mad = CmFormat.sidrReq(id, privateData);
        step(id, CmInput.SEND_SIDR_REQ, "ib_send_cm_sidr_req");
        id.timeoutNanos = timeoutNanos;
        id.maxRetries = maxRetries;
        arm(id, mad);
    }

    /**
     * ib_send_cm_sidr_rep: the answer to the request {@code id} was made for, with {@code status} (and, for
     * {@link #SIDR_SUCCESS}, the QPN and Q_Key); the id is done, and a later copy of the request is a new one.
     */
    public void sendSidrRep(IbCmId id, int status, int qpn, int qkey, byte[] privateData) {
        check(id, CmInput.SEND_SIDR_REP, "ib_send_cm_sidr_rep");
        boolean ok = status == SIDR_SUCCESS;
        byte[] mad = CmFormat.sidrRep(id, status, ok ? qpn : 0, ok ? qkey : 0, privateData);
        step(id, CmInput.SEND_SIDR_REP, "ib_send_cm_sidr_rep");
        sidrOpen.remove(id.sidrKey, id);
        id.sidrKey = null; // answered: a later copy of the request is a new one, whoever holds this id
        transmit(id.av, mad);
    }

    public void sendRep(IbCmId id, CmRep r) {
        check(id, CmInput.SEND_REP, "ib_send_cm_rep");
        id.localQpn = r.localQpn();
        byte[] mad = CmFormat.rep(id, r, guid);
        step(id, CmInput.SEND_REP, "ib_send_cm_rep");
        arm(id, mad);
    }

    /** ib_send_cm_mra with rdma_cm's DELAY flag: nothing goes out; a duplicate REQ or REP now draws an MRA. */
    public void sendMra(IbCmId id) {
        check(id, CmInput.SEND_MRA, "ib_send_cm_mra");
        step(id, CmInput.SEND_MRA, "ib_send_cm_mra");
    }

    public void sendRtu(IbCmId id, byte[] privateData) {
        check(id, CmInput.SEND_RTU, "ib_send_cm_rtu");
        byte[] mad = CmFormat.rtu(id, privateData);
        step(id, CmInput.SEND_RTU, "ib_send_cm_rtu");
        id.answer = mad; // again for a duplicate REP
        transmit(id.av, mad);
    }

    /** ib_send_cm_rej: {@code reason} with {@code ari} (additional rejection information) and private data. */
    public void sendRej(IbCmId id, int reason, byte[] ari, byte[] privateData) {
        check(id, CmInput.SEND_REJ, "ib_send_cm_rej");
        byte[] mad = rej(id, reason, ari, privateData);
        CmTransition t = step(id, CmInput.SEND_REJ, "ib_send_cm_rej");
        transmit(id.av, mad);
        settle(id, t.to());
    }

    public void sendDreq(IbCmId id, byte[] privateData) {
        check(id, CmInput.SEND_DREQ, "ib_send_cm_dreq");
        id.tid = tid(id);
        byte[] mad = CmFormat.dreq(id, privateData);
        step(id, CmInput.SEND_DREQ, "ib_send_cm_dreq");
        arm(id, mad);
    }

    public void sendDrep(IbCmId id, byte[] privateData) {
        check(id, CmInput.SEND_DREP, "ib_send_cm_drep");
        byte[] mad = CmFormat.drep(id.tid, id.localId, id.remoteId, privateData);
        step(id, CmInput.SEND_DREP, "ib_send_cm_drep");
        transmit(id.av, mad);
        enterTimewait(id);
    }

    /**
     * ib_destroy_cm_id: what the id's state calls for goes out (REJ 4 or 28 before the connection is up, a
     * DREQ once when it is, the DREP it owes), and it tells nothing more; it lives on through timewait.
     */
    public void destroy(IbCmId id) {
        if (id.destroyed) return;
        check(id, CmInput.DESTROY, "ib_destroy_cm_id");
        boolean active = id.state == CmState.REQ_SENT || id.state == CmState.MRA_REQ_RCVD;
        // the REJ names the message it rejects from the state before the destroy (cm_format_rej)
        byte[] rej = rej(id, active ? REJ_TIMEOUT : REJ_CONSUMER_DEFINED, active ? guidBytes() : new byte[0], new byte[0]);
        CmTransition t = step(id, CmInput.DESTROY, "ib_destroy_cm_id");
        if ("REJ".equals(t.wire())) {
            transmit(id.av, rej);
        } else if ("DREQ".equals(t.wire())) {
            id.tid = tid(id);
            transmit(id.av, CmFormat.dreq(id, new byte[0])); // once: nobody waits for its DREP
        } else if ("DREP".equals(t.wire())) {
            transmit(id.av, CmFormat.drep(id.tid, id.localId, id.remoteId, new byte[0]));
        } else if ("SIDR_REP".equals(t.wire())) {
            transmit(id.av, CmFormat.sidrRep(id, SIDR_REJECT, 0, 0, new byte[0])); // cm_reject_sidr_req
        }
        if (id.sidrKey != null) sidrOpen.remove(id.sidrKey, id);
        id.destroyed = true;
        id.handler = null;
        if (t.from() == CmState.LISTEN) listeners.remove(id.serviceId);
        if (t.to() == CmState.TIMEWAIT) {
            if (!id.timewait) enterTimewait(id);
        } else {
            forget(id);
        }
    }

    // ---- the wire

    @Override
    public boolean poll() {
        return port.poll(handlers::receive);
    }

    /** Asked on every turn of a device loop: a cached value, rescanned only after a deadline moved later. */
    @Override
    public long nextDeadline() {
        if (rescan) {
            earliest = IbCmId.NEVER;
            for (IbCmId id : byLocalId.values()) earliest = Math.min(earliest, id.deadline);
            rescan = false;
        }
        return earliest;
    }

    private long earliest = IbCmId.NEVER;
    private boolean rescan;

    void deadline(IbCmId id, long at) {
        if (id.deadline == earliest && at > earliest) rescan = true;
        id.deadline = at;
        if (at < earliest) earliest = at;
    }

    @Override
    public void runTimers(long now) {
        if (now < nextDeadline()) return;
        List<IbCmId> due = new ArrayList<>();
        for (IbCmId id : byLocalId.values()) if (id.deadline <= now) due.add(id);
        for (IbCmId id : due) expire(id, now);
    }

    private void expire(IbCmId id, long now) {
        if (id.timewait) {
            CmTransition t = step(id, CmInput.TIMEWAIT_DONE, "cm_timewait_handler");
            id.timewait = false;
            deadline(id, IbCmId.NEVER);
            byRemote.remove(new RemoteKey(id.remoteId, id.remoteGuid));
            if (id.destroyed) byLocalId.remove(id.localId);
            else tell(id, null, IbCmEvent.TIMEWAIT_EXIT, null);
            assert t.to() == CmState.IDLE;
            return;
        }
        if (id.retriesLeft > 0) {
            id.retriesLeft--;
            deadline(id, now + id.pendingTimeoutNanos);
            nic.counters().inc(Counter.CM_TX_RETRIES);
            transmit(id.av, id.pending);
            return;
        }
        CmState from = id.state;
        CmTransition t = step(id, CmInput.RETRIES_EXHAUSTED, "cm_process_send_error");
        id.pending = null;
        deadline(id, IbCmId.NEVER);
        IbCmEvent e = switch (from) {
            case REQ_SENT, MRA_REQ_RCVD -> IbCmEvent.REQ_ERROR;
            case REP_SENT, MRA_REP_RCVD -> IbCmEvent.REP_ERROR;
            case SIDR_REQ_SENT -> IbCmEvent.SIDR_REQ_ERROR;
            default -> IbCmEvent.DREQ_ERROR;
        };
        settle(id, t.to());
        tell(id, null, e, null);
    }

    // ---- helpers

    /** An rdma_cm service ID as its port space and port (cma's 0x0000000001PSPORT), else the number alone. */
    static String describeService(long serviceId) {
        long ps = serviceId >>> 16;
        int port = (int) (serviceId & 0xffff);
        if (ps == CmaHeader.PS_TCP) return "rdma_cm port " + port;
        if (ps == CmaHeader.PS_UDP) return "rdma_cm UDP port " + port;
        return "not an rdma_cm service";
    }

    private byte[] rej(IbCmId id, int reason, byte[] ari, byte[] privateData) {
        boolean ofReq = id.state == CmState.REQ_RCVD || id.state == CmState.MRA_REQ_SENT;
        int rejected = ofReq ? CmFormat.REJECTED_REQ
                : id.state == CmState.REP_RCVD || id.state == CmState.MRA_REP_SENT ? CmFormat.REJECTED_REP : CmFormat.REJECTED_OTHER;
        // cm_format_rej: Local Comm ID 0 only from REQ_RCVD; from MRA_REQ_SENT (rdma_cm's silent MRA too) the id's own
        return CmFormat.rej(id.tid, id.state == CmState.REQ_RCVD ? 0 : id.localId, id.remoteId, rejected, reason, ari, privateData);
    }

    private byte[] guidBytes() {
        return java.nio.ByteBuffer.allocate(8).putLong(guid).array();
    }

    /** cm_form_tid: the agent's high half, and the comm ID as x86 reads its big-endian bytes. */
    static long tid(IbCmId id) {
        return HI_TID << 32 | (Integer.reverseBytes(id.localId) & 0xffffffffL);
    }

    static int u32(MemorySegment mad, int offset) {
        return mad.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), offset);
    }

    static long get(CmMessage msg, String field, MemorySegment mad) {
        return msg.field(field).get(mad);
    }

    /** EINVAL, as ib_send_cm_* return it, when the id's state has no row for {@code input}. */
    private static void check(IbCmId id, CmInput input, String verb) {
        if (id.destroyed) throw new VerbsException(verb, Errno.EINVAL, id + " is destroyed");
        if (CmTable.next(id.state, input) == null) {
            throw new VerbsException(verb, Errno.EINVAL, "not allowed in " + id.state + " (" + id + ")");
        }
    }

    /**
     * Moves {@code id} by the table. The consumer's verbs {@link #check} first (a destroyed id takes none); the
     * wire and the timers move a destroyed id too, as one waiting out timewait.
     */
    static CmTransition step(IbCmId id, CmInput input, String verb) {
        CmTransition t = CmTable.next(id.state, input);
        if (t == null) throw new VerbsException(verb, Errno.EINVAL, "not allowed in " + id.state + " (" + id + ")");
        id.state = t.to();
        return t;
    }

    private void arm(IbCmId id, byte[] mad) {
        id.pending = mad;
        id.retriesLeft = id.maxRetries;
        id.pendingTimeoutNanos = id.timeoutNanos;
        id.timewait = false;
        deadline(id, nic.clock().nanoTime() + id.timeoutNanos);
        transmit(id.av, mad);
    }

    void stopTimer(IbCmId id) {
        if (id.timewait) return;
        id.pending = null;
        deadline(id, IbCmId.NEVER);
    }

    /** After a step that may end the connection: timewait starts, or an id back in IDLE leaves the remote table. */
    void settle(IbCmId id, CmState to) {
        if (to == CmState.TIMEWAIT) enterTimewait(id);
        else if (to == CmState.IDLE) byRemote.remove(new RemoteKey(id.remoteId, id.remoteGuid));
    }

    /** cm_enter_timewait: 2^(av.timeout-8) ms before the connection's IDs may be used again. */
    private void enterTimewait(IbCmId id) {
        id.pending = null;
        id.timewait = true;
        deadline(id, nic.clock().nanoTime() + CmTimeouts.toNanos(id.avTimeout));
    }

    void forget(IbCmId id) {
        deadline(id, IbCmId.NEVER);
        byRemote.remove(new RemoteKey(id.remoteId, id.remoteGuid));
        byLocalId.remove(id.localId);
    }

    void tell(IbCmId id, IbCmId listener, IbCmEvent event, MemorySegment mad) {
        if (id.handler != null) id.handler.event(id, listener, event, mad);
    }

    void transmit(AddressVector av, byte[] mad) {
        if (av == null) return; // an id that never had a peer (destroyed in IDLE)
        if (port.send(av, mad)) {
            nic.counters().inc(Counter.CM_TX_MSGS);
            return;
        }
        // as a MAD lost on the wire: the sender's timer, or the peer's retransmission, brings it again
        nic.diagnostics().refuse(nic.clock().nanoTime(), Nic.GSI_QPN, Diagnostics.NO_PSN,
                "a " + Mad.cmMessage(java.lang.foreign.MemorySegment.ofArray(mad)) + " to " + av.dgid() + " was not sent: all of QP1's"
                        + " send buffers are in flight; a retransmission (this id's timer, or the peer's) brings it again");
    }
}
