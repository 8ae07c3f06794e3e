package org.softrnic.emulator.soak;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Endpoint;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * The soak's active end: on each of 64 RC QPs, rounds of an RDMA WRITE of fresh bytes, an RDMA READ of them
 * back, a SEND the responder checks and a FETCH_AND_ADD whose result is known, every byte verified. Each
 * minute it samples both processes (heap after GC, RSS) and the completions per second, and prints a line.
 */
final class SoakRequester {
    private static final int SRC = 0, RD = 16 << 10, SND = 32 << 10, RES = 40 << 10, LANE = 48 << 10;
    private static final int OPS = 4;

    private final SplittableRandom random = new SplittableRandom(1);
    private final SendWr wr = new SendWr(1);
    private long completions;
    private long roundsVerified;
    private String failure;

    /** Per lane: the round in flight. */
    private final int[] writeOff = new int[Traffic.QPS], writeLen = new int[Traffic.QPS], done = new int[Traffic.QPS];
    private final long[] expectedWord = new long[Traffic.QPS], add = new long[Traffic.QPS], seq = new long[Traffic.QPS];

    /** Returns 0 when every byte verified and nothing grew, else 1. */
    int run(int rocePort, int oobPort, int minutes) throws Exception {
        List<Sample[]> series = new ArrayList<>();
        try (SoftRnic dev = Traffic.device("soak-requester", "127.0.0.1", rocePort);
             RdmaContext ctx = dev.open();
             Arena arena = Arena.ofShared();
             ProtectionDomain pd = ctx.allocPd();
             CompletionQueue cq = ctx.createCq(4096);
             MemoryRegion mr = pd.regMr(arena.allocate((long) LANE * Traffic.QPS, 4096), Access.LOCAL_WRITE);
             Socket s = new Socket(InetAddress.getByName("127.0.0.2"), oobPort)) {
            var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            var out = new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8);
            QueuePair[] qps = new QueuePair[Traffic.QPS];
            Endpoint[] remote = new Endpoint[Traffic.QPS];
            for (int i = 0; i < qps.length; i++) {
                qps[i] = pd.createQp(QpInitAttr.rc(cq, new QpCaps(16, 4, 1, 1, 0)));
                Endpoint local = Endpoint.of(ctx, qps[i]);
                out.println(local.toJson());
                remote[i] = Endpoint.fromJson(in.readLine());
                qps[i].connect(local, remote[i], Traffic::patient);
            }
            for (int i = 0; i < qps.length; i++) expectedWord[i] = 0;
            WorkCompletion[] wcs = new WorkCompletion[64];
            for (int i = 0; i < wcs.length; i++) wcs[i] = new WorkCompletion();
            for (int i = 0; i < qps.length; i++) start(i, qps[i], mr, remote[i]);
            long startNs = System.nanoTime();
            long nextSample = startNs + 60_000_000_000L;
            long completionsAtSample = 0;
            int minute = 0;
            System.out.printf("soak: 64 RC QPs over UDP 127.0.0.1 <-> 127.0.0.2 port %d, %d minutes, -Xmx%s%n", rocePort, minutes,
                    Sample.mib(Runtime.getRuntime().maxMemory()));
            while (failure == null && minute < minutes) {
                int n = cq.poll(wcs);
                for (int i = 0; i < n && failure == null; i++) complete(wcs[i], qps, mr, remote);
                if (n == 0) Thread.onSpinWait();
                long now = System.nanoTime();
                if (now >= nextSample) {
                    minute++;
                    Sample mine = Sample.now();
                    out.println(minute < minutes ? "sample" : "end");
                    String[] theirs = in.readLine().split(" ", 5);
                    Sample peer = Sample.parse(theirs, 0);
                    long errors = Long.parseLong(theirs[3]);
                    if (errors > 0) failure = "the responder found " + errors + " bad receives: " + (theirs.length > 4 ? theirs[4] : "");
                    double rate = (completions - completionsAtSample) / ((now - nextSample + 60_000_000_000L) / 1e9);
                    System.out.printf("minute %3d: requester heap %s rss %s | responder heap %s rss %s | %,.0f completions/s, %,d rounds verified, responder %s receives checked%n",
                            minute, Sample.mib(mine.heapAfterGc()), Sample.mib(mine.rss()), Sample.mib(peer.heapAfterGc()),
                            Sample.mib(peer.rss()), rate, roundsVerified, theirs[2]);
                    series.add(new Sample[] {mine, peer});
                    completionsAtSample = completions;
                    nextSample += 60_000_000_000L;
                }
            }
            if (failure == null && minute < minutes) out.println("end");
            if (failure != null) System.out.println("requester counters: " + nonZero(dev.counters()));
            for (QueuePair qp : qps) qp.close();
        }
        String growth = failure == null ? Growth.check(series) : null;
        if (failure != null) {
            System.out.println("soak FAILED: " + failure);
            return 1;
        }
        if (growth != null) {
            System.out.println("soak FAILED: " + growth);
            return 1;
        }
        System.out.printf("soak passed: %d minutes, %,d completions, %,d rounds, every byte verified, no growth (%s)%n", minutes,
                completions, roundsVerified, Growth.describe(series));
        return 0;
    }

    static java.util.Map<String, Long> nonZero(java.util.Map<String, Long> counters) {
        java.util.Map<String, Long> m = new java.util.TreeMap<>(counters);
        m.values().removeIf(v -> v == 0);
        return m;
    }

    private void start(int lane, QueuePair qp, MemoryRegion mr, Endpoint remote) {
        MemorySegment m = mr.segment();
        long base = (long) lane * LANE;
        int len = 1 + random.nextInt(16 << 10);
        int off = random.nextInt(Traffic.WRITE_AREA - len + 1);
        writeLen[lane] = len;
        writeOff[lane] = off;
        long x = random.nextLong();
        for (int i = 0; i < len; i += 8) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            for (int b = 0; b < 8 && i + b < len; b++) m.set(ValueLayout.JAVA_BYTE, base + SRC + i + b, (byte) (x >>> (8 * b + 3)));
        }
        m.asSlice(base + RD, len).fill((byte) 0);
        long remoteSlot = remote.addr() + (long) lane * Traffic.SLOT;
        post(qp, SendOpcode.RDMA_WRITE, lane, 0, mr, base + SRC, len, remoteSlot + off, remote.rkey());
        post(qp, SendOpcode.RDMA_READ, lane, 1, mr, base + RD, len, remoteSlot + off, remote.rkey());
        int sendLen = Traffic.HEADER + random.nextInt(Traffic.RECV - Traffic.HEADER + 1);
        Traffic.fillSend(m, base + SND, lane, ++seq[lane], sendLen);
        post(qp, SendOpcode.SEND, lane, 2, mr, base + SND, sendLen, 0, 0);
        add[lane] = random.nextLong();
        wr.compareAdd = add[lane];
        post(qp, SendOpcode.ATOMIC_FETCH_AND_ADD, lane, 3, mr, base + RES, 8, remoteSlot + Traffic.ATOMIC, remote.rkey());
        done[lane] = 0;
    }

    private void post(QueuePair qp, SendOpcode op, int lane, int index, MemoryRegion mr, long offset, int length, long remoteAddr, int rkey) {
        wr.wrId = (long) lane << 8 | index;
        wr.opcode = op;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.numSge = 1;
        wr.sgList[0].set(mr.addr() + offset, length, mr.lkey());
        wr.remoteAddr = remoteAddr;
        wr.rkey = rkey;
        qp.postSend(wr);
    }

    private void complete(WorkCompletion wc, QueuePair[] qps, MemoryRegion mr, Endpoint[] remote) {
        int lane = (int) (wc.wrId >>> 8);
        if (wc.status != WcStatus.SUCCESS) {
            failure = "lane " + lane + ": " + wc;
            return;
        }
        completions++;
        if (++done[lane] < OPS) return;
        MemorySegment m = mr.segment();
        long base = (long) lane * LANE;
        if (MemorySegment.mismatch(m, base + SRC, base + SRC + writeLen[lane], m, base + RD, base + RD + writeLen[lane]) >= 0) {
            failure = "lane " + lane + ": the READ did not return what the WRITE wrote";
            return;
        }
        long fetched = m.get(ValueLayout.JAVA_LONG_UNALIGNED, base + RES);
        if (fetched != expectedWord[lane]) {
            failure = "lane " + lane + ": FETCH_AND_ADD returned " + fetched + ", expected " + expectedWord[lane];
            return;
        }
        expectedWord[lane] += add[lane];
        roundsVerified++;
        start(lane, qps[lane], mr, remote[lane]);
    }
}
