package org.softrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.softrnic.cli.Main;
import org.softrnic.wire.frame.DecodedFrame;
import org.softrnic.wire.pcap.CaptureDecoder;
import org.softrnic.wire.pcap.PcapReader;

/** --trace on perf and pingpong: every packet the device sent or received, in a capture that decodes with valid ICRCs. */
class TraceOptionTest {
    @TempDir
    Path dir;

    private static List<DecodedFrame> decode(Path pcap) throws Exception {
        return decode(pcap, 4791);
    }

    private static List<DecodedFrame> decode(Path pcap, int rocePort) throws Exception {
        CaptureDecoder d = new CaptureDecoder(new org.softrnic.wire.frame.FrameCodec(rocePort));
        return PcapReader.read(pcap).stream().map(d::decode).toList();
    }

    @Test
    void perfRecordsBothDirections() throws Exception {
        Path pcap = dir.resolve("perf.pcap");
        StringWriter out = new StringWriter();
        assertEquals(0, Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "perf", "write", "--iters", "3",
                "--size", "3000", "--trace", pcap.toString()));
        List<DecodedFrame> frames = decode(pcap);
        assertTrue(frames.stream().allMatch(f -> f.roce() && f.icrcOk()));
        // 3 WRITEs of 3 packets each at MTU 1024, and the ACKs that came back
        assertEquals(9, frames.stream().filter(f -> f.packet().bth().opcode().opClass.request).count());
        assertTrue(frames.stream().anyMatch(f -> f.packet().aeth() != null), "the ACKs are in it too");
        assertTrue(out.toString().contains("packets " + frames.size() + " "), out + " vs " + frames.size());
    }

    @Test
    void pingpongRecordsTheClientsPackets() throws Exception {
        Path pcap = dir.resolve("pp.pcap");
        int tcp;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            tcp = s.getLocalPort();
        }
        int udp = 20000 + tcp % 20000;
        CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> Main.execute(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()), "pingpong", "rc", "--link", "udp:127.0.0.1:" + udp, "-p", "" + tcp, "-n", "5", "-s", "2048"));
        StringWriter err = new StringWriter();
        int rc = Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "pingpong", "rc", "--link", "udp:127.0.0.2:" + udp,
                "-p", "" + tcp, "-n", "5", "-s", "2048", "--wait", "30", "--trace", pcap.toString(), "127.0.0.1");
        assertEquals(0, rc, err.toString());
        assertEquals(0, server.get(60, TimeUnit.SECONDS));
        List<DecodedFrame> frames = decode(pcap, udp); // the devices' packets carry their socket's port
        assertTrue(frames.stream().allMatch(DecodedFrame::roce));
        // what it sent is exact; over kernel UDP the IP header of what it received is rebuilt (the socket keeps
        // the real one, whose identification the ICRC covers), so only the sent packets' ICRCs can check out
        assertTrue(frames.stream().filter(f -> f.ip().src().getHostAddress().equals("127.0.0.2")).allMatch(DecodedFrame::icrcOk));
        // five SENDs each way, two packets each at MTU 1024
        assertEquals(20, frames.stream().filter(f -> f.packet().bth().opcode().opClass.request).count());
    }
}
