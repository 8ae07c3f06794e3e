package org.softrnic.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.link.UdpPair;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.pcap.CaptureDecoder;
import org.softrnic.wire.pcap.CapturedFrame;
import org.softrnic.wire.pcap.PcapReader;

/**
 * What the kernel really puts on the wire for softrnic's UDP link, captured by tshark on loopback: every
 * RoCEv2 packet carries IP identification 0 and DF, and its ICRC, computed by softrnic beforehand for
 * exactly those headers, verifies in the capture.
 */
class UdpWireCaptureTest {
    @Test
    void icrcComputedForIdentificationZeroIsValidOnTheWire() throws Exception {
        Tools.require("tshark");
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        Path dir = Files.createDirectories(Path.of("target", "udp-capture").toAbsolutePath());
        Path pcap = dir.resolve("udp-" + port + ".pcapng");
        Path log = dir.resolve("tshark-" + port + ".log");
        Process tshark = new ProcessBuilder("tshark", "-i", "lo", "-f", "udp port " + port, "-w", pcap.toString(),
                "-a", "duration:60").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long wait = System.nanoTime() + 20_000_000_000L;
            while (!(Files.exists(log) && Files.readString(log).contains("Capturing on"))) {
                if (System.nanoTime() > wait || !tshark.isAlive()) fail("tshark did not start: " + Files.readString(log));
                Thread.sleep(50);
            }
            UdpPair.Side a = UdpPair.side("127.0.0.1", port);
            UdpPair.Side b = UdpPair.side("127.0.0.2", port);
            try (var la = a.link(); var lb = b.link()) {
                UdpPair.connect(a, "127.0.0.2", b.qp().qpn());
                UdpPair.connect(b, "127.0.0.1", a.qp().qpn());
                for (int i = 0; i < 8192; i++) a.mr().segment().set(ValueLayout.JAVA_BYTE, i, (byte) i);
                SendWr w = new SendWr(1);
                w.opcode = SendOpcode.RDMA_WRITE;
                w.sendFlags = SendFlags.SIGNALED;
                w.numSge = 1;
                w.sgList[0].set(a.mr().iova(), 8192, a.mr().lkey());
                w.remoteAddr = b.mr().iova();
                w.rkey = b.mr().rkey();
                a.nic().postSend(a.qp(), w);
                var done = UdpPair.pump(a, b, 1);
                assertEquals(WcStatus.SUCCESS, done.getFirst().status);
            }
            Thread.sleep(1000); // let the capture write the last packets
        } finally {
            new ProcessBuilder("kill", "-INT", Long.toString(tshark.pid())).start().waitFor();
            if (!tshark.waitFor(20, TimeUnit.SECONDS)) tshark.destroyForcibly();
        }
        List<CapturedFrame> frames = PcapReader.read(pcap);
        // loopback captures hold offloaded, unfinished UDP checksums: the ICRC is what this test checks
        CaptureDecoder decoder = new CaptureDecoder(new org.softrnic.wire.frame.FrameCodec(port, false));
        int roce = 0;
        for (CapturedFrame f : frames) {
            DecodedFrame d = decoder.decode(f);
            if (!d.roce()) continue;
            roce++;
            assertTrue(d.icrcOk(), "frame " + f.number() + ": " + d.errorMessage());
            Ipv4 ip = (Ipv4) d.ip();
            assertEquals(0, ip.id(), "the kernel sent identification 0");
            assertTrue(ip.df(), "and DF");
        }
        assertTrue(roce >= 9, "8 WRITE packets and an ACK were captured, got " + roce + " (" + Files.readString(log) + ")");
    }
}
