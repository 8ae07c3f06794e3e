package org.softrnic.nic.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
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
import org.softrnic.nic.Nic;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WorkCompletion;

/**
 * Requester to responder to completer and back, on one thread with no I/O: one operation posts a batch
 * of {@value #BATCH} messages, runs the packets through both devices, and reaps the completions. Every
 * message is one request packet and one ACK.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class EngineBenchmark {
    public static final int BATCH = 32;
    /** Request plus ACK per message. */
    public static final int PACKETS_PER_OP = 2 * BATCH;

    private final Loopback link = Loopback.devices(4 * BATCH);
    private Nic a;
    private Nic b;
    private QueuePair qa;
    private QueuePair qb;
    private MemoryRegion mra;
    private MemoryRegion mrb;
    private CompletionQueue cqa;
    private CompletionQueue cqb;
    private final SendWr send = new SendWr(1);
    private final SendWr write = new SendWr(1);
    private final RecvWr recv = new RecvWr(1);
    private final WorkCompletion[] wcs = new WorkCompletion[BATCH];

    @Setup
    public void setup() {
        a = link.a;
        b = link.b;
        ProtectionDomain pda = a.allocPd();
        ProtectionDomain pdb = b.allocPd();
        MemorySegment ma = Arena.ofAuto().allocate(1 << 20, 8);
        MemorySegment mb = Arena.ofAuto().allocate(1 << 20, 8);
        mra = a.regMr(pda, ma, Access.LOCAL_WRITE | Access.REMOTE_ANY);
        mrb = b.regMr(pdb, mb, Access.LOCAL_WRITE | Access.REMOTE_ANY);
        cqa = a.createCq(4 * BATCH);
        cqb = b.createCq(4 * BATCH);
        qa = a.createQp(pda, QpType.RC, cqa, cqa, null, new QpCaps(2 * BATCH, 2 * BATCH, 1, 1, 0), false);
        qb = b.createQp(pdb, QpType.RC, cqb, cqb, null, new QpCaps(2 * BATCH, 2 * BATCH, 1, 1, 0), false);
        Loopback.connect(a, qa, "192.0.2.2", qb.qpn());
        Loopback.connect(b, qb, "192.0.2.1", qa.qpn());
        for (int i = 0; i < wcs.length; i++) wcs[i] = new WorkCompletion();
        send.opcode = SendOpcode.SEND;
        send.numSge = 1;
        send.sgList[0].set(mra.iova(), 64, mra.lkey());
        write.opcode = SendOpcode.RDMA_WRITE;
        write.numSge = 1;
        write.sgList[0].set(mra.iova(), 4096, mra.lkey());
        write.remoteAddr = mrb.iova();
        write.rkey = mrb.rkey();
        recv.numSge = 1;
        recv.sgList[0].set(mrb.iova(), 4096, mrb.lkey());
        for (int i = 0; i < 2 * BATCH; i++) b.postRecv(qb, recv);
    }

    /** 32 unsignaled 64-byte SENDs: 64 packets through both engines, 32 receive completions. */
    @Benchmark
    public int send64() {
        for (int i = 0; i < BATCH; i++) a.postSend(qa, send);
        int packets = link.pump();
        int n = cqb.poll(wcs);
        for (int i = 0; i < n; i++) b.postRecv(qb, recv);
        return packets;
    }

    /** 32 unsignaled 4 KiB RDMA WRITEs at MTU 4096: one full segment each, plus its ACK. */
    @Benchmark
    public int write4k() {
        for (int i = 0; i < BATCH; i++) a.postSend(qa, write);
        return link.pump();
    }
}
