package org.softrnic.emulator.soft;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.emulator.config.FaultConfig;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * Two soft RNICs, each with a context, PD, CQ, a registered buffer and one connected RC QP, on one of the
 * fabrics: the threaded in-process one, the virtual-time one, or UDP on loopback. Closes everything in
 * the right order.
 */
final class ApiPair implements AutoCloseable {
    /**
     * UDP_INLINE: UDP with {@code progress: inline}, both devices driven by the test's thread. FRAMES: two frame
     * ports on one qemu-style socket link (A listens, B connects), ARP included; FRAMES6 the same over IPv6 with
     * neighbour discovery; FRAMES_LOSSY drops 5 % each way at A.
     */
    enum Kind { THREADED, VIRTUAL, UDP, UDP_INLINE, FRAMES, FRAMES6, FRAMES_LOSSY }

    /** The pair being tested, whose inline devices {@link #await} drives. */
    private static ApiPair current;

    static final int SIZE = 1 << 20;
    static final int ALL_ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;

    final Kind kind;
    final SoftFabric fabric;
    final SoftRnic devA;
    final SoftRnic devB;
    final RdmaContext a;
    final RdmaContext b;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final MemoryRegion mrA;
    final MemoryRegion mrB;
    final QueuePair qpA;
    final QueuePair qpB;
    private final Arena arena = Arena.ofShared();
    private final List<AutoCloseable> extra = new ArrayList<>();

    ApiPair(Kind kind, FaultConfig faults, Mtu mtu) {
        this(kind, faults, mtu, b -> b);
    }

    /** The pair with {@code more} set on both devices' configurations (THREADED and VIRTUAL only). */
    ApiPair(Kind kind, FaultConfig faults, Mtu mtu, java.util.function.UnaryOperator<SoftRnicConfig.Builder> more) {
        this.kind = kind;
        switch (kind) {
            case THREADED, VIRTUAL -> {
                fabric = kind == Kind.THREADED ? SoftFabric.threaded() : SoftFabric.virtual(7);
                devA = fabric.add(more.apply(config("pairA", "10.1.0.1", "inproc", faults, mtu)).build());
                devB = fabric.add(more.apply(config("pairB", "10.1.0.2", "inproc", faults, mtu)).build());
            }
            case FRAMES, FRAMES6, FRAMES_LOSSY -> {
                fabric = null;
                int port = freePort();
                String loss = kind == Kind.FRAMES_LOSSY ? ",loss=0.05,seed=3" : "";
                String ipA = kind == Kind.FRAMES6 ? "fd00:5::1" : "10.9.0.1";
                String ipB = kind == Kind.FRAMES6 ? "fd00:5::2" : "10.9.0.2";
                String prefix = kind == Kind.FRAMES6 ? "/64" : "/24";
                devA = SoftRnic.open(config("pairA", ipA, "qemu-listen:" + port + ",ip=" + ipA + prefix + loss, faults, mtu).build());
                devB = SoftRnic.open(config("pairB", ipB, "qemu-connect:" + port + ",ip=" + ipB + prefix, faults, mtu).build());
            }
            default -> {
                fabric = null;
                // two sockets on 127.0.0.1 and .2, on kernel-chosen ports that are also their RoCE ports;
                // each QP's address vector names the peer's (valid RoCEv2 on the wire, no routes)
                String progress = kind == Kind.UDP_INLINE ? "inline" : "thread";
                devA = SoftRnic.open(config("pairA", "127.0.0.1", "udp:127.0.0.1:0", faults, mtu).progress(progress).build());
                devB = SoftRnic.open(config("pairB", "127.0.0.2", "udp:127.0.0.2:0", faults, mtu).progress(progress).build());
            }
        }
        a = devA.open();
        b = devB.open();
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(1024);
        cqB = b.createCq(1024);
        mrA = pdA.regMr(arena.allocate(SIZE, 4096), ALL_ACCESS);
        mrB = pdB.regMr(arena.allocate(SIZE, 4096), ALL_ACCESS);
        qpA = pdA.createQp(QpInitAttr.rc(cqA, new QpCaps(256, 256, 2, 2, 64)));
        qpB = pdB.createQp(QpInitAttr.rc(cqB, new QpCaps(256, 256, 2, 2, 64)));
        qpA.modifyToRts(connect(b, qpB, mtu));
        qpB.modifyToRts(connect(a, qpA, mtu));
        current = this;
    }

    /** perftest's attributes towards {@code peer}'s QP, at the peer device's RoCE port. */
    QpAttr connect(RdmaContext peer, QueuePair peerQp, Mtu mtu) {
        QpAttr attr = QpAttr.rcConnect(peer.queryGid(1, 0), peerQp.qpn(), mtu);
        attr.ahAttr = attr.ahAttr.withUdpPort(((SoftRnic) peer.device()).rocePort());
        // a lossless frame link's tests count retransmissions as losses; on a 2-CPU machine its device, socket
        // and test threads can stall past perftest's 67 ms ACK timeout (CI saw completer_retry_err 3 with nothing
        // dropped), so they wait about a second (timeout 18) before sending again
        if (kind == Kind.FRAMES || kind == Kind.FRAMES6) attr.timeout = 18;
        return attr;
    }

    private static int freePort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static SoftRnicConfig.Builder config(String name, String gid, String link, FaultConfig faults, Mtu mtu) {
        return SoftRnicConfig.builder().name(name).gid(gid).link(link).mtu(mtu.bytes).faults(faults);
    }

    MemorySegment memA() {
        return mrA.segment();
    }

    MemorySegment memB() {
        return mrB.segment();
    }

    /** Keeps {@code c} to close before the pair's own objects. */
    <T extends AutoCloseable> T keep(T c) {
        extra.add(c);
        return c;
    }

    /** Polls until {@code n} completions arrived (or 20 s passed); returns them. */
    static List<WorkCompletion> await(CompletionQueue cq, int n) {
        List<WorkCompletion> got = new ArrayList<>();
        WorkCompletion[] batch = new WorkCompletion[16];
        for (int i = 0; i < batch.length; i++) batch[i] = new WorkCompletion();
        long end = System.nanoTime() + 20_000_000_000L;
        while (got.size() < n) {
            int k = cq.poll(batch, Math.min(batch.length, n - got.size()));
            for (int i = 0; i < k; i++) got.add(new WorkCompletion().copyFrom(batch[i]));
            if (k == 0 && current != null) {
                current.devA.progress(); // inline devices move only when their thread drives them
                current.devB.progress();
            }
            if (k == 0 && System.nanoTime() > end) throw new AssertionError("timed out with " + got.size() + " of " + n + " completions");
        }
        return got;
    }

    static WorkCompletion awaitOk(CompletionQueue cq) {
        WorkCompletion wc = await(cq, 1).getFirst();
        if (wc.status != WcStatus.SUCCESS) throw new AssertionError("completion failed: " + wc);
        return wc;
    }

    @Override
    public void close() throws Exception {
        for (int i = extra.size() - 1; i >= 0; i--) extra.get(i).close();
        for (AutoCloseable c : new AutoCloseable[] {qpA, qpB, mrA, mrB, cqA, cqB, pdA, pdB, a, b}) c.close();
        if (fabric != null) fabric.close();
        else {
            devA.close();
            devB.close();
        }
        arena.close();
    }
}
