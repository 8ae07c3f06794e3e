package org.softrnic.cli.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.softrnic.cli.Main;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.frame.FrameCodec;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.RoceFrame;
import org.softrnic.wire.frame.Udp;
import org.softrnic.wire.header.Bth;
import org.softrnic.wire.header.Deth;
import org.softrnic.wire.packet.RocePacket;
import org.softrnic.wire.pcap.PcapWriter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** `softrnic decode` on a QP1 packet: rxe's REQ from rping, with the mad, cm and cma layers in JSON and text. */
class CmDecodeTest {
    private static final String REQ = """
            01070203000000000000000 24ac0f8b6 0010000000000000 b6f8c04a00000000 0000000001061c06 505400fffe123402
            0000000000000000 0000110100000001 000000a095459ba7 ffff37f0ffffffff 00000000000000000000ffffc0000202
            00000000000000000000ffffc0000201 c867d00000400098""";

    @Test
    void aReqIsShownFieldByField(@TempDir Path dir) throws Exception {
        byte[] mad = new byte[256];
        byte[] head = HexFormat.of().parseHex(REQ.replaceAll("\\s", ""));
        System.arraycopy(head, 0, mad, 0, head.length);
        byte[] cma = HexFormat.of().parseHex("0040eaa9000000000000000000000000c0000202000000000000000000000000c0000201");
        System.arraycopy(cma, 0, mad, 164, cma.length);
        RocePacket p = new RocePacket(new Bth(Opcode.UD_SEND_ONLY, false, false, 0, 0, 0xffff, false, false, 1, true, 0x2a),
                null, new Deth(Deth.GSI_QKEY, 1), null, null, null, null, null, null, null, mad, 0);
        var ip = Ipv4.roce(Ipv4.addr(0xc0000202), Ipv4.addr(0xc0000201), 1, 0, 0);
        byte[] frame = new FrameCodec().encode(new RoceFrame(new Ethernet(0x525400123401L, 0x525400123402L, -1, 0x0800), ip,
                Udp.roce(0xdead), p, null));
        Path pcap = dir.resolve("req.pcap");
        try (PcapWriter w = PcapWriter.create(pcap)) {
            w.write(0, frame);
        }
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "decode", "--json", pcap.toString()));
        JsonNode j = JsonMapper.builder().build().readTree(out.toString().trim());
        assertEquals(7, j.get("mad").get("mgmt_class").asInt());
        assertEquals(0x000000024ac0f8b6L, j.get("mad").get("tid").asLong());
        assertEquals(0x10, j.get("mad").get("attr_id").asInt());
        JsonNode cm = j.get("cm");
        assertEquals("REQ", cm.get("msg").asString());
        assertEquals(0xb6f8c04aL, cm.get("local_comm_id").asLong());
        assertEquals(0x0000000001061c06L, cm.get("service_id").asLong());
        assertEquals(0x11, cm.get("local_qpn").asInt());
        assertEquals(0x95459b, cm.get("starting_psn").asInt());
        assertEquals(1, cm.get("responder_resources").asInt());
        assertEquals(7, cm.get("retry_count").asInt());
        assertEquals(0xc867d, cm.get("primary_flow_label").asInt(), "the flow-label word tshark 4.0 misreads");
        assertTrue(cm.get("private_data").asString().startsWith("0040eaa9"));
        JsonNode c = j.get("cma");
        assertEquals(4, c.get("ip_version").asInt());
        assertEquals(0xeaa9, c.get("src_port").asInt());
        assertEquals("192.0.2.2", c.get("src_ip").asString());
        assertEquals("192.0.2.1", c.get("dst_ip").asString());
        assertTrue(j.get("icrc_ok").asBoolean());

        StringWriter text = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(text), new PrintWriter(new StringWriter()), "decode", "--explain", pcap.toString()));
        assertTrue(text.toString().contains("REQ"), text.toString());
        assertTrue(text.toString().contains("what the REQ connects to"), text.toString());
        Files.delete(pcap);
    }
}
