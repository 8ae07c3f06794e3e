package org.softrnic.cli.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.softrnic.cli.Main;
import org.softrnic.wire.pcap.CapturedFrame;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * decode names what is not RoCEv2: ARP, IP with its protocol, and the tools' TCP exchange with its message decoded.
 * rc_pingpong.pcap holds an ARP request and reply (13, 14), then ibv_rc_pingpong's exchange on port 18515 (15-25):
 * each side's address (18, 20) and the client's "done" (22).
 */
class OtherTrafficTest {
    private static final String SAMPLE = "../samples/rc_pingpong.pcap";
    /** perftest's ib_write_bw against rxe, exchange and all. */
    private static final String WRITE_BW = "../wire-rocev2/src/test/resources/captures/write_bw.pcap";

    static String decode(String... args) {
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), args));
        return out.toString();
    }

    /** PFC frames (802.1Qbb) as tshark's "CBFC Pause": which priority stops, for how long, or resumes. */
    @Test
    void pfcPausesAreNamedByPriorityAndQuanta() throws Exception {
        java.nio.file.Path pcap = java.nio.file.Files.createTempFile("pfc", ".pcap");
        try {
            byte[] mac = {2, 0, 0x5e, 0, 0, 1};
            try (var w = org.softrnic.wire.pcap.PcapWriter.create(pcap)) {
                w.write(0, org.softrnic.wire.frame.PauseFrame.pfc(3, 0xffff).encode(mac));
                w.write(1_000, org.softrnic.wire.frame.PauseFrame.pfc(3, 0).encode(mac));
            }
            List<String> lines = decode("decode", pcap.toString()).lines().toList();
            assertTrue(lines.get(0).endsWith("60 bytes  PFC: pause priority 3 for 65535 quanta"), lines.get(0));
            assertTrue(lines.get(1).endsWith("60 bytes  PFC: resume priority 3"), lines.get(1));
            JsonNode first = JsonMapper.builder().build().readTree(decode("decode", "--json", pcap.toString()).lines().findFirst().orElseThrow());
            assertEquals(8, first.get("pfc").get("class_enable").asInt());
            assertEquals(65535, first.get("pfc").get("quanta3").asInt());
        } finally {
            java.nio.file.Files.deleteIfExists(pcap);
        }
    }

    @Test
    void arpIsNamedWithWhoHasAndIsAt() {
        List<String> lines = decode("decode", SAMPLE, "--frames", "13-14").lines().toList();
        assertEquals("frame 13  4.090990  42 bytes  ARP request: who has 192.0.2.1? tell 192.0.2.2", lines.get(0));
        assertEquals("frame 14  4.096496  42 bytes  ARP reply: 192.0.2.1 is at 52:54:00:12:34:01", lines.get(1));
    }

    @Test
    void theToolsExchangeOnTcp18515IsNamedAndItsMessagesDecoded() {
        String text = decode("decode", SAMPLE, "--frames", "15-22");
        assertTrue(text.contains("frame 15  4.099148  74 bytes  IPv4 TCP 192.0.2.2:48424 -> 192.0.2.1:18515 [SYN] len=0:"
                + " the tools' out-of-band exchange (LID:QPN:PSN:GID)\n"), text);
        assertTrue(text.contains("frame 18  4.126673  118 bytes  IPv4 TCP 192.0.2.2:48424 -> 192.0.2.1:18515 [PSH, ACK] len=52:"
                + " the tools' out-of-band exchange (LID:QPN:PSN:GID)\n"
                + "  oob          msg=pingpong_dest tool=ibv_*_pingpong lid=0x0000 qpn=0x000011 psn=0xf0a4b9 (15770809)"
                + " gid=::ffff:192.0.2.2\n"), text);
        // the PSN the client gave is the one its first SEND carries (frame 26)
        assertTrue(decode("decode", SAMPLE, "--frames", "26").contains("psn=15770809"));
        assertTrue(text.contains("qpn=0x000011 psn=0xc8218b (13115787) gid=::ffff:192.0.2.1\n"), text);
        assertTrue(text.contains("[PSH, ACK] len=5: the tools' out-of-band exchange (LID:QPN:PSN:GID)\n"
                + "  oob          msg=done tool=ibv_*_pingpong, perftest\n"), text);
        assertFalse(text.contains("not RoCEv2"), text);
    }

    @Test
    void icmpv6IsNamedByItsType() {
        String text = decode("decode", SAMPLE, "--frames", "3-8");
        assertTrue(text.contains("frame 3  0.192050  86 bytes  IPv6 ICMPv6 :: -> ff02::1:ff12:3401 neighbor solicitation for"
                + " fe80::5054:ff:fe12:3401\n"), text);
        assertTrue(text.contains("IPv6 ICMPv6 fe80::5054:ff:fe12:3401 -> ff02::2 router solicitation\n"), text);
        assertTrue(text.contains("IPv6 ICMPv6 fe80::5054:ff:fe12:3401 -> ff02::16 multicast listener report v2\n"), text);
    }

    /** perftest's exchange: version, page size and cache line, MTU, the 108-byte key, the 8-byte results, "done". */
    @Test
    void perftestsMessagesAreDecoded() {
        String text = decode("decode", WRITE_BW, "--frames", "18-29");
        assertTrue(text.contains("  oob          msg=perftest_version tool=perftest version=6.06\n"), text);
        assertTrue(text.contains("  oob          msg=perftest_sys_data tool=perftest sys_data=4096\n"), text);
        assertTrue(text.contains("  oob          msg=perftest_sys_data tool=perftest sys_data=64\n"), text);
        assertTrue(text.contains("  oob          msg=perftest_mtu tool=perftest mtu=3 (1024 bytes)\n"), text);
        assertTrue(text.contains("  oob          msg=perftest_key tool=perftest lid=0x0000 out_reads=1 qpn=0x000011"
                + " psn=0xc4abc4 (12889028) rkey=0x000002c2 vaddr=0x000055628df19000 gid=::ffff:192.0.2.2 srqn=0x00000000\n"), text);
        String end = decode("decode", WRITE_BW, "--frames", "441-453");
        assertTrue(end.contains("  oob          msg=perftest_report tool=perftest report=0x0000000000000040\n"), end);
        assertTrue(end.contains("[FIN, PSH, ACK] len=5: the tools' out-of-band exchange (LID:QPN:PSN:GID)\n"
                + "  oob          msg=done tool=ibv_*_pingpong, perftest\n"), end);
    }

    @Test
    void explainGivesTheExchangesFieldsTheirMeaning() {
        String text = decode("decode", "--explain", SAMPLE, "--frames", "18");
        assertTrue(text.contains("  oob\n    msg                pingpong_dest"), text);
        assertTrue(text.contains("    psn                0xf0a4b9 (15770809)  the PSN of the sender's first packet (its sq_psn):"
                + " the peer's QP expects it (rq_psn)"), text);
        assertTrue(text.contains("  tcp\n    sport              48424"), text);
        assertTrue(text.contains("    proto              6 (TCP)"), text);
    }

    /** In JSON the naming layers sit where a RoCE frame's do, by the same rules: numbers are numbers. */
    @Test
    void jsonCarriesTheLayersThatNameTheFrame() {
        JsonMapper json = JsonMapper.builder().build();
        List<JsonNode> o = decode("decode", "--json", SAMPLE, "--frames", "13-26").lines().map(json::readTree).toList();
        JsonNode arp = o.get(0);
        assertFalse(arp.get("roce").asBoolean());
        assertEquals(1, arp.get("arp").get("op").asInt());
        assertEquals("192.0.2.1", arp.get("arp").get("tpa").asString());
        assertEquals(2054, arp.get("eth").get("type").asInt());
        JsonNode syn = o.get(2);
        assertEquals(6, syn.get("ip").get("proto").asInt());
        assertEquals(18515, syn.get("tcp").get("dport").asInt());
        assertEquals("SYN", syn.get("tcp").get("flags").asString());
        assertTrue(syn.get("oob").get("msg").isNull(), "a segment of the exchange without a message");
        JsonNode dest = o.get(5);
        assertEquals(18, dest.get("frame").asInt());
        assertEquals("pingpong_dest", dest.get("oob").get("msg").asString());
        assertEquals(17, dest.get("oob").get("qpn").asInt());
        assertEquals(15770809, dest.get("oob").get("psn").asInt());
        assertEquals("::ffff:192.0.2.2", dest.get("oob").get("gid").asString());
        assertEquals(4.126673, dest.get("time_relative").asDouble());
        JsonNode roce = o.get(13);
        assertTrue(roce.get("roce").asBoolean());
        assertFalse(roce.has("oob") || roce.has("tcp") || roce.get("ip").has("proto"), "a RoCE frame's layers as they were");
    }

    /** Frames the samples lack: UDP, an address message off the tools' port (known by its shape), RoCE v1, raw IP. */
    @Test
    void otherProtocolsAndLinkTypesAreNamed() {
        byte[] udp = ipv4(17, ByteBuffer.allocate(8).putShort((short) 5353).putShort((short) 53).putShort((short) 8).array());
        assertEquals("IPv4 UDP 10.0.0.1:5353 -> 10.0.0.2:53 len=0", OtherTraffic.of(ethernet(0x0800, udp)).summary());
        byte[] msg = "0000:000012:a4edbe:00000000000000000000ffffc0000202\0".getBytes(StandardCharsets.US_ASCII);
        byte[] tcp = ByteBuffer.allocate(20 + msg.length).putShort((short) 40000).putShort((short) 5000).putInt(1).putInt(0)
                .put((byte) 0x50).put((byte) 0x18).putShort((short) 1000).putInt(0).put(msg).array();
        OtherTraffic.Named named = OtherTraffic.of(ethernet(0x0800, ipv4(6, tcp)));
        assertEquals("IPv4 TCP 10.0.0.1:40000 -> 10.0.0.2:5000 [PSH, ACK] len=52: the tools' out-of-band exchange (LID:QPN:PSN:GID)",
                named.summary());
        assertEquals("pingpong_dest", named.layers().getLast().fields().getFirst().value());
        assertEquals("EtherType 0x8915: RoCE v1 (InfiniBand's GRH over Ethernet; softrnic decodes RoCEv2 only)",
                OtherTraffic.of(ethernet(0x8915, new byte[40])).summary());
        byte[] ping = ipv4(1, new byte[] {8, 0, 0, 0, 0, 0, 0, 0});
        assertEquals("IPv4 ICMP 10.0.0.1 -> 10.0.0.2 echo request", OtherTraffic.of(new CapturedFrame(1, 0, 101, ping, ping.length)).summary());
        assertEquals("link type 147: not decoded", OtherTraffic.of(new CapturedFrame(1, 0, 147, ping, ping.length)).summary());
        byte[] gratuitous = ByteBuffer.allocate(28).putShort((short) 1).putShort((short) 0x0800).put((byte) 6).put((byte) 4)
                .putShort((short) 1).put(new byte[] {2, 0, 0, 0, 0, 1}).put(new byte[] {10, 0, 0, 1}).put(new byte[6])
                .put(new byte[] {10, 0, 0, 1}).array();
        assertEquals("ARP gratuitous: 10.0.0.1 is at 02:00:00:00:00:01", OtherTraffic.of(ethernet(0x0806, gratuitous)).summary());
    }

    private static byte[] ipv4(int proto, byte[] payload) {
        return ByteBuffer.allocate(20 + payload.length).put((byte) 0x45).put((byte) 0).putShort((short) (20 + payload.length))
                .putInt(0).put((byte) 64).put((byte) proto).putShort((short) 0).put(new byte[] {10, 0, 0, 1})
                .put(new byte[] {10, 0, 0, 2}).put(payload).array();
    }

    private static CapturedFrame ethernet(int etherType, byte[] payload) {
        byte[] f = ByteBuffer.allocate(14 + payload.length).put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1})
                .putShort((short) etherType).put(payload).array();
        return new CapturedFrame(1, 0, 1, f, f.length);
    }
}
