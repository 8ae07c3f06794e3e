package org.softrnic.wire.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.PacketBuffer;
import org.softrnic.wire.ParseError;
import org.softrnic.wire.frame.Ethernet;
import org.softrnic.wire.frame.FrameTemplate;
import org.softrnic.wire.frame.FrameView;
import org.softrnic.wire.frame.FrameWriter;
import org.softrnic.wire.frame.Ipv4;
import org.softrnic.wire.frame.Udp;
import org.softrnic.wire.icrc.Ipv4IdSolver;
import org.softrnic.wire.testing.RandomFrames;

/**
 * A 4 KiB-MTU RDMA WRITE MIDDLE packet (4096 bytes of payload, 4154-byte Ethernet frame): parse+verify and
 * encode+ICRC, beside plain java.util.zip.CRC32 over the same IP-to-ICRC bytes, the ceiling.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class WireBenchmark {
    public static final int PAYLOAD = 4096;
    private final Arena arena = Arena.ofAuto();
    private PacketBuffer rx;
    private PacketBuffer tx;
    private MemorySegment source;
    private final FrameView view = new FrameView();
    private final FrameWriter writer = new FrameWriter();
    private final CRC32 crc = new CRC32();
    private FrameTemplate template;
    private int frameLength;
    private int psn;
    private int idDifference;
    private int ipTotalLength;

    @Setup
    public void setup() {
        Random r = new Random(1);
        template = FrameTemplate.of(new Ethernet(0x020000000001L, 0x020000000002L, -1, Ethernet.ETHERTYPE_IPV4),
                Ipv4.roce(RandomFrames.v4("192.0.2.1"), RandomFrames.v4("192.0.2.2"), 0, 0, 0), Udp.roce(0xc123));
        source = arena.allocate(PAYLOAD);
        byte[] data = new byte[PAYLOAD];
        r.nextBytes(data);
        MemorySegment.copy(data, 0, source, ValueLayout.JAVA_BYTE, 0, PAYLOAD); // no heap segment: see FrameTemplate
        tx = PacketBuffer.allocate(arena, 9000);
        rx = PacketBuffer.allocate(arena, 9000);
        frameLength = encodeCopyAndIcrc();
        MemorySegment.copy(tx.segment, 0, rx.segment, 0, frameLength);
        rx.length(frameLength);
        if (view.wrapAndVerify(rx, 0, frameLength, true) != null) throw new IllegalStateException("bad setup frame");
        // what a kernel UDP socket hides: the sender's identification (rxe counts it up)
        var id = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
        short sent = rx.segment.get(id, Ethernet.LENGTH + 4);
        rx.segment.set(id, Ethernet.LENGTH + 4, (short) 0);
        int zero = view.expectedIcrc();
        rx.segment.set(id, Ethernet.LENGTH + 4, (short) 0xbeef);
        idDifference = view.expectedIcrc() ^ zero;
        rx.segment.set(id, Ethernet.LENGTH + 4, sent);
        ipTotalLength = icrcBytes();
        if (Ipv4IdSolver.identification(idDifference, ipTotalLength) != 0xbeef) throw new IllegalStateException("bad solve");
    }

    /** Bytes the ICRC and the CRC32 ceiling run over: IP header through the ICRC. */
    public static int icrcBytes() {
        return Ipv4.LENGTH + Udp.LENGTH + Opcode.RC_RDMA_WRITE_MIDDLE.headerLength + PAYLOAD + Opcode.ICRC_BYTES;
    }

    @Benchmark
    public long crc32Ceiling() {
        crc.reset();
        rx.buffer.limit(frameLength).position(Ethernet.LENGTH);
        crc.update(rx.buffer);
        rx.buffer.clear();
        return crc.getValue();
    }

    @Benchmark
    public ParseError parseAndVerify() {
        return view.wrapAndVerify(rx, 0, frameLength, true);
    }

    /** The parse half of parseAndVerify: Ethernet, IPv4 (with header checksum), UDP and BTH checks. */
    @Benchmark
    public ParseError parseOnly() {
        return view.wrapEthernet(rx, 0, frameLength);
    }

    /** The verify half: the ICRC over the parsed packet. */
    @Benchmark
    public int icrcOnly() {
        return view.expectedIcrc();
    }

    /** The IPv4 identification recovered from an ICRC mismatch (kernel UDP), on top of icrcOnly. */
    @Benchmark
    public int ipv4IdSolve() {
        return Ipv4IdSolver.identification(idDifference, ipTotalLength);
    }

    /** Headers, lengths, checksum and ICRC around a payload already in the packet buffer. */
    @Benchmark
    public int encodeAndIcrc() {
        FrameWriter w = writer.begin(tx, template, Opcode.RC_RDMA_WRITE_MIDDLE);
        w.bth().pkey(0xffff).dqpn(0x11).psn(psn = (psn + 1) & 0xffffff);
        return w.finish(PAYLOAD, psn & 0xffff);
    }

    /** The same with the payload copied in from a memory region first, as the requester does. */
    @Benchmark
    public int encodeCopyAndIcrc() {
        FrameWriter w = writer.begin(tx, template, Opcode.RC_RDMA_WRITE_MIDDLE);
        w.bth().pkey(0xffff).dqpn(0x11).psn(psn = (psn + 1) & 0xffffff);
        MemorySegment.copy(source, 0, tx.segment, w.payloadOffset(), PAYLOAD);
        return w.finish(PAYLOAD, psn & 0xffff);
    }
}
