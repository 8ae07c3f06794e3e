package com.example.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.junit.SoftRnicTest;
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

/** A's RDMA WRITE lands in B's memory byte for byte: two soft RNICs, one RC QP each, nothing else needed. */
@SoftRnicTest
class FirstTest {
    @Test
    void aWriteLandsByteForByte(RdmaContext a, RdmaContext b) {
        try (Arena arena = Arena.ofShared();
             ProtectionDomain pdA = a.allocPd(); ProtectionDomain pdB = b.allocPd();
             CompletionQueue cqA = a.createCq(16); CompletionQueue cqB = b.createCq(16);
             MemoryRegion src = pdA.regMr(arena.allocate(4096), Access.LOCAL_WRITE);
             MemoryRegion dst = pdB.regMr(arena.allocate(4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
             // QpCaps.of(maxSendWr, maxRecvWr): and 4 SGEs per request, 64 bytes of inline data
             QueuePair qpA = pdA.createQp(QpInitAttr.rc(cqA, QpCaps.of(16, 16)));
             QueuePair qpB = pdB.createQp(QpInitAttr.rc(cqB, QpCaps.of(16, 16)))) {
            // what each side would send the other out of band; B's names the region A may write
            Endpoint endA = Endpoint.of(a, qpA);
            Endpoint endB = Endpoint.of(b, qpB).withRegion(dst);
            qpA.connect(endA, endB); // RESET -> INIT -> RTR -> RTS, as three ibv_modify_qp calls would
            qpB.connect(endB, endA);

            src.segment().fill((byte) 42);
            SendWr wr = new SendWr(1).sge(src.addr(), 4096, src.lkey()); // one SGE: address, length, lkey
            wr.opcode = SendOpcode.RDMA_WRITE;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.remoteAddr = endB.addr();
            wr.rkey = endB.rkey();
            qpA.postSend(wr);

            WorkCompletion[] wc = {new WorkCompletion()};
            while (cqA.poll(wc) == 0) Thread.onSpinWait(); // on the default fabric each poll runs it in virtual time
            assertEquals(WcStatus.SUCCESS, wc[0].status);
            assertEquals(-1, src.segment().mismatch(dst.segment()));
        }
    }
}
