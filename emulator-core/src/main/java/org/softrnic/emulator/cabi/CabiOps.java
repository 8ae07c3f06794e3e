package org.softrnic.emulator.cabi;

import static org.softrnic.emulator.rdmacore.RdmaCoreLayout.*;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.WorkCompletion;

/**
 * The verbs a C program calls inline, through its context's ops table (ibv_post_send, ibv_post_recv, ibv_poll_cq,
 * ibv_req_notify_cq): upcall stubs made once, whose pointers take the C types' machine words as longs, so that a call
 * makes no segment. Each reads the program's work requests, or writes its completions, in place.
 */
final class CabiOps {
    private static final SendOpcode[] OPCODES = new SendOpcode[32];
    private static final MemorySegment POST_SEND = stub("post_send", ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
    private static final MemorySegment POST_RECV = stub("post_recv", ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
    private static final MemorySegment POST_SRQ_RECV = stub("post_srq_recv", ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
    private static final MemorySegment POLL_CQ = stub("poll_cq", ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG);
    private static final MemorySegment REQ_NOTIFY_CQ = stub("req_notify_cq", ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT);
    /** verbs_context's create_qp_ex: a pointer back, NULL (and errno) on failure. */
    static final MemorySegment CREATE_QP_EX = Cabi.upcall(CabiQps.class, "create_qp_ex",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), "ibv_create_qp_ex", 'n');

    static {
        for (SendOpcode o : SendOpcode.values()) if (o.value >= 0 && o.value < OPCODES.length) OPCODES[o.value] = o;
    }

    private CabiOps() {
    }

    private static MemorySegment stub(String name, ValueLayout... args) {
        // ibv_poll_cq fails with a negative number: its errno would read as that many completions
        return Cabi.upcall(CabiOps.class, name, FunctionDescriptor.of(ValueLayout.JAVA_INT, args), "ibv_" + name,
                name.equals("poll_cq") ? 'm' : 'i');
    }

    /** Points a new context's ops at the stubs. */
    static void install(MemorySegment context) {
        context.set(ValueLayout.ADDRESS, OPS_POST_SEND, POST_SEND);
        context.set(ValueLayout.ADDRESS, OPS_POST_RECV, POST_RECV);
        context.set(ValueLayout.ADDRESS, OPS_POST_SRQ_RECV, POST_SRQ_RECV);
        context.set(ValueLayout.ADDRESS, OPS_POLL_CQ, POLL_CQ);
        context.set(ValueLayout.ADDRESS, OPS_REQ_NOTIFY_CQ, REQ_NOTIFY_CQ);
    }

    static int post_send(long qp, long wr, long badWr) {
        CabiQps.Qp q = CabiQps.qp(qp);
        synchronized (q) {
            for (long w = wr; w != 0; w = CabiMemory.getLong(w + SWR_NEXT)) {
                try {
                    read(w, q.send, q);
                    q.qp.postSend(q.send);
                } catch (VerbsException e) {
                    if (badWr != 0) CabiMemory.setLong(badWr, w);
                    return e.errnoValue();
                }
            }
        }
        return 0;
    }

    /** A struct ibv_send_wr into {@code s}. */
    private static void read(long w, SendWr s, CabiQps.Qp q) {
        boolean ud = q.qp.type() == org.softrnic.verbs.QpType.UD;
        int numSge = CabiMemory.getInt(w + SWR_NUM_SGE);
        if (numSge < 0 || numSge > s.sgList.length) {
            throw Cabi.error("ibv_post_send", 22, "num_sge " + numSge + " is more than the QP's max_send_sge " + s.sgList.length);
        }
        int op = CabiMemory.getInt(w + SWR_OPCODE);
        if (op < 0 || op >= OPCODES.length || OPCODES[op] == null) throw Cabi.error("ibv_post_send", 22, "opcode " + op);
        s.clearHandles();
        s.wrId = CabiMemory.getLong(w + SWR_WR_ID);
        s.opcode = OPCODES[op];
        s.sendFlags = CabiMemory.getInt(w + SWR_SEND_FLAGS);
        s.numSge = numSge;
        long sg = CabiMemory.getLong(w + SWR_SG_LIST);
        if ((s.sendFlags & SendFlags.INLINE) != 0) {
            // the bytes are copied now, from wherever they are: ibv_post_send(3) does not check an inline SGE's lkey
            s.numSge = 0;
            q.batchErrno = 0;
            for (int i = 0; i < numSge; i++) {
                long e = sg + i * SGE_SIZE;
                if (!CabiQps.inline(q, s, 0, CabiMemory.getLong(e + SGE_ADDR), Integer.toUnsignedLong(CabiMemory.getInt(e + SGE_LENGTH)))) {
                    String why = q.batchWhy;
                    q.batchErrno = 0;
                    q.batchWhy = null;
                    throw Cabi.error("ibv_post_send", 22, why);
                }
            }
        } else {
            for (int i = 0; i < numSge; i++) {
                long e = sg + i * SGE_SIZE;
                s.sgList[i].set(CabiMemory.getLong(e + SGE_ADDR), CabiMemory.getInt(e + SGE_LENGTH), CabiMemory.getInt(e + SGE_LKEY));
            }
        }
        int immOrRkey = CabiMemory.getInt(w + SWR_IMM_DATA);
        s.immData = Integer.reverseBytes(immOrRkey); // __be32 in memory; the model holds the number
        s.invalidateRkey = immOrRkey;                // invalidate_rkey: host order
        if (s.opcode.isAtomic()) {
            s.remoteAddr = CabiMemory.getLong(w + SWR_ATOMIC_REMOTE_ADDR);
            s.compareAdd = CabiMemory.getLong(w + SWR_ATOMIC_COMPARE_ADD);
            s.swap = CabiMemory.getLong(w + SWR_ATOMIC_SWAP);
            s.rkey = CabiMemory.getInt(w + SWR_ATOMIC_RKEY);
        } else {
            s.remoteAddr = CabiMemory.getLong(w + SWR_RDMA_REMOTE_ADDR);
            s.rkey = CabiMemory.getInt(w + SWR_RDMA_RKEY);
        }
        if (ud) {
            long ah = CabiMemory.getLong(w + SWR_UD_AH);
            var held = ah == 0 ? null : CabiResources.AHS.get(CabiMemory.getInt(ah + AH_HANDLE));
            if (held == null || held.struct().address() != ah) throw Cabi.error("ibv_post_send", 22, "wr.ud.ah is not an address handle of softrnic0");
            s.ah = held.object();
            s.remoteQpn = CabiMemory.getInt(w + SWR_UD_REMOTE_QPN);
            s.remoteQkey = CabiMemory.getInt(w + SWR_UD_REMOTE_QKEY);
        }
    }

    static int post_recv(long qp, long wr, long badWr) {
        CabiQps.Qp q = CabiQps.qp(qp);
        synchronized (q) {
            return postRecvs(wr, badWr, q.recv, q.qp::postRecv, "the QP's max_recv_sge");
        }
    }

    static int post_srq_recv(long srq, long wr, long badWr) {
        CabiSrqs.Srq s = CabiSrqs.srq(srq);
        synchronized (s) {
            return postRecvs(wr, badWr, s.recv, s.srq::postRecv, "the SRQ's max_sge");
        }
    }

    /** A chain of struct ibv_recv_wr, each read into {@code r} and posted; the first refusal's errno, and *bad_wr. */
    private static int postRecvs(long wr, long badWr, RecvWr r, java.util.function.Consumer<RecvWr> post, String limit) {
        for (long w = wr; w != 0; w = CabiMemory.getLong(w + RWR_NEXT)) {
            int numSge = CabiMemory.getInt(w + RWR_NUM_SGE);
            try {
                if (numSge < 0 || numSge > r.sgList.length) {
                    throw Cabi.error("ibv_post_recv", 22, "num_sge " + numSge + " is more than " + limit + ", " + r.sgList.length);
                }
                r.wrId = CabiMemory.getLong(w + RWR_WR_ID);
                r.numSge = numSge;
                long sg = CabiMemory.getLong(w + RWR_SG_LIST);
                for (int i = 0; i < numSge; i++) {
                    long e = sg + i * SGE_SIZE;
                    r.sgList[i].set(CabiMemory.getLong(e + SGE_ADDR), CabiMemory.getInt(e + SGE_LENGTH), CabiMemory.getInt(e + SGE_LKEY));
                }
                post.accept(r);
            } catch (VerbsException e) {
                if (badWr != 0) CabiMemory.setLong(badWr, w);
                return e.errnoValue();
            }
        }
        return 0;
    }

    /** Up to {@code n} completions into the program's array of struct ibv_wc; the count, or -1 for a bad CQ. */
    static int poll_cq(long cq, int n, long wc) {
        CabiCqs.Cq c = CabiCqs.cq(cq);
        int done = 0;
        synchronized (c) {
            while (done < n) {
                int got = c.cq.poll(c.batch, Math.min(n - done, c.batch.length));
                for (int i = 0; i < got; i++) write(c.batch[i], wc + (long) (done + i) * WC_SIZE);
                done += got;
                if (got < c.batch.length) break;
            }
        }
        return done;
    }

    private static void write(WorkCompletion w, long at) {
        CabiMemory.setLong(at + WC_WR_ID, w.wrId);
        CabiMemory.setInt(at + WC_STATUS, w.status.value);
        CabiMemory.setInt(at + WC_OPCODE, w.opcode == null ? 0 : w.opcode.value);
        CabiMemory.setInt(at + WC_VENDOR_ERR, w.vendorErr);
        CabiMemory.setInt(at + WC_BYTE_LEN, w.byteLen);
        // imm_data is __be32; invalidated_rkey, in the same place, host order
        CabiMemory.setInt(at + WC_IMM_DATA, (w.wcFlags & WorkCompletion.WC_WITH_INV) != 0 ? w.immData : Integer.reverseBytes(w.immData));
        CabiMemory.setInt(at + WC_QP_NUM, w.qpNum);
        CabiMemory.setInt(at + WC_SRC_QP, w.srcQp);
        CabiMemory.setInt(at + WC_WC_FLAGS, w.wcFlags);
        CabiMemory.setShort(at + WC_PKEY_INDEX, w.pkeyIndex);
        CabiMemory.setShort(at + WC_SLID, w.slid);
        CabiMemory.setByte(at + WC_SL, w.sl);
        CabiMemory.setByte(at + WC_DLID_PATH_BITS, w.dlidPathBits);
    }

    static int req_notify_cq(long cq, int solicitedOnly) {
        CabiCqs.cq(cq).cq.reqNotify(solicitedOnly != 0);
        return 0;
    }
}
