package org.softrnic.emulator.perf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.nic.Counter;
import org.softrnic.nic.Nic;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.cq.WcStatus;
import org.softrnic.nic.cq.WorkCompletion;
import org.softrnic.nic.mem.Access;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.Gid;
import org.softrnic.nic.qp.Mtu;
import org.softrnic.nic.qp.QpAttr;
import org.softrnic.nic.qp.QpCaps;
import org.softrnic.nic.qp.QpType;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWr;
import org.softrnic.nic.qp.SendFlags;
import org.softrnic.nic.qp.SendWr;

/**
 * `softrnic perf` on the in-process fabric: a client and a server soft RNIC on one thread, the link's
 * faults in virtual time (so --loss and --seed replay exactly), the throughput measured on the wall clock.
 * Each QP keeps {@code txDepth} work requests outstanding, as perftest does.
 */
public final class PerfRun {
    private static final ValueLayout.OfLong HOST = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private PerfRun() {}

    /** One QP pair with its buffers. */
    private static final class Flow {
        QueuePair client;
        QueuePair server;
        MemoryRegion clientMr;
        MemoryRegion serverMr;
        long posted;
        long completed;
        long receivesPosted;
        /** Post times of the outstanding requests, by posting order modulo the depth: RC completes in order. */
        long[] postedAt;
    }

    /** Parses --link: inproc, udp (127.0.0.1 and 127.0.0.2, port 4791), udp:127.x.y.z[:PORT] or udp:[::1][:PORT]. */
    static PerfLink link(String spec, double loss, long seed) {
        org.softrnic.emulator.link.LinkSpec link = org.softrnic.emulator.link.LinkSpec.parse(spec);
        if (link.kind() == org.softrnic.emulator.link.LinkSpec.Kind.INPROC) return new SimPerfLink(loss, seed);
        if (loss > 0) throw new IllegalArgumentException("--loss injects faults on the in-process fabric only");
        if (link.port() == 0) throw new IllegalArgumentException("--link " + spec + ": perf needs a port of 1..65535");
        return new UdpPerfLink(link.address(), link.port(), seed);
    }

    public static PerfResult run(PerfOptions o) {
        return run(o, PerfProgress.NONE);
    }

    public static PerfResult run(PerfOptions o, PerfProgress progress) {
        try (PerfLink link = link(o.link(), o.loss(), o.seed())) {
            return run(o, link, progress);
        } finally {
            progress.finish();
        }
    }

    private static final long PROGRESS_EVERY_NANOS = 200_000_000L;
    /** Latency samples kept (8 bytes each); later completions are not sampled. */
    private static final int MAX_LATENCY_SAMPLES = 1_000_000;

    private static PerfResult run(PerfOptions o, PerfLink link, PerfProgress progress) {
        Nic client = link.client();
        Nic server = link.server();
        ProtectionDomain cpd = client.allocPd();
        ProtectionDomain spd = server.allocPd();
        int depth = o.txDepth();
        CompletionQueue ccq = client.createCq(Math.max(16, depth * o.qps()));
        CompletionQueue scq = server.createCq(Math.max(16, depth * o.qps()));
        Arena arena = Arena.ofAuto();
        int bufBytes = Math.max(8, o.size());
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < o.qps(); i++) {
            Flow f = new Flow();
            f.postedAt = new long[depth];
            f.clientMr = client.regMr(cpd, arena.allocate(bufBytes, 8), Access.LOCAL_WRITE | Access.REMOTE_ANY);
            f.serverMr = server.regMr(spd, arena.allocate(bufBytes, 8), Access.LOCAL_WRITE | Access.REMOTE_ANY);
            QpCaps caps = new QpCaps(depth, depth, 1, 1, 0);
            f.client = client.createQp(cpd, QpType.RC, ccq, ccq, null, caps, false);
            f.server = server.createQp(spd, QpType.RC, scq, scq, null, caps, false);
            connect(client, f.client, server.gids().getFirst(), f.server.qpn(), o.mtu());
            connect(server, f.server, client.gids().getFirst(), f.client.qpn(), o.mtu());
            fillPattern(o.op() == PerfOp.READ ? f.serverMr.segment() : f.clientMr.segment(), o.seed() + i);
            flows.add(f);
        }
        SendWr wr = new SendWr(1);
        RecvWr recv = new RecvWr(1);
        WorkCompletion[] wcs = new WorkCompletion[64];
        for (int i = 0; i < wcs.length; i++) wcs[i] = new WorkCompletion();
        long total = (long) o.iters() * o.qps();
        long done = 0;
        String error = null;
        double peak = 0;
        long start = System.nanoTime();
        long batchStart = start;
        long batchDone = 0;
        long lastProgress = start;
        long[] latencies = new long[(int) Math.min(total, MAX_LATENCY_SAMPLES)];
        int samples = 0;
        while (done < total && error == null) {
            for (Flow f : flows) {
                if (o.op() == PerfOp.SEND) {
                    while (f.receivesPosted < Math.min(f.completed + depth, o.iters())) {
                        recv.wrId = f.receivesPosted++;
                        recv.numSge = 1;
                        recv.sgList[0].set(f.serverMr.iova(), bufBytes, f.serverMr.lkey());
                        server.postRecv(f.server, recv);
                    }
                }
                while (f.posted < o.iters() && f.posted - f.completed < depth) {
                    prepare(wr, o, f, f.posted);
                    f.postedAt[(int) (f.posted % depth)] = System.nanoTime();
                    client.postSend(f.client, wr);
                    f.posted++;
                }
            }
            link.progress(ccq);
            int n;
            long before = done;
            while ((n = ccq.poll(wcs)) > 0) {
                long polledAt = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    if (wcs[i].status != WcStatus.SUCCESS) {
                        // the first error is the cause; flushes of the other requests follow it
                        if (error == null) error = wcs[i].status.ibvName() + " on QP 0x" + Integer.toHexString(wcs[i].qpNum);
                        break;
                    }
                    for (Flow f : flows) {
                        if (f.client.qpn() != wcs[i].qpNum) continue;
                        if (samples < latencies.length) latencies[samples++] = polledAt - f.postedAt[(int) (f.completed % depth)];
                        f.completed++;
                    }
                    done++;
                }
            }
            while (scq.poll(wcs) > 0) {
                // receive completions; the receive buffers are re-posted above
            }
            if (done == before && error == null) error = "no progress: the link stalled";
            long now = System.nanoTime();
            if (now - lastProgress >= PROGRESS_EVERY_NANOS) {
                progress.update(done, total, now - start);
                lastProgress = now;
            }
            if (done - batchDone >= Math.max(1, total / 20) && now > batchStart) {
                peak = Math.max(peak, (done - batchDone) * (double) o.size() / ((now - batchStart) / 1e9) / 1e6);
                batchStart = now;
                batchDone = done;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double avg = done * (double) o.size() / seconds / 1e6;
        Boolean verified = o.verify() && error == null ? verify(o, flows) : null;
        long retrans = client.counters().get(Counter.COMPLETER_RETRY_ERR);
        return new PerfResult(o.op(), o.size(), done, o.qps(), o.mtu().bytes, link.describe(), seconds,
                Math.max(peak, avg), avg, done / seconds / 1e6, link.packets(), retrans, link.dropped(), verified, error,
                client.counters().snapshot(), server.counters().snapshot(), Latency.of(latencies, samples));
    }

    private static void prepare(SendWr wr, PerfOptions o, Flow f, long n) {
        wr.wrId = n;
        wr.opcode = o.op().opcode;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.numSge = o.size() == 0 ? 0 : 1;
        wr.sgList[0].set(f.clientMr.iova(), Math.max(o.size(), o.op() == PerfOp.ATOMIC ? 8 : 0), f.clientMr.lkey());
        if (o.op() == PerfOp.ATOMIC) wr.numSge = 1;
        wr.remoteAddr = f.serverMr.iova();
        wr.rkey = f.serverMr.rkey();
        wr.compareAdd = 1;
    }

    static void fillPattern(MemorySegment seg, long seed) {
        for (long i = 0; i < seg.byteSize(); i++) seg.set(ValueLayout.JAVA_BYTE, i, (byte) (seed * 31 + i * 7));
    }

    /** Every byte of every target equals the pattern; for atomics the counter equals the number of adds. */
    private static boolean verify(PerfOptions o, List<Flow> flows) {
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            if (o.op() == PerfOp.ATOMIC) {
                if (f.serverMr.segment().get(HOST, 0) != o.iters()) return false;
                continue;
            }
            MemorySegment src = o.op() == PerfOp.READ ? f.serverMr.segment() : f.clientMr.segment();
            MemorySegment dst = o.op() == PerfOp.READ ? f.clientMr.segment() : f.serverMr.segment();
            if (MemorySegment.mismatch(src, 0, o.size(), dst, 0, o.size()) != -1) return false;
        }
        return true;
    }

    private static void connect(Nic nic, QueuePair qp, Gid peer, int peerQpn, Mtu mtu) {
        // timeout 14 (67 ms), perftest's default: a cold JIT on the wall clock needs the room
        nic.modifyToRts(qp, QpAttr.rcConnect(peer, peerQpn, mtu));
    }
}
