package org.softrnic.nic.cm;

import java.lang.foreign.MemorySegment;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.Mad;

/**
 * The CM's messages as cm.c's cm_format_* fill them for RoCE: each a fresh 256-byte MAD, fields by name
 * from {@link CmMessage}'s table, private data at the message's offset and zeros elsewhere.
 */
final class CmFormat {
    /** REJ's Message Rejected: CM_MSG_RESPONSE_REQ, _REP, _OTHER. */
    static final int REJECTED_REQ = 0, REJECTED_REP = 1, REJECTED_OTHER = 2;
    /** MRA's Message MRAed. */
    static final int MRAED_REQ = 0, MRAED_REP = 1;

    private CmFormat() {
    }

    /** A MAD whose header names {@code msg} and {@code tid}, its fields still zero. */
    static Built start(CmMessage msg, long tid) {
        byte[] bytes = new byte[Mad.SIZE];
        MemorySegment s = MemorySegment.ofArray(bytes);
        Mad.cmHeader(s, msg, tid);
        return new Built(msg, bytes, s);
    }

    /** A message being filled: {@link #set} by field name, then {@link #privateData}. */
    record Built(CmMessage msg, byte[] bytes, MemorySegment segment) {
        Built set(String field, long value) {
            msg.field(field).set(segment, value);
            return this;
        }

        Built bytes(String field, byte[] value) {
            msg.field(field).write(segment, value);
            return this;
        }

        byte[] privateData(byte[] data) {
            if (data.length > msg.privateDataSize()) {
                throw new IllegalArgumentException(msg + " carries " + msg.privateDataSize() + " bytes of private data, not " + data.length);
            }
            MemorySegment.copy(data, 0, segment, java.lang.foreign.ValueLayout.JAVA_BYTE, msg.privateDataOffset, data.length);
            return bytes;
        }
    }

    static byte[] req(IbCmId id, CmReq r, long guid) {
        int lids = r.hopLimit() > 1 ? 0xffff : 0; // IB_LID_PERMISSIVE off the local subnet
        return start(CmMessage.REQ, id.tid)
                .set("local_comm_id", id.localId).set("service_id", r.serviceId()).set("local_ca_guid", guid)
                .set("local_qpn", r.localQpn()).set("responder_resources", r.responderResources())
                .set("initiator_depth", r.initiatorDepth()).set("remote_cm_response_timeout", r.remoteCmResponseTimeout())
                .set("transport_service_type", r.transport()).set("starting_psn", r.startingPsn())
                .set("local_cm_response_timeout", r.localCmResponseTimeout()).set("retry_count", r.retryCount())
                .set("partition_key", 0xffff).set("path_mtu", r.pathMtu().value)
                .set("rnr_retry_count", r.rnrRetryCount()).set("max_cm_retries", r.maxCmRetries())
                .set("srq", r.srq() ? 1 : 0).set("primary_local_lid", lids).set("primary_remote_lid", lids)
                .bytes("primary_local_gid", r.localGid().raw()).bytes("primary_remote_gid", r.remoteGid().raw())
                .set("primary_flow_label", r.flowLabel()).set("primary_traffic_class", r.trafficClass())
                .set("primary_hop_limit", r.hopLimit()).set("primary_subnet_local", r.hopLimit() <= 1 ? 1 : 0)
                .set("primary_local_ack_timeout", CmTimeouts.ackTimeout(CmTimeouts.LOCAL_CA_ACK_DELAY, r.packetLifeTime()))
                .privateData(r.privateData());
    }

    static byte[] rep(IbCmId id, CmRep r, long guid) {
        return start(CmMessage.REP, id.tid)
                .set("local_comm_id", id.localId).set("remote_comm_id", id.remoteId).set("local_qpn", r.localQpn())
                .set("starting_psn", r.startingPsn()).set("responder_resources", r.responderResources())
                .set("initiator_depth", r.initiatorDepth()).set("target_ack_delay", r.targetAckDelay())
                .set("rnr_retry_count", r.rnrRetryCount()).set("srq", r.srq() ? 1 : 0).set("local_ca_guid", guid)
                .privateData(r.privateData());
    }

    static byte[] rtu(IbCmId id, byte[] privateData) {
        return start(CmMessage.RTU, id.tid).set("local_comm_id", id.localId).set("remote_comm_id", id.remoteId)
                .privateData(privateData);
    }

    static byte[] rej(long tid, int localId, int remoteId, int rejected, int reason, byte[] ari, byte[] privateData) {
        return start(CmMessage.REJ, tid).set("local_comm_id", localId).set("remote_comm_id", remoteId)
                .set("message_rejected", rejected).set("rejected_info_length", ari.length).set("reason", reason)
                .bytes("additional_rejection_info", ari).privateData(privateData);
    }

    static byte[] mra(IbCmId id, int mraed, int serviceTimeout) {
        return start(CmMessage.MRA, id.tid).set("local_comm_id", id.localId).set("remote_comm_id", id.remoteId)
                .set("message_mraed", mraed).set("service_timeout", serviceTimeout).privateData(new byte[0]);
    }

    static byte[] dreq(IbCmId id, byte[] privateData) {
        return start(CmMessage.DREQ, id.tid).set("local_comm_id", id.localId).set("remote_comm_id", id.remoteId)
                .set("remote_qpn", id.remoteQpn).privateData(privateData);
    }

    static byte[] drep(long tid, int localId, int remoteId, byte[] privateData) {
        return start(CmMessage.DREP, tid).set("local_comm_id", localId).set("remote_comm_id", remoteId)
                .privateData(privateData);
    }

    /** cm_format_sidr_req: Request ID is the id's comm ID; the P_Key the path's (0xFFFF on RoCE). */
    static byte[] sidrReq(IbCmId id, byte[] privateData) {
        return start(CmMessage.SIDR_REQ, id.tid).set("request_id", id.localId).set("partition_key", 0xffff)
                .set("service_id", id.serviceId).privateData(privateData);
    }

    /** cm_format_sidr_rep: the request's ID and TID echoed; QPN and Q_Key only with status 0. */
    static byte[] sidrRep(IbCmId id, int status, int qpn, int qkey, byte[] privateData) {
        return start(CmMessage.SIDR_REP, id.tid).set("request_id", id.remoteId).set("status", status)
                .set("local_qpn", qpn).set("service_id", id.serviceId).set("qkey", qkey & 0xffffffffL)
                .privateData(privateData);
    }
}
