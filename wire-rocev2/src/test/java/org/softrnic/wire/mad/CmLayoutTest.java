package org.softrnic.wire.mad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The CM's table against a real REQ: the one rxe sent for `rping -c` between two guests (shared/specs/rdma-cm.md
 * 3.1, capture CAP-R frame 15), field by field; every message's fields are disjoint and inside the MAD, and
 * writing every field then reading it back gives the same values.
 */
class CmLayoutTest {
    private static final String REQ_HEX = """
            01 07 02 03 00 00 00 00 00 00 00 02 4a c0 f8 b6 00 10 00 00 00 00 00 00 b6 f8 c0 4a 00 00 00 00
            00 00 00 00 01 06 1c 06 50 54 00 ff fe 12 34 02 00 00 00 00 00 00 00 00 00 00 11 01 00 00 00 01
            00 00 00 a0 95 45 9b a7 ff ff 37 f0 ff ff ff ff 00 00 00 00 00 00 00 00 00 00 ff ff c0 00 02 02
            00 00 00 00 00 00 00 00 00 00 ff ff c0 00 02 01 c8 67 d0 00 00 40 00 98 00 00 00 00 00 00 00 00
            """;

    static MemorySegment realReq() {
        byte[] mad = new byte[Mad.SIZE];
        byte[] head = HexFormat.of().parseHex(REQ_HEX.replaceAll("\\s", ""));
        System.arraycopy(head, 0, mad, 0, head.length);
        // the private data: the CMA header (IPv4, port 0xeaa9, 192.0.2.2 -> 192.0.2.1), then zeros
        byte[] cma = HexFormat.of().parseHex("0040eaa9" + "000000000000000000000000c0000202" + "000000000000000000000000c0000201");
        System.arraycopy(cma, 0, mad, 164, cma.length);
        return MemorySegment.ofArray(mad);
    }

    @Test
    void rxesRpingReqDecodesAsTheKernelWroteIt() throws Exception {
        MemorySegment m = realReq();
        assertEquals(CmMessage.REQ, Mad.cmMessage(m));
        assertEquals(0x000000024ac0f8b6L, Mad.TID.get(m), "TID: the agent's high word 2, the comm ID read as a host integer");
        Map<String, Long> want = Map.ofEntries(Map.entry("local_comm_id", 0xb6f8c04aL), Map.entry("service_id", 0x0000000001061c06L),
                Map.entry("local_ca_guid", 0x505400fffe123402L), Map.entry("local_qpn", 0x11L), Map.entry("responder_resources", 1L),
                Map.entry("initiator_depth", 1L), Map.entry("remote_cm_response_timeout", 20L), Map.entry("transport_service_type", 0L),
                Map.entry("starting_psn", 0x95459bL), Map.entry("local_cm_response_timeout", 20L), Map.entry("retry_count", 7L),
                Map.entry("partition_key", 0xffffL), Map.entry("path_mtu", 3L), Map.entry("rnr_retry_count", 7L),
                Map.entry("max_cm_retries", 15L), Map.entry("primary_local_lid", 0xffffL), Map.entry("primary_remote_lid", 0xffffL),
                Map.entry("primary_flow_label", 0xc867dL), Map.entry("primary_packet_rate", 0L), Map.entry("primary_hop_limit", 64L),
                Map.entry("primary_local_ack_timeout", 19L), Map.entry("alternate_local_lid", 0L));
        for (var e : want.entrySet()) assertEquals(e.getValue(), CmMessage.REQ.field(e.getKey()).get(m), e.getKey());
        assertArrayEquals(HexFormat.of().parseHex("00000000000000000000ffffc0000202"), CmMessage.REQ.field("primary_local_gid").read(m));
        CmaHeader cma = CmaHeader.read(m, CmMessage.REQ.privateDataOffset);
        assertEquals(new CmaHeader(0, 4, 0xeaa9, InetAddress.getByName("192.0.2.2"), InetAddress.getByName("192.0.2.1")), cma);
        assertEquals(0x0000000001061c06L, CmaHeader.serviceId(CmaHeader.PS_TCP, 7174), "rping's port 7174 in the TCP port space");
        assertEquals(92, CmMessage.REQ.privateDataSize());
    }

    @Test
    void everyMessagesFieldsAreDisjointAndRoundTrip() {
        Random r = new Random(12);
        for (CmMessage msg : CmMessage.values()) {
            boolean[] used = new boolean[Mad.SIZE * 8];
            for (MadField f : Mad.HEADER_FIELDS) mark(used, f, msg);
            for (MadField f : msg.fields) mark(used, f, msg);
            for (int b = msg.privateDataOffset * 8; b < Mad.SIZE * 8; b++) assertEquals(false, used[b], msg + " private data overlaps a field");
            MemorySegment m = MemorySegment.ofArray(new byte[Mad.SIZE]);
            Mad.cmHeader(m, msg, 0x1234_5678_9abc_def0L);
            Map<MadField, Long> values = new java.util.HashMap<>();
            for (MadField f : msg.fields) {
                if (f.bytes()) continue;
                long v = f.bits() == 64 ? r.nextLong() : r.nextLong() & ((1L << f.bits()) - 1);
                f.set(m, v);
                values.put(f, v);
            }
            for (var e : values.entrySet()) assertEquals(e.getValue(), e.getKey().get(m), msg + "." + e.getKey().name());
            assertEquals(msg, Mad.cmMessage(m));
            assertEquals(0x1234_5678_9abc_def0L, Mad.TID.get(m));
        }
        assertEquals(148, CmMessage.REJ.privateDataSize());
        assertEquals(196, CmMessage.REP.privateDataSize());
        assertEquals(136, CmMessage.SIDR_REP.privateDataSize());
    }

    @Test
    void aMadOfAnotherClassOrVersionIsNoCmMessage() {
        MemorySegment m = realReq();
        Mad.CLASS_VERSION.set(m, 1);
        assertNull(Mad.cmMessage(m), "the kernel drops a CM MAD of class version 1 (validate_mad)");
        assertThrows(IllegalArgumentException.class, () -> CmMessage.RTU.field("service_id"));
        assertThrows(IllegalArgumentException.class, () -> new MadField("past_the_end", 250, 0, 64));
    }

    private static void mark(boolean[] used, MadField f, CmMessage msg) {
        for (int b = f.offset() * 8 + f.fromMsb(); b < f.offset() * 8 + f.fromMsb() + f.bits(); b++) {
            assertEquals(false, used[b], msg + "." + f.name() + " overlaps another field at bit " + b);
            used[b] = true;
        }
    }
}
