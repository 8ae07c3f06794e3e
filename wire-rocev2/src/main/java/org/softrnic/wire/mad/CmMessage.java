package org.softrnic.wire.mad;

import static org.softrnic.wire.mad.MadField.of;

import java.util.List;

/**
 * The CM's messages (IBTA vol. 1 12.6, the kernel's ibta_vol1_c12.h), each with its attribute ID and its
 * fields at their offsets in the 256-byte MAD, in wire order: the one table of CM layouts. Private data runs
 * to the end of the MAD and has no length on the wire.
 */
public enum CmMessage {
    REQ(0x0010, List.of(
            of("local_comm_id", 24, 32), new MadField("vendor_id", 29, 0, 24), of("service_id", 32, 64),
            of("local_ca_guid", 40, 64), of("local_qkey", 52, 32), of("local_qpn", 56, 24),
            of("responder_resources", 59, 8), of("local_eecn", 60, 24), of("initiator_depth", 63, 8),
            of("remote_eecn", 64, 24), new MadField("remote_cm_response_timeout", 67, 0, 5),
            new MadField("transport_service_type", 67, 5, 2), new MadField("end_to_end_flow_control", 67, 7, 1),
            of("starting_psn", 68, 24), new MadField("local_cm_response_timeout", 71, 0, 5),
            new MadField("retry_count", 71, 5, 3), of("partition_key", 72, 16),
            new MadField("path_mtu", 74, 0, 4), new MadField("rdc_exists", 74, 4, 1), new MadField("rnr_retry_count", 74, 5, 3),
            new MadField("max_cm_retries", 75, 0, 4), new MadField("srq", 75, 4, 1), new MadField("extended_transport_type", 75, 5, 3),
            of("primary_local_lid", 76, 16), of("primary_remote_lid", 78, 16), of("primary_local_gid", 80, 128),
            of("primary_remote_gid", 96, 128), new MadField("primary_flow_label", 112, 0, 20),
            new MadField("primary_packet_rate", 115, 2, 6), of("primary_traffic_class", 116, 8), of("primary_hop_limit", 117, 8),
            new MadField("primary_sl", 118, 0, 4), new MadField("primary_subnet_local", 118, 4, 1),
            new MadField("primary_local_ack_timeout", 119, 0, 5), of("alternate_local_lid", 120, 16),
            of("alternate_remote_lid", 122, 16), of("alternate_local_gid", 124, 128), of("alternate_remote_gid", 140, 128),
            new MadField("alternate_flow_label", 156, 0, 20), new MadField("alternate_packet_rate", 159, 2, 6),
            of("alternate_traffic_class", 160, 8), of("alternate_hop_limit", 161, 8), new MadField("alternate_sl", 162, 0, 4),
            new MadField("alternate_subnet_local", 162, 4, 1), new MadField("alternate_local_ack_timeout", 163, 0, 5),
            new MadField("sap_supported", 163, 5, 1)),
            164),
    MRA(0x0011, List.of(of("local_comm_id", 24, 32), of("remote_comm_id", 28, 32), new MadField("message_mraed", 32, 0, 2),
            new MadField("service_timeout", 33, 0, 5)), 34),
    REJ(0x0012, List.of(of("local_comm_id", 24, 32), of("remote_comm_id", 28, 32), new MadField("message_rejected", 32, 0, 2),
            new MadField("rejected_info_length", 33, 0, 7), of("reason", 34, 16), of("additional_rejection_info", 36, 72 * 8)), 108),
    REP(0x0013, List.of(of("local_comm_id", 24, 32), of("remote_comm_id", 28, 32), of("local_qkey", 32, 32),
            of("local_qpn", 36, 24), of("vendor_id_h", 39, 8), of("local_eecn", 40, 24), of("vendor_id_m", 43, 8),
            of("starting_psn", 44, 24), of("vendor_id_l", 47, 8), of("responder_resources", 48, 8), of("initiator_depth", 49, 8),
            new MadField("target_ack_delay", 50, 0, 5), new MadField("failover_accepted", 50, 5, 2),
            new MadField("end_to_end_flow_control", 50, 7, 1), new MadField("rnr_retry_count", 51, 0, 3),
            new MadField("srq", 51, 3, 1), of("local_ca_guid", 52, 64)), 60),
    RTU(0x0014, List.of(of("local_comm_id", 24, 32), of("remote_comm_id", 28, 32)), 32),
    DREQ(0x0015, List.of(of("local_comm_id", 24, 32), of("remote_comm_id", 28, 32), of("remote_qpn", 32, 24)), 36),
    DREP(0x0016, List.of(of("local_comm_id", 24, 32), of("remote_comm_id", 28, 32)), 32),
    SIDR_REQ(0x0017, List.of(of("request_id", 24, 32), of("partition_key", 28, 16), of("service_id", 32, 64)), 40),
    SIDR_REP(0x0018, List.of(of("request_id", 24, 32), of("status", 28, 8), of("additional_info_length", 29, 8),
            of("vendor_id_h", 30, 16), of("local_qpn", 32, 24), of("vendor_id_l", 35, 8), of("service_id", 36, 64),
            of("qkey", 44, 32), of("additional_info", 48, 72 * 8)), 120);

    /** The MAD's attribute ID. */
    public final int attrId;
    /** The fields in wire order, without the private data. */
    public final List<MadField> fields;
    /** Where the private data starts in the MAD; it runs to byte 256. */
    public final int privateDataOffset;

    CmMessage(int attrId, List<MadField> fields, int privateDataOffset) {
        this.attrId = attrId;
        this.fields = fields;
        this.privateDataOffset = privateDataOffset;
    }

    /** The private data's capacity in bytes (ib_cm.h's IB_CM_*_PRIVATE_DATA_SIZE). */
    public int privateDataSize() {
        return Mad.SIZE - privateDataOffset;
    }

    /** The field called {@code name}; an IllegalArgumentException names the message's fields when there is none. */
    public MadField field(String name) {
        for (MadField f : fields) if (f.name().equals(name)) return f;
        throw new IllegalArgumentException(this + " has no field " + name + "; it has " + fields.stream().map(MadField::name).toList());
    }

    /** The message with this attribute ID, or null (LAP, APR, ClassPortInfo and unknown IDs). */
    public static CmMessage byAttrId(int attrId) {
        for (CmMessage m : values()) if (m.attrId == attrId) return m;
        return null;
    }
}
