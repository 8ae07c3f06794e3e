package org.softrnic.cli.decode;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.softrnic.wire.mad.CmMessage;
import org.softrnic.wire.mad.CmaHeader;
import org.softrnic.wire.mad.Mad;
import org.softrnic.wire.mad.MadField;
import org.softrnic.wire.mad.SidrStatus;

/**
 * The management datagram in a QP1 packet's payload as layers: {@code mad} (the common header), {@code cm} (the
 * CM message's fields by the table in {@link CmMessage}, its name in {@code msg}, the private data in hex) and
 * {@code cma} (the RDMA CM's header, in a REQ or SIDR_REQ whose private data starts with one).
 */
final class MadLayers {
    /** One line of meaning for the fields a reader of a CM exchange looks at first; the others say where they are. */
    private static final Map<String, String> MEANING = Map.ofEntries(
            Map.entry("base_version", "MAD base version: 1"),
            Map.entry("mgmt_class", "management class: 0x07 is the communication manager (CM)"),
            Map.entry("class_version", "class version: the kernel's CM speaks 2 and drops others"),
            Map.entry("method", "method: 0x03 Send, which every CM message uses"),
            Map.entry("tid", "transaction ID: the sender's agent in the high word; the CM matches by comm IDs, not by it"),
            Map.entry("attr_id", "attribute ID: which CM message (0x10 REQ ... 0x18 SIDR_REP)"),
            Map.entry("local_comm_id", "the sender's communication ID for this connection"),
            Map.entry("remote_comm_id", "the receiver's communication ID, as the sender learnt it"),
            Map.entry("service_id", "what the REQ connects to: rdma_cm's port space << 16 | port"),
            Map.entry("local_qpn", "the sender's data QP, which the receiver's QP will send to"),
            Map.entry("starting_psn", "the PSN the sender's QP expects first (rdma_cm's seq_num): the receiver's QP sends from it"),
            Map.entry("responder_resources", "RDMA READs and atomics the sender accepts at once (the peer's initiator depth)"),
            Map.entry("initiator_depth", "RDMA READs and atomics the sender keeps outstanding"),
            Map.entry("retry_count", "transport retries for the connection's QPs (retry_cnt)"),
            Map.entry("rnr_retry_count", "RNR retries for the connection's QPs (7: for ever)"),
            Map.entry("path_mtu", "path MTU code: 1 256, 2 512, 3 1024, 4 2048, 5 4096 bytes"),
            Map.entry("primary_local_ack_timeout", "the local ACK timeout the receiver's QP sets: 4.096 us * 2^value"),
            Map.entry("remote_cm_response_timeout", "how long the receiver may take to answer: 4.096 us * 2^value"),
            Map.entry("max_cm_retries", "how often the sender retransmits a REQ that gets no answer"),
            Map.entry("reason", "why the connection was refused (softrnic explain REJ lists the reasons): 8 no listener, 28 the consumer"),
            Map.entry("remote_qpn", "the receiver's QP, which the DREQ disconnects"),
            Map.entry("private_data", "bytes for the application; rdma_cm puts its own header in front of a REQ's"));

    private MadLayers() {
    }

    /** The layers of the MAD in {@code payload}; none when it is no 256-byte MAD. */
    static List<Layer> of(byte[] payload) {
        List<Layer> layers = new ArrayList<>();
        if (payload == null || payload.length < Mad.SIZE) return layers;
        MemorySegment m = MemorySegment.ofArray(payload).asSlice(0, Mad.SIZE);
        List<Field> head = new ArrayList<>();
        for (MadField f : Mad.HEADER_FIELDS) head.add(number(f, m));
        layers.add(new Layer("mad", head, false));
        CmMessage msg = Mad.cmMessage(m);
        if (msg == null) return layers;
        List<Field> cm = new ArrayList<>();
        cm.add(new Field("msg", msg.name(), msg.name(), "the CM message, by its attribute ID 0x" + Integer.toHexString(msg.attrId)));
        for (MadField f : msg.fields) {
            Field x = f.bytes() ? bytes(f.name(), f.read(m)) : number(f, m);
            if (msg == CmMessage.SIDR_REP && f.name().equals("status")) {
                x = new Field("status", x.value(), SidrStatus.describe((int) f.get(m)), "the answer: 0 the QP and Q_Key are here,"
                        + " 1 no listener, 2 refused (softrnic explain SIDR_STATUS lists them)");
            }
            cm.add(x);
        }
        byte[] pd = new byte[msg.privateDataSize()];
        MemorySegment.copy(m, java.lang.foreign.ValueLayout.JAVA_BYTE, msg.privateDataOffset, pd, 0, pd.length);
        cm.add(bytes("private_data", pd));
        layers.add(new Layer("cm", cm, false));
        if (msg == CmMessage.REQ || msg == CmMessage.SIDR_REQ) {
            CmaHeader h = CmaHeader.read(m, msg.privateDataOffset);
            if (h != null) {
                layers.add(Layer.of("cma",
                        new Field("version", h.version(), Integer.toString(h.version()), "CMA header version: 0"),
                        new Field("ip_version", h.ipVersion(), Integer.toString(h.ipVersion()), "the addresses' IP version"),
                        new Field("src_port", h.srcPort(), Integer.toString(h.srcPort()), "the active side's own rdma_cm port"),
                        new Field("src_ip", h.src().getHostAddress(), h.src().getHostAddress(), "the active side's address"),
                        new Field("dst_ip", h.dst().getHostAddress(), h.dst().getHostAddress(), "the passive side's address")));
            }
        }
        return layers;
    }

    private static Field number(MadField f, MemorySegment m) {
        long v = f.get(m);
        Object value = f.bits() == 64 ? Unsigned.u64(v) : (Object) v;
        String text = f.bits() >= 16 ? "0x" + Long.toHexString(v) : Long.toString(v);
        return new Field(f.name(), value, text, meaning(f));
    }

    private static Field bytes(String name, byte[] b) {
        String hex = HexFormat.of().formatHex(b);
        int used = b.length;
        while (used > 0 && b[used - 1] == 0) used--;
        String text = used == 0 ? "(" + b.length + " zero bytes)" : HexFormat.of().formatHex(b, 0, used) + (used < b.length ? " (then zeros)" : "");
        return new Field(name, hex, text, MEANING.getOrDefault(name, name.replace('_', ' ')));
    }

    private static String meaning(MadField f) {
        return MEANING.getOrDefault(f.name(), f.name().replace('_', ' ') + " (" + f.bits() + " bits at MAD byte " + f.offset() + ")");
    }
}
