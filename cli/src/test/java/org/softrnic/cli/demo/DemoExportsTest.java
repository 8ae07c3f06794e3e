package org.softrnic.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.pcap.CaptureDecoder;
import org.softrnic.wire.pcap.CapturedFrame;
import org.softrnic.wire.pcap.PcapReader;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A scenario's capture, SVG and JSON say what its ladder says: the same packets, valid on the wire. */
class DemoExportsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void theCaptureHoldsEveryPacketWithAValidIcrc(Scenario s) throws Exception {
        Demo.Played p = Demo.play(s, DemoOptions.DEFAULT);
        Path pcap = dir.resolve(s.id + ".pcap");
        DemoExports.pcap(p, pcap);
        List<CapturedFrame> frames = PcapReader.read(pcap);
        assertEquals(p.steps().size(), frames.size());
        CaptureDecoder decoder = new CaptureDecoder();
        for (int i = 0; i < frames.size(); i++) {
            DecodedFrame d = decoder.decode(frames.get(i));
            assertTrue(d.roce() && d.icrcOk(), s.id + " frame " + (i + 1) + ": " + d.errorMessage());
            assertEquals(p.steps().get(i).packet().bth().psn(), d.packet().bth().psn());
        }
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void theSvgIsWellFormedWithOneArrowPerPacket(Scenario s) throws Exception {
        Demo.Played p = Demo.play(s, DemoOptions.DEFAULT);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(DemoExports.svg(p).getBytes(StandardCharsets.UTF_8)));
        NodeList lines = doc.getElementsByTagName("line");
        int arrows = 0;
        for (int i = 0; i < lines.getLength(); i++) if ("packet".equals(((Element) lines.item(i)).getAttribute("class"))) arrows++;
        assertEquals(p.steps().size(), arrows);
    }

    @Test
    void theLossScenariosResentPsnsAreThoseInTheCapture() throws Exception {
        Demo.Played p = Demo.play(Scenario.LOSS, DemoOptions.DEFAULT);
        Path pcap = dir.resolve("loss.pcap");
        DemoExports.pcap(p, pcap);
        CaptureDecoder decoder = new CaptureDecoder();
        List<Integer> requests = PcapReader.read(pcap).stream().map(decoder::decode)
                .filter(d -> d.packet().bth().opcode().opClass.request).map(d -> d.packet().bth().psn()).toList();
        // the capture holds each request as it left, the lost one included: the PSNs after the first run are the resent ones
        List<Integer> shown = p.steps().stream().filter(x -> x.again() != null).map(x -> x.packet().bth().psn()).toList();
        assertEquals(shown, requests.subList(requests.size() - shown.size(), requests.size()));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 2, 3, 4, 5), requests);
    }

    @Test
    void theJsonTraceListsThePacketsAndCompletions() throws Exception {
        Demo.Played p = Demo.play(Scenario.RKEY_VIOLATION, DemoOptions.DEFAULT);
        JsonNode root = JsonMapper.builder().build().readTree(DemoExports.json(p));
        assertEquals("rkey-violation", root.get("scenario").asString());
        assertEquals(p.steps().size(), root.get("packets").size());
        assertEquals("RC_ACKNOWLEDGE", root.get("packets").get(1).get("opcode").asString());
        assertEquals("IBV_WC_REM_ACCESS_ERR", root.get("completions").get(0).get("status").asString());
    }
}
