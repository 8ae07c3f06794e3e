package com.example.rdma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.softrnic.emulator.config.SoftRnicConfig;
import org.softrnic.emulator.soft.SoftFabric;
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
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WorkCompletion;

/** A program of one's own: two soft RNICs it makes itself, one SEND from A into the receive B posted. */
public final class HelloRdma {
    public static void main(String[] args) {
        byte[] hello = "hello, RDMA".getBytes(StandardCharsets.US_ASCII);
        try (SoftFabric fabric = SoftFabric.virtual(1); // one thread, virtual time: the same run every time
             SoftRnic rnicA = fabric.add(SoftRnicConfig.builder().name("rnicA").gid("10.0.0.1").build());
             SoftRnic rnicB = fabric.add(SoftRnicConfig.builder().name("rnicB").gid("10.0.0.2").build());
             Arena arena = Arena.ofShared();
             RdmaContext a = rnicA.open(); RdmaContext b = rnicB.open();
             ProtectionDomain pdA = a.allocPd(); ProtectionDomain pdB = b.allocPd();
             CompletionQueue cqA = a.createCq(16); CompletionQueue cqB = b.createCq(16);
             MemoryRegion out = pdA.regMr(arena.allocate(64), Access.LOCAL_WRITE);
             MemoryRegion in = pdB.regMr(arena.allocate(64), Access.LOCAL_WRITE);
             QueuePair qpA = pdA.createQp(QpInitAttr.rc(cqA, QpCaps.of(16, 16)));
             QueuePair qpB = pdB.createQp(QpInitAttr.rc(cqB, QpCaps.of(16, 16)))) {
            Endpoint endA = Endpoint.of(a, qpA);
            Endpoint endB = Endpoint.of(b, qpB);
            qpA.connect(endA, endB);
            qpB.connect(endB, endA);

            qpB.postRecv(new RecvWr(1).sge(in.addr(), 64, in.lkey())); // a SEND needs a receive posted first
            out.segment().copyFrom(MemorySegment.ofArray(hello));
            qpA.postSend(new SendWr(1).sge(out.addr(), hello.length, out.lkey())); // a SEND, unsignalled: only B's receive completes

            WorkCompletion[] wc = {new WorkCompletion()};
            while (cqB.poll(wc) == 0) Thread.onSpinWait();
            byte[] got = in.segment().asSlice(0, wc[0].byteLen).toArray(ValueLayout.JAVA_BYTE);
            System.out.println("B received " + wc[0] + ": " + new String(got, StandardCharsets.US_ASCII));
        }
    }
}
