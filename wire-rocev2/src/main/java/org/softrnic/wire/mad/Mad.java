package org.softrnic.wire.mad;

import java.lang.foreign.MemorySegment;

/**
 * The MAD common header (IBTA 13.4.3, the kernel's struct ib_mad_hdr): 24 bytes at the front of every 256-byte
 * management datagram, which RoCEv2 carries as the payload of a UD SEND to QP1.
 */
public final class Mad {
    /** A MAD is always 256 bytes; the CM's are padded with zeros. */
    public static final int SIZE = 256;
    public static final int HEADER = 24;
    public static final int BASE_VERSION_1 = 1;
    /** IB_MGMT_CLASS_CM, and the class version the kernel's CM speaks (IB_CM_CLASS_VERSION). */
    public static final int CLASS_CM = 0x07;
    public static final int CM_CLASS_VERSION = 2;
    /** IB_MGMT_METHOD_SEND: every CM message but ClassPortInfo travels as a Send. */
    public static final int METHOD_SEND = 0x03;

    public static final MadField BASE_VERSION = MadField.of("base_version", 0, 8);
    public static final MadField MGMT_CLASS = MadField.of("mgmt_class", 1, 8);
    public static final MadField CLASS_VERSION = MadField.of("class_version", 2, 8);
    public static final MadField METHOD = MadField.of("method", 3, 8);
    public static final MadField STATUS = MadField.of("status", 4, 16);
    public static final MadField CLASS_SPECIFIC = MadField.of("class_specific", 6, 16);
    public static final MadField TID = MadField.of("tid", 8, 64);
    public static final MadField ATTR_ID = MadField.of("attr_id", 16, 16);
    public static final MadField ATTR_MOD = MadField.of("attr_mod", 20, 32);

    /** The header's fields in wire order: the table decode prints. */
    public static final java.util.List<MadField> HEADER_FIELDS =
            java.util.List.of(BASE_VERSION, MGMT_CLASS, CLASS_VERSION, METHOD, STATUS, CLASS_SPECIFIC, TID, ATTR_ID, ATTR_MOD);

    private Mad() {
    }

    /** Writes a CM Send header for {@code msg} with {@code tid} over the first 24 bytes of {@code mad}. */
    public static void cmHeader(MemorySegment mad, CmMessage msg, long tid) {
        BASE_VERSION.set(mad, BASE_VERSION_1);
        MGMT_CLASS.set(mad, CLASS_CM);
        CLASS_VERSION.set(mad, CM_CLASS_VERSION);
        METHOD.set(mad, METHOD_SEND);
        STATUS.set(mad, 0);
        CLASS_SPECIFIC.set(mad, 0);
        TID.set(mad, tid);
        ATTR_ID.set(mad, msg.attrId);
        MadField.of("resv", 18, 16).set(mad, 0);
        ATTR_MOD.set(mad, 0);
    }

    /** The CM message this MAD carries, or null when it is no CM MAD of the class version the kernel speaks. */
    public static CmMessage cmMessage(MemorySegment mad) {
        if (mad.byteSize() < SIZE || BASE_VERSION.get(mad) != BASE_VERSION_1 || MGMT_CLASS.get(mad) != CLASS_CM
                || CLASS_VERSION.get(mad) != CM_CLASS_VERSION) {
            return null;
        }
        return CmMessage.byAttrId((int) ATTR_ID.get(mad));
    }
}
