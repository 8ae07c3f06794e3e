package org.softrnic.cli.rping;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.cm.CmId;

/**
 * One rping connection's verbs objects, as rping_setup_qp and rping_setup_buffers make them: a CQ of 32, an RC
 * QP of 16 sends and 2 receives, a 16-byte receive buffer and send buffer (struct rping_rdma_info: address,
 * rkey and size, big-endian), the RDMA buffer of -S bytes and, on the client, the start buffer.
 */
final class RpingConnection implements AutoCloseable {
    static final int INFO = 16;
    static final long RECV_WRID = 1, SEND_WRID = 2, RDMA_WRID = 3;
    private static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    final CmId id;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final QueuePair qp;
    private final Arena arena = Arena.ofShared();
    final MemoryRegion recvMr;
    final MemoryRegion sendMr;
    final MemoryRegion rdmaMr;
    /** The client's: what the server READs. */
    final MemoryRegion startMr;

    RpingConnection(CmId id, int size, boolean client) {
        this.id = id;
        pd = id.verbs().allocPd();
        cq = id.verbs().createCq(32);
        qp = id.createQp(pd, new QpInitAttr(org.softrnic.verbs.QpType.RC, cq, cq, null, new QpCaps(16, 2, 1, 1, 0), false));
        int remote = Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE;
        recvMr = pd.regMr(arena.allocate(INFO, 8), Access.LOCAL_WRITE);
        sendMr = pd.regMr(arena.allocate(INFO, 8), 0);
        rdmaMr = pd.regMr(arena.allocate(size, 8), remote);
        startMr = client ? pd.regMr(arena.allocate(size, 8), remote) : null;
    }

    void postRecv() {
        RecvWr wr = new RecvWr(1);
        wr.wrId = RECV_WRID;
        wr.numSge = 1;
        wr.sgList[0].set(recvMr.addr(), INFO, recvMr.lkey());
        qp.postRecv(wr);
    }

    /** rping_format_send: {@code mr}'s address and rkey and {@code size}, big-endian, sent to the peer. */
    void sendInfo(MemoryRegion mr, int size) {
        MemorySegment s = sendMr.segment();
        if (mr == null) {
            s.fill((byte) 0); // the server's "go ahead" carries nothing: its buffer is never formatted
        } else {
            s.set(BE64, 0, mr.addr());
            s.set(BE32, 8, mr.rkey());
            s.set(BE32, 12, size);
        }
        SendWr wr = new SendWr(1).sge(sendMr.addr(), INFO, sendMr.lkey());
        wr.wrId = SEND_WRID;
        wr.opcode = SendOpcode.SEND;
        wr.sendFlags = SendFlags.SIGNALED;
        qp.postSend(wr);
    }

    /** The address, rkey and length the peer's last SEND named. */
    record Info(long addr, int rkey, int length) {}

    Info receivedInfo() {
        MemorySegment s = recvMr.segment();
        return new Info(s.get(BE64, 0), s.get(BE32, 8), s.get(BE32, 12));
    }

    /** An RDMA READ or WRITE of {@code length} bytes between the RDMA buffer and the peer's {@code to}. */
    void rdma(SendOpcode op, Info to, int length) {
        SendWr wr = new SendWr(1).sge(rdmaMr.addr(), length, rdmaMr.lkey());
        wr.wrId = RDMA_WRID;
        wr.opcode = op;
        wr.sendFlags = SendFlags.SIGNALED;
        wr.remoteAddr = to.addr();
        wr.rkey = to.rkey();
        qp.postSend(wr);
    }

    /** The C string at the start of {@code mr} (up to its first NUL). */
    static String string(MemoryRegion mr) {
        MemorySegment s = mr.segment();
        int n = 0;
        while (n < s.byteSize() && s.get(ValueLayout.JAVA_BYTE, n) != 0) n++;
        return new String(s.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** librdmacm's order: the QP, the regions, the CQ, the PD; the id last. */
    @Override
    public void close() {
        qp.close();
        for (MemoryRegion mr : new MemoryRegion[] {startMr, rdmaMr, sendMr, recvMr}) if (mr != null) mr.close();
        cq.close();
        pd.close();
        id.close();
        arena.close();
    }
}
