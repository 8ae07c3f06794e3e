package org.softrnic.nic.cm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.softrnic.nic.Diagnostics;
import org.softrnic.nic.Nic;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressHandle;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.mad.Mad;

/**
 * QP1 as the kernel's MAD layer runs it for the CM: the GSI QP, a ring of receive buffers (each a 40-byte GRH
 * area and a 256-byte MAD) kept posted, and send buffers for MADs going out to a peer's QP1.
 */
final class MadPort {
    /** What a received MAD came with: the peer's address from the GRH area, and the local GID it was sent to. */
    record From(Gid source, Gid destination, int sgidIndex) {}

    interface Receiver {
        void mad(From from, MemorySegment mad);
    }

    private static final int GRH = 40;
    private static final int SLOT = GRH + Mad.SIZE;
    private static final int RECVS = 64;
    private static final int SENDS = 64;

    private final Nic nic;
    private final QueuePair gsi;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final MemoryRegion recvMr;
    private final MemoryRegion sendMr;
    private final WorkCompletion[] wcs = new WorkCompletion[16];
    private final RecvWr recv = new RecvWr(1);
    private final SendWr send = new SendWr(1);
    private long sendsPosted;
    private long sendsDone;

    MadPort(Nic nic) {
        this.nic = nic;
        ProtectionDomain pd = nic.allocPd();
        sendCq = nic.createCq(SENDS);
        recvCq = nic.createCq(RECVS);
        gsi = nic.createGsi(pd, sendCq, recvCq, QpCaps.of(SENDS, RECVS));
        Arena arena = Arena.ofAuto();
        recvMr = nic.regMr(pd, arena.allocate((long) SLOT * RECVS, 8), Access.LOCAL_WRITE);
        sendMr = nic.regMr(pd, arena.allocate((long) Mad.SIZE * SENDS, 8), 0);
        for (int i = 0; i < wcs.length; i++) wcs[i] = new WorkCompletion();
        for (int i = 0; i < RECVS; i++) postRecv(i);
    }

    private void postRecv(int slot) {
        recv.wrId = slot;
        recv.numSge = 1;
        recv.sgList[0].set(recvMr.iova() + (long) slot * SLOT, SLOT, recvMr.lkey());
        nic.postRecv(gsi, recv);
    }

    /**
     * Sends {@code mad} to the QP1 at {@code av}; false when every send buffer is still in flight (the MAD is
     * lost as on a full send queue, and a timer's retransmission covers it).
     */
    boolean send(AddressVector av, byte[] mad) {
        reapSends();
        if (sendsPosted - sendsDone >= SENDS) return false;
        int slot = (int) (sendsPosted % SENDS);
        MemorySegment.copy(mad, 0, sendMr.segment(), ValueLayout.JAVA_BYTE, (long) slot * Mad.SIZE, Mad.SIZE);
        send.wrId = sendsPosted;
        send.opcode = SendOpcode.SEND;
        send.sendFlags = SendFlags.SIGNALED;
        send.numSge = 1;
        send.sgList[0].set(sendMr.iova() + (long) slot * Mad.SIZE, Mad.SIZE, sendMr.lkey());
        send.ah = new Handle(av);
        send.remoteQpn = Nic.GSI_QPN;
        send.remoteQkey = Nic.GSI_QKEY;
        sendsPosted++;
        nic.postSend(gsi, send);
        return true;
    }

    private void reapSends() {
        int n;
        while ((n = nic.pollCq(sendCq, wcs)) > 0) sendsDone += n;
    }

    /** Hands every MAD received since the last call to {@code to}, and posts its buffer again. */
    boolean poll(Receiver to) {
        if (recvCq.size() == 0) return false; // the usual case: a data packet, nothing for QP1
        reapSends();
        boolean any = false;
        int n;
        while ((n = nic.pollCq(recvCq, wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = wcs[i];
                int slot = (int) wc.wrId;
                if (wc.status == WcStatus.WR_FLUSH_ERR) continue; // the QP is being destroyed
                any = true;
                // every other completion gives its buffer back, a datagram too long for it (LOC_LEN_ERR) included:
                // else 64 of them would leave QP1 deaf
                try {
                    if (wc.status == WcStatus.SUCCESS && wc.byteLen == SLOT) {
                        MemorySegment buf = recvMr.segment().asSlice((long) slot * SLOT, SLOT);
                        to.mad(from(buf), buf.asSlice(GRH, Mad.SIZE));
                    } else {
                        nic.counters().inc(org.softrnic.nic.Counter.CM_RX_DROPPED);
                    }
                } catch (RuntimeException e) {
                    // a MAD the CM could not take must not stop the batch, nor the device: counted, and dropped
                    nic.counters().inc(org.softrnic.nic.Counter.CM_RX_DROPPED);
                    nic.diagnostics().refuse(nic.clock().nanoTime(), Nic.GSI_QPN, Diagnostics.NO_PSN, "a MAD QP1 could not take: " + e);
                } finally {
                    postRecv(slot);
                }
            }
        }
        return any;
    }

    /** The addresses in the GRH area: an IPv4 header in its last 20 bytes, or an IPv6 header filling it. */
    private From from(MemorySegment grh) {
        Gid src;
        Gid dst;
        if ((grh.get(ValueLayout.JAVA_BYTE, 20) & 0xf0) == 0x40) {
            src = Gid.of(ipv4(grh, 32));
            dst = Gid.of(ipv4(grh, 36));
        } else {
            src = Gid.of(grh.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE));
            dst = Gid.of(grh.asSlice(24, 16).toArray(ValueLayout.JAVA_BYTE));
        }
        List<Gid> gids = nic.gids();
        return new From(src, dst, Math.max(0, gids.indexOf(dst)));
    }

    private static java.net.InetAddress ipv4(MemorySegment s, int at) {
        try {
            return java.net.InetAddress.getByAddress(s.asSlice(at, 4).toArray(ValueLayout.JAVA_BYTE));
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private record Handle(AddressVector attr) implements AddressHandle {
        @Override
        public void close() {
        }
    }
}
