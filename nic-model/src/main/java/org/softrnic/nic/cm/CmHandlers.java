package org.softrnic.nic.cm;

import static org.softrnic.nic.cm.CmAgent.REJ_INVALID_SERVICE_ID;
import static org.softrnic.nic.cm.CmAgent.REJ_STALE_CONN;
import static org.softrnic.nic.cm.CmAgent.REJ_TIMEOUT;
import static org.softrnic.nic.cm.CmAgent.SIDR_UNSUPPORTED;
import static org.softrnic.nic.cm.CmAgent.describeService;
import static org.softrnic.nic.cm.CmAgent.get;
import static org.softrnic.nic.cm.CmAgent.step;
import static org.softrnic.nic.cm.CmAgent.u32;

import java.lang.foreign.MemorySegment;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Diagnostics;
import org.softrnic.nic.Nic;
import org.softrnic.verbs.AddressVector;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.Mad;

/**
 * What each CM message that arrives on QP1 does, as cm.c's cm_*_handler functions: a new message moves its id
 * through {@link CmTable} and tells the id's consumer; a duplicate draws the answer the table's duplicate row
 * names; a message for no id is dropped and counted, or answered as cm.c answers it (REJ 8, a DREP).
 */
final class CmHandlers {
    private final CmAgent a;

    CmHandlers(CmAgent agent) {
        this.a = agent;
    }

    void receive(MadPort.From from, MemorySegment mad) {
        CmMessage msg = Mad.cmMessage(mad);
        if (msg == null || Mad.METHOD.get(mad) != Mad.METHOD_SEND) {
            a.nic.counters().inc(Counter.CM_RX_DROPPED); // mad.c finds no agent, and a Send gets no answer
            return;
        }
        a.nic.counters().inc(Counter.CM_RX_MSGS);
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
        CmAgent.SidrKey key = new CmAgent.SidrKey((int) get(CmMessage.SIDR_REQ, "request_id", mad), from.source());
        if (a.sidrOpen.containsKey(key)) {
            a.nic.counters().inc(Counter.CM_RX_DUPLICATES);
            return;
        }
        IbCmId id = a.createId(null);
        step(id, CmInput.RECV_SIDR_REQ, "cm_sidr_req_handler");
        id.remoteId = key.requestId();
        id.tid = Mad.TID.get(mad);
        id.serviceId = get(CmMessage.SIDR_REQ, "service_id", mad);
        id.av = new AddressVector(from.source(), from.sgidIndex(), 0, 64, 0); // cm_init_av_for_response
        id.sidrKey = key;
        a.sidrOpen.put(key, id);
        IbCmId listener = a.listeners.get(id.serviceId);
        if (listener == null) {
            a.sendSidrRep(id, SIDR_UNSUPPORTED, 0, 0, new byte[0]);
            a.forget(id);
            return;
        }
        id.handler = listener.handler;
        a.tell(id, listener, IbCmEvent.SIDR_REQ_RECEIVED, mad);
    }

    /** cm_sidr_rep_handler: for an id still waiting on its request, else dropped. */
    private void sidrRep(MemorySegment mad) {
        IbCmId id = a.byLocalId.get((int) get(CmMessage.SIDR_REP, "request_id", mad));
        if (id == null || id.destroyed || id.state != CmState.SIDR_REQ_SENT) {
            a.nic.counters().inc(id == null ? Counter.CM_RX_DROPPED : Counter.CM_RX_DUPLICATES);
            return;
        }
        step(id, CmInput.RECV_SIDR_REP, "cm_sidr_rep_handler");
        a.stopTimer(id);
        a.tell(id, null, IbCmEvent.SIDR_REP_RECEIVED, mad);
    }

    /** cm_req_handler: a duplicate goes to its id; a new REQ to its listener, or REJ 8 when there is none. */
    private void req(MadPort.From from, MemorySegment mad) {
        int remoteId = (int) get(CmMessage.REQ, "local_comm_id", mad);
        long remoteGuid = get(CmMessage.REQ, "local_ca_guid", mad);
        IbCmId dup = a.byRemote.get(new CmAgent.RemoteKey(remoteId, remoteGuid));
        if (dup != null) {
            duplicate(dup, CmInput.RECV_REQ, mad);
            return;
        }
        long serviceId = get(CmMessage.REQ, "service_id", mad);
        IbCmId listener = a.listeners.get(serviceId);
        AddressVector back = new AddressVector(org.softrnic.verbs.Gid.of(CmMessage.REQ.field("primary_local_gid").read(mad)),
                from.sgidIndex(), (int) get(CmMessage.REQ, "primary_flow_label", mad), 64,
                (int) get(CmMessage.REQ, "primary_traffic_class", mad));
        if (listener == null) {
            a.nic.diagnostics().refuse(a.nic.clock().nanoTime(), Nic.GSI_QPN, Diagnostics.NO_PSN,
                    String.format("a connection request (REQ) from %s for service ID 0x%x (%s) is rejected with REJ reason 8,"
                            + " invalid service ID: nothing listens for it on this device (not yet, or no longer)",
                            back.dgid(), serviceId, describeService(serviceId)));
            // cm_issue_rej: comm IDs from the REQ's own words, its TID, to where it came from
            a.transmit(back, CmFormat.rej(Mad.TID.get(mad), u32(mad, 28), remoteId,
                    CmFormat.REJECTED_REQ, REJ_INVALID_SERVICE_ID, new byte[0], new byte[0]));
            return;
        }
        IbCmId id = a.createId(listener.handler);
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
        a.byRemote.put(new CmAgent.RemoteKey(remoteId, remoteGuid), id);
        a.tell(id, listener, IbCmEvent.REQ_RECEIVED, mad);
    }

    /** cm_rep_handler, or cm_dup_rep_handler for an id past REP_RCVD. */
    private void rep(MemorySegment mad) {
        IbCmId id = a.byLocalId.get((int) get(CmMessage.REP, "remote_comm_id", mad));
        if (id == null || id.destroyed) {
            a.nic.counters().inc(Counter.CM_RX_DROPPED);
            return;
        }
        if (id.state != CmState.REQ_SENT && id.state != CmState.MRA_REQ_RCVD) {
            duplicate(id, CmInput.RECV_REP, mad);
            return;
        }
        step(id, CmInput.RECV_REP, "cm_rep_handler");
        a.stopTimer(id);
        id.remoteId = (int) get(CmMessage.REP, "local_comm_id", mad);
        id.remoteGuid = get(CmMessage.REP, "local_ca_guid", mad);
        id.remoteQpn = (int) get(CmMessage.REP, "local_qpn", mad);
        id.avTimeout = CmTimeouts.ackTimeout((int) get(CmMessage.REP, "target_ack_delay", mad), id.packetLifeTime);
        a.byRemote.put(new CmAgent.RemoteKey(id.remoteId, id.remoteGuid), id);
        a.tell(id, null, IbCmEvent.REP_RECEIVED, mad);
    }

    private void rej(MemorySegment mad) {
        int reason = (int) get(CmMessage.REJ, "reason", mad);
        IbCmId id = a.byLocalId.get((int) get(CmMessage.REJ, "remote_comm_id", mad));
        if (id == null && reason == REJ_TIMEOUT) {
            // the active side gave up before it knew our ID: found by its ID and the GUID in the ARI
            byte[] ari = CmMessage.REJ.field("additional_rejection_info").read(mad);
            long g = java.nio.ByteBuffer.wrap(ari, 0, 8).getLong();
            id = a.byRemote.get(new CmAgent.RemoteKey((int) get(CmMessage.REJ, "local_comm_id", mad), g));
        }
        CmInput input = reason == REJ_STALE_CONN ? CmInput.RECV_REJ_STALE : CmInput.RECV_REJ;
        if (id == null || id.destroyed || CmTable.next(id.state, input) == null) {
            a.nic.counters().inc(Counter.CM_RX_DROPPED);
            return;
        }
        CmTransition t = step(id, input, "cm_rej_handler");
        a.stopTimer(id);
        a.settle(id, t.to());
        a.tell(id, null, IbCmEvent.REJ_RECEIVED, mad);
    }

    /** cm_mra_handler: the peer needs longer; the timer waits the service timeout it names. */
    private void mra(MemorySegment mad) {
        IbCmId id = a.byLocalId.get((int) get(CmMessage.MRA, "remote_comm_id", mad));
        int mraed = (int) get(CmMessage.MRA, "message_mraed", mad);
        CmInput input = mraed == CmFormat.MRAED_REQ ? CmInput.RECV_MRA_REQ : CmInput.RECV_MRA_REP;
        if (id == null || id.destroyed || mraed > CmFormat.MRAED_REP || CmTable.next(id.state, input) == null) {
            a.nic.counters().inc(id == null ? Counter.CM_RX_DROPPED : Counter.CM_RX_DUPLICATES);
            return;
        }
        step(id, input, "cm_mra_handler");
        int serviceTimeout = (int) get(CmMessage.MRA, "service_timeout", mad);
        // ib_modify_mad: the pending MAD's timeout becomes the MRA's, for its later retries too; the id's own
        // timeout, which a later DREQ uses (cm_send_dreq_locked), stays
        id.pendingTimeoutNanos = CmTimeouts.mraTimeoutNanos(serviceTimeout, id.avTimeout);
        a.deadline(id, a.nic.clock().nanoTime() + id.pendingTimeoutNanos);
        a.tell(id, null, IbCmEvent.MRA_RECEIVED, mad);
    }

    /** cm_dreq_handler: for this id's QPN only; a DREQ for no id gets a DREP all the same (cm_issue_drep). */
    private void dreq(MadPort.From from, MemorySegment mad) {
        int localId = (int) get(CmMessage.DREQ, "remote_comm_id", mad);
        IbCmId id = a.byLocalId.get(localId);
        if (id == null) {
            a.nic.counters().inc(Counter.CM_RX_DROPPED);
            a.transmit(new AddressVector(from.source(), from.sgidIndex(), 0, 64, 0),
                    CmFormat.drep(Mad.TID.get(mad), localId, (int) get(CmMessage.DREQ, "local_comm_id", mad), new byte[0]));
            return;
        }
        if ((int) get(CmMessage.DREQ, "remote_qpn", mad) != id.localQpn) {
            a.nic.counters().inc(Counter.CM_RX_DROPPED);
            return;
        }
        if (id.state == CmState.TIMEWAIT || id.state == CmState.DREQ_RCVD) {
            duplicate(id, CmInput.RECV_DREQ, mad);
            return;
        }
        if (id.destroyed || CmTable.next(id.state, CmInput.RECV_DREQ) == null) {
            a.nic.counters().inc(Counter.CM_RX_DROPPED);
            return;
        }
        step(id, CmInput.RECV_DREQ, "cm_dreq_handler");
        a.stopTimer(id); // crossed DREQs: our own stops
        id.tid = Mad.TID.get(mad);
        a.tell(id, null, IbCmEvent.DREQ_RECEIVED, mad);
    }

    /** RTU and DREP: the id the message's Remote Comm ID names, moved by the table, its timer stopped. */
    private void byRemoteCommId(MemorySegment mad, CmInput input, IbCmEvent event) {
        IbCmId id = a.byLocalId.get(u32(mad, 28)); // RTU's and DREP's Remote Comm ID
        if (id == null || id.destroyed) {
            a.nic.counters().inc(Counter.CM_RX_DROPPED);
            return;
        }
        if (CmTable.next(id.state, input) == null) {
            a.nic.counters().inc(Counter.CM_RX_DUPLICATES);
            return;
        }
        CmTransition t = step(id, input, input == CmInput.RECV_RTU ? "cm_rtu_handler" : "cm_drep_handler");
        a.stopTimer(id);
        a.settle(id, t.to());
        a.tell(id, null, event, mad);
    }

    /** A message the id has seen already: the table's duplicate row says what, if anything, answers it. */
    private void duplicate(IbCmId id, CmInput input, MemorySegment mad) {
        a.nic.counters().inc(Counter.CM_RX_DUPLICATES);
        CmTransition t = CmTable.next(id.state, input);
        if (t == null || t.wire() == null) return;
        switch (t.wire()) {
            case "MRA" -> a.transmit(id.av, CmFormat.mra(id, id.state == CmState.MRA_REQ_SENT ? CmFormat.MRAED_REQ
                    : CmFormat.MRAED_REP, CmTimeouts.CMA_CM_MRA_SERVICE_TIMEOUT));
            case "RTU" -> a.transmit(id.av, id.answer != null ? id.answer : CmFormat.rtu(id, new byte[0]));
            case "DREP" -> a.transmit(id.av, CmFormat.drep(Mad.TID.get(mad), id.localId, id.remoteId, new byte[0]));
            case "REJ" -> a.transmit(id.av, CmFormat.rej(id.tid, id.localId, id.remoteId, CmFormat.REJECTED_OTHER,
                    REJ_STALE_CONN, new byte[0], new byte[0]));
            default -> throw new IllegalStateException("no duplicate answer " + t.wire());
        }
    }
}
