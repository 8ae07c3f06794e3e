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

    private final Nic nic;
    private final MadPort port;
    private final long guid;
    private final int randomOperand;
    private int nextIndex;
    private final Map<Integer, IbCmId> byLocalId = new HashMap<>();
    private final Map<RemoteKey, IbCmId> byRemote = new HashMap<>();
    private final Map<Long, IbCmId> listeners = new HashMap<>();
    /** SIDR requests being answered, by the peer's Request ID and address (cm.c's remote_sidr_table). */
    private final Map<SidrKey, IbCmId> sidrOpen = new HashMap<>();

    private record RemoteKey(int commId, long guid) {}

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
        return port.poll(this::receive);
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

    private void deadline(IbCmId id, long at) {
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

    private void receive(MadPort.From from, MemorySegment mad) {
        CmMessage msg = Mad.cmMessage(mad);
        if (msg == null || Mad.METHOD.get(mad) != Mad.METHOD_SEND) {
            nic.counters().inc(Counter.CM_RX_DROPPED); // mad.c finds no agent, and a Send gets no answer
            return;
        }
        nic.counters().inc(Counter.CM_RX_MSGS);
        switch (msg) {
            case REQ -> req(from, mad);
            case REP -> rep(mad);
            case RTU -> byRemoteCommId(mad, CmInput.RECV_RTU, IbCmEvent.RTU_RECEIVED);
            case REJ -> rej(mad);
            case MRA -> mra(mad);
            case DREQ -> dreq(from, mad);
            case DREP -> byRemoteCommId(mad, CmInput.RECV_DREP, IbCmEvent.DREP_RECEIVED);
            case SIDR_REQ -> sidrReq(from, mad);
            case SIDR_REP -> sidrRep(mad);
        }
    }

    /**
     * cm_sidr_req_handler: a copy of a request still being answered is dropped; a new one goes to its listener as
     * SIDR_REQ_RECEIVED, or is answered SIDR_REP status 1 (unsupported) when no one listens.
     */
    private void sidrReq(MadPort.From from, MemorySegment mad) {
        SidrKey key = new SidrKey((int) get(CmMessage.SIDR_REQ, "request_id", mad), from.source());
        if (sidrOpen.containsKey(key)) {
            nic.counters().inc(Counter.CM_RX_DUPLICATES);
            return;
        }
        IbCmId id = createId(null);
        step(id, CmInput.RECV_SIDR_REQ, "cm_sidr_req_handler");
        id.remoteId = key.requestId();
        id.tid = Mad.TID.get(mad);
        id.serviceId = get(CmMessage.SIDR_REQ, "service_id", mad);
        id.av = new AddressVector(from.source(), from.sgidIndex(), 0, 64, 0); // cm_init_av_for_response
        id.sidrKey = key;
        sidrOpen.put(key, id);
        IbCmId listener = listeners.get(id.serviceId);
        if (listener == null) {
            sendSidrRep(id, SIDR_UNSUPPORTED, 0, 0, new byte[0]);
            forget(id);
            return;
        }
        id.handler = listener.handler;
        tell(id, listener, IbCmEvent.SIDR_REQ_RECEIVED, mad);
    }

    /** cm_sidr_rep_handler: for an id still waiting on its request, else dropped. */
    private void sidrRep(MemorySegment mad) {
        IbCmId id = byLocalId.get((int) get(CmMessage.SIDR_REP, "request_id", mad));
        if (id == null || id.destroyed || id.state != CmState.SIDR_REQ_SENT) {
            nic.counters().inc(id == null ? Counter.CM_RX_DROPPED : Counter.CM_RX_DUPLICATES);
            return;
        }
        step(id, CmInput.RECV_SIDR_REP, "cm_sidr_rep_handler");
        stopTimer(id);
        tell(id, null, IbCmEvent.SIDR_REP_RECEIVED, mad);
    }

    /** cm_req_handler: a duplicate goes to its id; a new REQ to its listener, or REJ 8 when there is none. */
    private void req(MadPort.From from, MemorySegment mad) {
        int remoteId = (int) get(CmMessage.REQ, "local_comm_id", mad);
        long remoteGuid = get(CmMessage.REQ, "local_ca_guid", mad);
        IbCmId dup = byRemote.get(new RemoteKey(remoteId, remoteGuid));
        if (dup != null) {
            duplicate(dup, CmInput.RECV_REQ, mad);
            return;
        }
        long serviceId = get(CmMessage.REQ, "service_id", mad);
        IbCmId listener = listeners.get(serviceId);
        AddressVector back = new AddressVector(org.softrnic.verbs.Gid.of(CmMessage.REQ.field("primary_local_gid").read(mad)),
                from.sgidIndex(), (int) get(CmMessage.REQ, "primary_flow_label", mad), 64,
                (int) get(CmMessage.REQ, "primary_traffic_class", mad));
        if (listener == null) {
            nic.diagnostics().refuse(nic.clock().nanoTime(), Nic.GSI_QPN, Diagnostics.NO_PSN,
                    String.format("a connection request (REQ) from %s for service ID 0x%x (%s) is rejected with REJ reason 8,"
                            + " invalid service ID: nothing listens for it on this device (not yet, or no longer)",
                            back.dgid(), serviceId, describeService(serviceId)));
            // cm_issue_rej: comm IDs from the REQ's own words, its TID, to where it came from
            transmit(back, CmFormat.rej(Mad.TID.get(mad), u32(mad, 28), remoteId,
                    CmFormat.REJECTED_REQ, REJ_INVALID_SERVICE_ID, new byte[0], new byte[0]));
            return;
        }
        IbCmId id = createId(listener.handler);
        step(id, CmInput.RECV_REQ, "cm_req_handler");
        id.remoteId = remoteId;
        id.remoteGuid = remoteGuid;
        id.tid = Mad.TID.get(mad);
        id.serviceId = serviceId;
        id.remoteQpn = (int) get(CmMessage.REQ, "local_qpn", mad);
        id.av = back;
        int ackTimeout = (int) get(CmMessage.REQ, "primary_local_ack_timeout", mad);
        id.packetLifeTime = Math.max(0, ackTimeout - 1);
        id.avTimeout = id.packetLifeTime + 1; // cm_format_paths_from_req, then cm_init_av_by_path
        id.timeoutNanos = CmTimeouts.toNanos((int) get(CmMessage.REQ, "local_cm_response_timeout", mad));
        id.maxRetries = (int) get(CmMessage.REQ, "max_cm_retries", mad);
        byRemote.put(new RemoteKey(remoteId, remoteGuid), id);
        tell(id, listener, IbCmEvent.REQ_RECEIVED, mad);
    }

    /** cm_rep_handler, or cm_dup_rep_handler for an id past REP_RCVD. */
    private void rep(MemorySegment mad) {
        IbCmId id = byLocalId.get((int) get(CmMessage.REP, "remote_comm_id", mad));
        if (id == null || id.destroyed) {
            nic.counters().inc(Counter.CM_RX_DROPPED);
            return;
        }
        if (id.state != CmState.REQ_SENT && id.state != CmState.MRA_REQ_RCVD) {
            duplicate(id, CmInput.RECV_REP, mad);
            return;
        }
        step(id, CmInput.RECV_REP, "cm_rep_handler");
        stopTimer(id);
        id.remoteId = (int) get(CmMessage.REP, "local_comm_id", mad);
        id.remoteGuid = get(CmMessage.REP, "local_ca_guid", mad);
        id.remoteQpn = (int) get(CmMessage.REP, "local_qpn", mad);
        id.avTimeout = CmTimeouts.ackTimeout((int) get(CmMessage.REP, "target_ack_delay", mad), id.packetLifeTime);
        byRemote.put(new RemoteKey(id.remoteId, id.remoteGuid), id);
        tell(id, null, IbCmEvent.REP_RECEIVED, mad);
    }

    private void rej(MemorySegment mad) {
        int reason = (int) get(CmMessage.REJ, "reason", mad);
        IbCmId id = byLocalId.get((int) get(CmMessage.REJ, "remote_comm_id", mad));
        if (id == null && reason == REJ_TIMEOUT) {
            // the active side gave up before it knew our ID: found by its ID and the GUID in the ARI
            byte[] ari = CmMessage.REJ.field("additional_rejection_info").read(mad);
            long g = java.nio.ByteBuffer.wrap(ari, 0, 8).getLong();
            id = byRemote.get(new RemoteKey((int) get(CmMessage.REJ, "local_comm_id", mad), g));
        }
        CmInput input = reason == REJ_STALE_CONN ? CmInput.RECV_REJ_STALE : CmInput.RECV_REJ;
        if (id == null || id.destroyed || CmTable.next(id.state, input) == null) {
            nic.counters().inc(Counter.CM_RX_DROPPED);
            return;
        }
        CmTransition t = step(id, input, "cm_rej_handler");
        stopTimer(id);
        settle(id, t.to());
        tell(id, null, IbCmEvent.REJ_RECEIVED, mad);
    }

    /** cm_mra_handler: the peer needs longer; the timer waits the service timeout it names. */
    private void mra(MemorySegment mad) {
        IbCmId id = byLocalId.get((int) get(CmMessage.MRA, "remote_comm_id", mad));
        int mraed = (int) get(CmMessage.MRA, "message_mraed", mad);
        CmInput input = mraed == CmFormat.MRAED_REQ ? CmInput.RECV_MRA_REQ : CmInput.RECV_MRA_REP;
        if (id == null || id.destroyed || mraed > CmFormat.MRAED_REP || CmTable.next(id.state, input) == null) {
            nic.counters().inc(id == null ? Counter.CM_RX_DROPPED : Counter.CM_RX_DUPLICATES);
            return;
        }
        step(id, input, "cm_mra_handler");
        int serviceTimeout = (int) get(CmMessage.MRA, "service_timeout", mad);
        // ib_modify_mad: the pending MAD's timeout becomes the MRA's, for its later retries too; the id's own
        // timeout, which a later DREQ uses (cm_send_dreq_locked), stays
        id.pendingTimeoutNanos = CmTimeouts.mraTimeoutNanos(serviceTimeout, id.avTimeout);
        deadline(id, nic.clock().nanoTime() + id.pendingTimeoutNanos);
        tell(id, null, IbCmEvent.MRA_RECEIVED, mad);
    }

    /** cm_dreq_handler: for this id's QPN only; a DREQ for no id gets a DREP all the same (cm_issue_drep). */
    private void dreq(MadPort.From from, MemorySegment mad) {
        int localId = (int) get(CmMessage.DREQ, "remote_comm_id", mad);
        IbCmId id = byLocalId.get(localId);
        if (id == null) {
            nic.counters().inc(Counter.CM_RX_DROPPED);
            transmit(new AddressVector(from.source(), from.sgidIndex(), 0, 64, 0),
                    CmFormat.drep(Mad.TID.get(mad), localId, (int) get(CmMessage.DREQ, "local_comm_id", mad), new byte[0]));
            return;
        }
        if ((int) get(CmMessage.DREQ, "remote_qpn", mad) != id.localQpn) {
            nic.counters().inc(Counter.CM_RX_DROPPED);
            return;
        }
        if (id.state == CmState.TIMEWAIT || id.state == CmState.DREQ_RCVD) {
            duplicate(id, CmInput.RECV_DREQ, mad);
            return;
        }
        if (id.destroyed || CmTable.next(id.state, CmInput.RECV_DREQ) == null) {
            nic.counters().inc(Counter.CM_RX_DROPPED);
            return;
        }
        step(id, CmInput.RECV_DREQ, "cm_dreq_handler");
        stopTimer(id); // crossed DREQs: our own stops
        id.tid = Mad.TID.get(mad);
        tell(id, null, IbCmEvent.DREQ_RECEIVED, mad);
    }

    /** RTU and DREP: the id the message's Remote Comm ID names, moved by the table, its timer stopped. */
    private void byRemoteCommId(MemorySegment mad, CmInput input, IbCmEvent event) {
        IbCmId id = byLocalId.get(u32(mad, 28)); // RTU's and DREP's Remote Comm ID
        if (id == null || id.destroyed) {
            nic.counters().inc(Counter.CM_RX_DROPPED);
            return;
        }
        if (CmTable.next(id.state, input) == null) {
            nic.counters().inc(Counter.CM_RX_DUPLICATES);
            return;
        }
        CmTransition t = step(id, input, input == CmInput.RECV_RTU ? "cm_rtu_handler" : "cm_drep_handler");
        stopTimer(id);
        settle(id, t.to());
        tell(id, null, event, mad);
    }

    /** A message the id has seen already: the table's duplicate row says what, if anything, answers it. */
    private void duplicate(IbCmId id, CmInput input, MemorySegment mad) {
        nic.counters().inc(Counter.CM_RX_DUPLICATES);
        CmTransition t = CmTable.next(id.state, input);
        if (t == null || t.wire() == null) return;
        switch (t.wire()) {
            case "MRA" -> transmit(id.av, CmFormat.mra(id, id.state == CmState.MRA_REQ_SENT ? CmFormat.MRAED_REQ
                    : CmFormat.MRAED_REP, CmTimeouts.CMA_CM_MRA_SERVICE_TIMEOUT));
            case "RTU" -> transmit(id.av, id.answer != null ? id.answer : CmFormat.rtu(id, new byte[0]));
            case "DREP" -> transmit(id.av, CmFormat.drep(Mad.TID.get(mad), id.localId, id.remoteId, new byte[0]));
            case "REJ" -> transmit(id.av, CmFormat.rej(id.tid, id.localId, id.remoteId, CmFormat.REJECTED_OTHER,
                    REJ_STALE_CONN, new byte[0], new byte[0]));
            default -> throw new IllegalStateException("no duplicate answer " + t.wire());
        }
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

    private static int u32(MemorySegment mad, int offset) {
        return mad.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), offset);
    }

    private static long get(CmMessage msg, String field, MemorySegment mad) {
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
    private static CmTransition step(IbCmId id, CmInput input, String verb) {
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

    private void stopTimer(IbCmId id) {
        if (id.timewait) return;
        id.pending = null;
        deadline(id, IbCmId.NEVER);
    }

    /** After a step that may end the connection: timewait starts, or an id back in IDLE leaves the remote table. */
    private void settle(IbCmId id, CmState to) {
        if (to == CmState.TIMEWAIT) enterTimewait(id);
        else if (to == CmState.IDLE) byRemote.remove(new RemoteKey(id.remoteId, id.remoteGuid));
    }

    /** cm_enter_timewait: 2^(av.timeout-8) ms before the connection's IDs may be used again. */
    private void enterTimewait(IbCmId id) {
        id.pending = null;
        id.timewait = true;
        deadline(id, nic.clock().nanoTime() + CmTimeouts.toNanos(id.avTimeout));
    }

    private void forget(IbCmId id) {
        deadline(id, IbCmId.NEVER);
        byRemote.remove(new RemoteKey(id.remoteId, id.remoteGuid));
        byLocalId.remove(id.localId);
    }

    private void tell(IbCmId id, IbCmId listener, IbCmEvent event, MemorySegment mad) {
        if (id.handler != null) id.handler.event(id, listener, event, mad);
    }

    private void transmit(AddressVector av, byte[] mad) {
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
