package org.softrnic.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import org.junit.jupiter.api.Test;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.time.VirtualClock;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.PacketBuffer;

/** A link that refuses packets (a full socket buffer): rxe's send_err counts them and go-back-N recovers. */
class SendErrorTest {
    private final VirtualClock clock = new VirtualClock();
    private final ArrayDeque<byte[]> toA = new ArrayDeque<>();
    private final ArrayDeque<byte[]> toB = new ArrayDeque<>();
    private int refuse = 3;

    private static byte[] copy(PacketBuffer buf, int off, int len) {
        byte[] b = new byte[len];
        MemorySegment.copy(buf.segment, ValueLayout.JAVA_BYTE, off, b, 0, len);
        return b;
    }

    @Test
    void refusedPacketsCountAsSendErrAndAreRetransmitted() {
        Nic a = new Nic(NicConfig.of("a", Gid.parse("192.0.2.1"), 1), clock, (buf, off, len) -> {
            if (refuse > 0) {
                refuse--;
                return false;
            }
            toB.add(copy(buf, off, len));
            return true;
        });
        Nic b = new Nic(NicConfig.of("b", Gid.parse("192.0.2.2"), 2), clock, (buf, off, len) -> toA.add(copy(buf, off, len)));
        ProtectionDomain pda = a.allocPd();
        ProtectionDomain pdb = b.allocPd();
        MemoryRegion mra = a.regMr(pda, Arena.ofAuto().allocate(8192), Access.LOCAL_WRITE);
        MemoryRegion mrb = b.regMr(pdb, Arena.ofAuto().allocate(8192), Access.LOCAL_WRITE | Access.REMOTE_ANY);
        CompletionQueue cqa = a.createCq(16);
        CompletionQueue cqb = b.createCq(16);
        QueuePair qa = a.createQp(pda, QpType.RC, cqa, cqa, null, QpCaps.of(8, 8), false);
        QueuePair qb = b.createQp(pdb, QpType.RC, cqb, cqb, null, QpCaps.of(8, 8), false);
        a.modifyToRts(qa, QpAttr.rcConnect(Gid.parse("192.0.2.2"), qb.qpn(), Mtu.MTU_1024));
        b.modifyToRts(qb, QpAttr.rcConnect(Gid.parse("192.0.2.1"), qa.qpn(), Mtu.MTU_1024));
        for (int i = 0; i < 4096; i++) mra.segment().set(ValueLayout.JAVA_BYTE, i, (byte) i);
        SendWr w = new SendWr(1);
        w.opcode = SendOpcode.RDMA_WRITE;
        w.sendFlags = SendFlags.SIGNALED;
        w.numSge = 1;
        w.sgList[0].set(mra.iova(), 4096, mra.lkey());
        w.remoteAddr = mrb.iova();
        w.rkey = mrb.rkey();
        a.postSend(qa, w);

        WorkCompletion[] wc = {new WorkCompletion()};
        int completions = 0;
        for (int step = 0; step < 10_000 && completions == 0; step++) {
            while (!toB.isEmpty() || !toA.isEmpty()) {
                if (!toB.isEmpty()) { byte[] p = toB.poll(); b.receive(PacketBuffer.wrap(p), 0, p.length); }
                if (!toA.isEmpty()) { byte[] p = toA.poll(); a.receive(PacketBuffer.wrap(p), 0, p.length); }
            }
            completions = cqa.poll(wc);
            if (completions == 0) {
                clock.advanceTo(Math.max(clock.nanoTime() + 1, Math.min(a.nextDeadline(), b.nextDeadline())));
                a.runTimers();
                b.runTimers();
            }
        }
        assertEquals(1, completions);
        assertEquals(WcStatus.SUCCESS, wc[0].status);
        assertEquals(-1, MemorySegment.mismatch(mra.segment(), 0, 4096, mrb.segment(), 0, 4096));
        assertEquals(3, a.counters().get(Counter.SEND_ERR), "the three refused packets");
        // sent_pkts counts only what left: the 4th packet of the first try, then all four again after the NAK
        assertEquals(1 + 4, a.counters().get(Counter.SENT_PKTS));
        assertTrue(a.counters().get(Counter.COMPLETER_RETRY_ERR) > 0, "recovered by retransmission");
    }
}
