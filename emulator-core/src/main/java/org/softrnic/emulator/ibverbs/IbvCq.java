package org.softrnic.emulator.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.softrnic.emulator.cq.CqEventCount;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WorkCompletion;

/**
 * struct ibv_cq. Polling goes through the ops table into a preallocated array of struct ibv_wc and copies
 * each into the caller's WorkCompletion: no allocation per poll.
 */
final class IbvCq extends IbvResource implements CompletionQueue {
    /** The most one poll takes from the device: a larger request returns this many, as ibv_poll_cq may. */
    static final int BATCH = 64;
    private static final ValueLayout.OfInt BE_INT = JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final IbvContext context;
    private final IbvChannel channel;
    private final MemorySegment pollFn;
    private final MemorySegment notifyFn;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment wcs = arena.allocate(WC_SIZE * BATCH, 8);
    private final CqEventCount events = new CqEventCount();

    IbvCq(IbvContext context, IbvChannel channel, MemorySegment cq) {
        super(cq.reinterpret(CQ_CQE + 4), channel == null ? new IbvResource[] {context} : new IbvResource[] {context, channel});
        this.context = context;
        this.channel = channel;
        this.pollFn = IbvOps.op(context.ptr, OPS_POLL_CQ);
        this.notifyFn = IbvOps.op(context.ptr, OPS_REQ_NOTIFY_CQ);
    }

    @Override
    String describe() {
        return "CQ 0x" + Long.toHexString(ptr.address());
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_cq";
    }

    /** ibv_destroy_cq waits for every event to be acknowledged, so with some outstanding it would hang: EBUSY. */
    @Override
    void destroy() {
        if (channel == null) {
            destroyNow();
            return;
        }
        // getCqEvent counts an event under the channel's monitor: holding it, none can be half handed out
        synchronized (channel) {
            destroyNow();
        }
    }

    private void destroyNow() {
        events.checkNoneOutstanding(describe());
        IbvLib.check(destroyVerb(), describe(), IbvLib.get().destroyCq, ptr);
        context.forget(ptr, this);
        arena.close();
    }

    void eventDelivered() {
        events.delivered();
    }

    @Override
    public int cqe() {
        return live("ibv_cq").get(JAVA_INT, CQ_CQE);
    }

    @Override
    public synchronized int poll(WorkCompletion[] out, int max) {
        int want = Math.min(Math.min(max, out.length), BATCH);
        int n;
        try {
            n = (int) IbvOps.POLL_CQ.invokeExact(pollFn, live("ibv_poll_cq"), want, wcs);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (n < 0) throw new VerbsException("ibv_poll_cq", -n > 0 && Errno.of(-n) != null ? -n : Errno.EINVAL.value, describe() + " returned " + n);
        for (int i = 0; i < n; i++) read(wcs, i * WC_SIZE, out[i]);
        return n;
    }

    private static void read(MemorySegment s, long at, WorkCompletion wc) {
        wc.wrId = s.get(JAVA_LONG, at + WC_WR_ID);
        int status = s.get(JAVA_INT, at + WC_STATUS);
        wc.status = IbvCodes.status(status);
        wc.opcode = IbvCodes.opcode(s.get(JAVA_INT, at + WC_OPCODE));
        wc.vendorErr = s.get(JAVA_INT, at + WC_VENDOR_ERR);
        wc.byteLen = s.get(JAVA_INT, at + WC_BYTE_LEN);
        wc.wcFlags = s.get(JAVA_INT, at + WC_WC_FLAGS);
        // imm_data is __be32 (the wire's order, which the model's int holds as a number); invalidated_rkey is host order
        wc.immData = (wc.wcFlags & WorkCompletion.WC_WITH_INV) != 0 ? s.get(JAVA_INT, at + WC_IMM_DATA) : s.get(BE_INT, at + WC_IMM_DATA);
        wc.qpNum = s.get(JAVA_INT, at + WC_QP_NUM);
        wc.srcQp = s.get(JAVA_INT, at + WC_SRC_QP);
        wc.pkeyIndex = Short.toUnsignedInt(s.get(JAVA_SHORT, at + WC_PKEY_INDEX));
        wc.slid = Short.toUnsignedInt(s.get(JAVA_SHORT, at + WC_SLID));
        wc.sl = Byte.toUnsignedInt(s.get(JAVA_BYTE, at + WC_SL));
        wc.dlidPathBits = Byte.toUnsignedInt(s.get(JAVA_BYTE, at + WC_DLID_PATH_BITS));
    }

    @Override
    public synchronized void reqNotify(boolean solicitedOnly) {
        int rc;
        try {
            rc = (int) IbvOps.REQ_NOTIFY_CQ.invokeExact(notifyFn, live("ibv_req_notify_cq"), solicitedOnly ? 1 : 0);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (rc != 0) throw IbvLib.failed("ibv_req_notify_cq", rc, describe());
    }

    @Override
    public synchronized void ackEvents(int n) {
        MemorySegment cq = live("ibv_ack_cq_events");
        events.ack(n);
        IbvLib.call(IbvLib.get().ackCqEvents, cq, n);
    }
}
