package com.example.rdma;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
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
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WorkCompletion;

/** Two RC QPs connected in one call each, with a local buffer on A and a remote one on B. */
final class RcPair implements AutoCloseable {
    static final int IMM = 0x1234abcd;

    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final MemoryRegion local;
    final MemoryRegion remote;
    final QueuePair qpA;
    final QueuePair qpB;
    final Endpoint peer;

    RcPair(RdmaContext a, RdmaContext b, Arena arena, int size) {
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(16);
        cqB = b.createCq(16);
        local = pdA.regMr(arena.allocate(size, 4096), Access.LOCAL_WRITE);
        remote = pdB.regMr(arena.allocate(size, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
        qpA = pdA.createQp(QpInitAttr.rc(cqA, QpCaps.of(16, 16)));
        qpB = pdB.createQp(QpInitAttr.rc(cqB, QpCaps.of(16, 16)));
        Endpoint endA = Endpoint.of(a, qpA);
        peer = Endpoint.of(b, qpB).withRegion(remote);
        qpA.connect(endA, peer);
        qpB.connect(peer, endA);
    }

    void fill(int seed) {
        for (long i = 0; i < local.length(); i++) local.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * seed));
    }

    void postReceive() {
        RecvWr wr = new RecvWr(1);
        wr.numSge = 1;
        wr.sgList[0].set(remote.addr(), (int) remote.length(), remote.lkey());
        qpB.postRecv(wr);
    }

    /** Posts one signalled request of {@code size} bytes from the local buffer and waits for its completion. */
    WorkCompletion post(SendOpcode op, int size) {
        SendWr wr = new SendWr(1).sge(local.addr(), size, local.lkey());
        wr.opcode = op;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.immData = IMM;
        wr.remoteAddr = peer.addr();
        wr.rkey = peer.rkey();
        qpA.postSend(wr);
        return completion();
    }

    /** The next completion of A's requests. */
    WorkCompletion completion() {
        return poll(cqA);
    }

    /** The next completion of B's receives. */
    WorkCompletion received() {
        return poll(cqB);
    }

    private static WorkCompletion poll(CompletionQueue cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        while (cq.poll(wc) == 0) Thread.onSpinWait();
        return wc[0];
    }

    @Override
    public void close() {
        qpB.close();
        qpA.close();
        remote.close();
        local.close();
        cqB.close();
        cqA.close();
        pdB.close();
        pdA.close();
    }
}
