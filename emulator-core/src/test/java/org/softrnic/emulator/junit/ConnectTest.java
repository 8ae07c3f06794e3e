package org.softrnic.emulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Endpoint;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/** Two QPs connect in one call each from endpoints that crossed "out of band" as JSON and as bytes. */
@SoftRnicTest
class ConnectTest {
    static final int SIZE = 8192;

    static WorkCompletion poll(CompletionQueue cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        for (int i = 0; i < 1_000_000 && cq.poll(wc) == 0; i++) Thread.onSpinWait();
        return wc[0];
    }

    @Test
    void aWriteWithImmediateAndASendGoThroughEndpointsExchangedAsJsonAndBytes(RdmaContext a, RdmaContext b) {
        try (Arena arena = Arena.ofShared();
             ProtectionDomain pdA = a.allocPd();
             ProtectionDomain pdB = b.allocPd();
             CompletionQueue cqA = a.createCq(16);
             CompletionQueue cqB = b.createCq(16);
             MemoryRegion src = pdA.regMr(arena.allocate(SIZE, 4096), Access.LOCAL_WRITE);
             MemoryRegion dst = pdB.regMr(arena.allocate(SIZE, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
             QueuePair qpA = pdA.createQp(QpInitAttr.rc(cqA, QpCaps.of(8, 8)));
             QueuePair qpB = pdB.createQp(QpInitAttr.rc(cqB, QpCaps.of(8, 8)))) {
            Endpoint mineA = Endpoint.of(a, qpA);
            Endpoint mineB = Endpoint.of(b, qpB).withRegion(dst);
            Endpoint seenByA = Endpoint.fromJson(mineB.toJson());
            Endpoint seenByB = Endpoint.fromBytes(mineA.toBytes());
            qpA.connect(mineA, seenByA);
            qpB.connect(mineB, seenByB);
            assertEquals(mineA.psn(), qpA.query().sqPsn);
            assertEquals(mineB.psn(), qpA.query().rqPsn);
            assertEquals(Mtu.MTU_4096, qpA.query().pathMtu);

            for (int i = 0; i < SIZE; i++) src.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7));
            RecvWr recv = new RecvWr(1);
            recv.wrId = 9;
            qpB.postRecv(recv);
            SendWr wr = new SendWr(1).sge(src.addr(), SIZE, src.lkey());
            wr.opcode = SendOpcode.RDMA_WRITE_WITH_IMM;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.immData = 0x0badf00d;
            wr.remoteAddr = seenByA.addr();
            wr.rkey = seenByA.rkey();
            qpA.postSend(wr);
            assertEquals(WcStatus.SUCCESS, poll(cqA).status);
            WorkCompletion got = poll(cqB);
            assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, got.opcode);
            assertEquals(0x0badf00d, got.immData);
            assertEquals(-1, MemorySegment.mismatch(src.segment(), 0, SIZE, dst.segment(), 0, SIZE));
        }
    }

    @Test
    void overridesChangeTheAttributesAndAForeignLocalEndpointIsRefused(RdmaContext a, RdmaContext b, SoftRnic devA) {
        try (ProtectionDomain pd = a.allocPd();
             CompletionQueue cq = a.createCq(4);
             QueuePair qp = pd.createQp(QpInitAttr.rc(cq, QpCaps.of(4, 4)));
             QueuePair other = pd.createQp(QpInitAttr.rc(cq, QpCaps.of(4, 4)))) {
            Endpoint peer = new Endpoint(b.queryGid(1, 0), 0x123, 77, Mtu.MTU_1024, 0, 0, 0);
            VerbsException e = assertThrows(VerbsException.class, () -> other.connect(Endpoint.of(a, qp), peer));
            assertTrue(e.getMessage().contains("the local endpoint is QP"), e.getMessage());
            qp.connect(Endpoint.of(a, qp, 0, 5), peer, attr -> attr.timeout = 10);
            assertEquals(10, qp.query().timeout);
            assertEquals(Mtu.MTU_1024, qp.query().pathMtu, "the smaller MTU of the two");
            assertEquals(77, qp.query().rqPsn);
            assertEquals("rnic0", devA.name());
        }
    }

    @Test
    void aBindNamingAnotherDevicesWindowIsRefusedAtPost(RdmaContext a, RdmaContext b) {
        try (Arena arena = Arena.ofShared();
             ProtectionDomain pdA = a.allocPd();
             ProtectionDomain pdB = b.allocPd();
             CompletionQueue cq = a.createCq(4);
             MemoryRegion mr = pdA.regMr(arena.allocate(4096), Access.LOCAL_WRITE | Access.MW_BIND);
             org.softrnic.verbs.MemoryWindow theirs = pdB.allocMw(2);
             QueuePair qp = pdA.createQp(QpInitAttr.rc(cq, QpCaps.of(4, 4)))) {
            qp.connect(Endpoint.of(a, qp), Endpoint.of(b, qp));
            SendWr bind = new SendWr(0);
            bind.opcode = SendOpcode.BIND_MW;
            bind.bindMw = theirs;
            bind.bindMr = mr;
            bind.bindRkey = theirs.rkey() + 1;
            bind.bindAddr = mr.addr();
            bind.bindLength = 64;
            bind.bindAccess = Access.REMOTE_WRITE;
            VerbsException e = assertThrows(VerbsException.class, () -> qp.postSend(bind));
            assertTrue(e.getMessage().contains("belongs to another device"), e.getMessage());
        }
    }
}
