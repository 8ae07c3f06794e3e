package org.softrnic.emulator.soak;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
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
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * The soak's passive end: 64 RC QPs whose memory the requester writes, reads and adds to, and whose
 * receives it fills; every SEND is checked byte for byte here. Out of band, a TCP connection carries the
 * endpoints, then the requester's "sample" requests, answered with this process's heap after GC, RSS,
 * receives and errors.
 */
final class SoakResponder {
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private volatile String firstError;
    private volatile boolean done;

    void run(int rocePort) throws Exception {
        try (SoftRnic dev = Traffic.device("soak-responder", "127.0.0.2", rocePort);
             RdmaContext ctx = dev.open();
             Arena arena = Arena.ofShared();
             ProtectionDomain pd = ctx.allocPd();
             CompletionQueue cq = ctx.createCq(4096);
             MemoryRegion target = pd.regMr(arena.allocate((long) Traffic.SLOT * Traffic.QPS, 4096), Access.LOCAL_WRITE | Access.REMOTE_ANY);
             MemoryRegion recvs = pd.regMr(arena.allocate((long) Traffic.RECV * Traffic.RECVS_PER_QP * Traffic.QPS, 4096), Access.LOCAL_WRITE);
             ServerSocket oob = new ServerSocket()) {
            QueuePair[] qps = new QueuePair[Traffic.QPS];
            for (int i = 0; i < qps.length; i++) qps[i] = pd.createQp(QpInitAttr.rc(cq, new QpCaps(16, Traffic.RECVS_PER_QP * 2, 1, 1, 0)));
            oob.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
            System.out.println("listening " + oob.getLocalPort());
            System.out.flush();
            try (Socket s = oob.accept()) {
                var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                var out = new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8);
                for (int i = 0; i < qps.length; i++) {
                    Endpoint local = Endpoint.of(ctx, qps[i]).withRegion(target);
                    out.println(local.toJson());
                    qps[i].connect(local, Endpoint.fromJson(in.readLine()), Traffic::patient);
                }
                for (int i = 0; i < qps.length; i++) for (int j = 0; j < Traffic.RECVS_PER_QP; j++) post(qps[i], recvs, i * Traffic.RECVS_PER_QP + j);
                Thread sampler = Thread.ofPlatform().daemon().start(() -> answer(in, out));
                WorkCompletion[] wcs = new WorkCompletion[32];
                for (int i = 0; i < wcs.length; i++) wcs[i] = new WorkCompletion();
                while (!done) {
                    int n = cq.poll(wcs);
                    if (n == 0) {
                        Thread.onSpinWait();
                        continue;
                    }
                    for (int i = 0; i < n; i++) {
                        WorkCompletion wc = wcs[i];
                        int slot = (int) wc.wrId;
                        if (wc.status != WcStatus.SUCCESS || wc.opcode != WcOpcode.RECV
                                || !Traffic.checkSend(recvs.segment(), (long) slot * Traffic.RECV, wc.byteLen)) {
                            if (errors.getAndIncrement() == 0) firstError = "receive " + slot + ": " + wc;
                            if (wc.status != WcStatus.SUCCESS) continue;
                        }
                        received.incrementAndGet();
                        post(qps[slot / Traffic.RECVS_PER_QP], recvs, slot);
                    }
                }
                sampler.join(5000);
                System.out.println("counters: " + SoakRequester.nonZero(dev.counters()));
                for (QueuePair qp : qps) qp.close();
            }
        }
    }

    private final RecvWr recv = new RecvWr(1);

    private void post(QueuePair qp, MemoryRegion recvs, int slot) {
        recv.wrId = slot;
        recv.numSge = 1;
        recv.sgList[0].set(recvs.addr() + (long) slot * Traffic.RECV, Traffic.RECV, recvs.lkey());
        qp.postRecv(recv);
    }

    /** Answers "sample" with heap, RSS, receives and errors, and "end" the same way before it stops. */
    private void answer(BufferedReader in, PrintWriter out) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                Sample s = Sample.now();
                String err = firstError;
                out.println(s.text() + " " + received.get() + " " + errors.get() + (err == null ? "" : " " + err.replace('\n', ' ')));
                if (line.equals("end")) break;
            }
        } catch (java.io.IOException e) {
            // the requester went away: stop as if it said end
        }
        done = true;
    }
}
