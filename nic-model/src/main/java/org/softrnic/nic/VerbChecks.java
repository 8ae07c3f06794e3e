package org.softrnic.nic;

import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.SharedReceiveQueue;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpAttrMask;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.VerbsException;

/**
 * The argument checks rdma-core and rxe make before a verb acts, each failure a {@link VerbsException} with
 * the verb's name, the errno and the reason. Stateless: {@link Nic} calls them, and a provider may call the
 * post checks on the posting thread.
 */
final class VerbChecks {
    static final long MAX_MSG_SIZE = 1L << 31;

    private VerbChecks() {
    }

    static VerbsException error(String verb, Errno errno, String message) {
        return new VerbsException(verb, errno, message);
    }

    static void checkPd(String verb, ProtectionDomain pd) {
        if (pd == null || pd.closed()) throw error(verb, Errno.EINVAL, "the PD is deallocated");
    }

    /** ibv_modify_qp's checks of the attribute values the mask names (the transition is QpTransitions'). */
    static void qpAttr(String verb, NicConfig config, QueuePair qp, QpAttr a, int mask) {
        DeviceAttributes d = config.attributes();
        if ((mask & QpAttrMask.PORT) != 0 && a.portNum != 1) throw error(verb, Errno.EINVAL, "port " + a.portNum + " does not exist");
        if ((mask & QpAttrMask.PKEY_INDEX) != 0 && a.pkeyIndex != 0) {
            throw error(verb, Errno.EINVAL, "pkey_index " + a.pkeyIndex + " is empty (only index 0 holds 0xffff)");
        }
        int qpAccess = Access.REMOTE_ANY | Access.LOCAL_WRITE | Access.FLUSH_GLOBAL | Access.FLUSH_PERSISTENT;
        if ((mask & QpAttrMask.ACCESS_FLAGS) != 0 && (a.qpAccessFlags & ~qpAccess) != 0) {
            throw error(verb, Errno.EINVAL, "qp_access_flags 0x" + Integer.toHexString(a.qpAccessFlags));
        }
        if ((mask & QpAttrMask.AV) != 0) {
            if (a.ahAttr == null) throw error(verb, Errno.EINVAL, "IBV_QP_AV without an address");
            if (a.ahAttr.sgidIndex() >= config.gids().size()) throw error(verb, Errno.EINVAL, "sgid_index " + a.ahAttr.sgidIndex() + " is empty");
        }
        if ((mask & QpAttrMask.TIMEOUT) != 0 && (a.timeout < 0 || a.timeout > 31)) throw error(verb, Errno.EINVAL, "timeout not in 0..31");
        if ((mask & QpAttrMask.RETRY_CNT) != 0 && (a.retryCnt < 0 || a.retryCnt > 7)) throw error(verb, Errno.EINVAL, "retry_cnt not in 0..7");
        if ((mask & QpAttrMask.RNR_RETRY) != 0 && (a.rnrRetry < 0 || a.rnrRetry > 7)) throw error(verb, Errno.EINVAL, "rnr_retry not in 0..7");
        if ((mask & QpAttrMask.MIN_RNR_TIMER) != 0 && (a.minRnrTimer < 0 || a.minRnrTimer > 31)) {
            throw error(verb, Errno.EINVAL, "min_rnr_timer not in 0..31");
        }
        if ((mask & QpAttrMask.MAX_QP_RD_ATOMIC) != 0 && (a.maxRdAtomic < 0 || a.maxRdAtomic > d.maxQpRdAtom())) {
            throw error(verb, Errno.EINVAL, "max_rd_atomic " + a.maxRdAtomic + " exceeds " + d.maxQpRdAtom());
        }
        if ((mask & QpAttrMask.MAX_DEST_RD_ATOMIC) != 0 && (a.maxDestRdAtomic < 0 || a.maxDestRdAtomic > d.maxQpInitRdAtom())) {
            throw error(verb, Errno.EINVAL, "max_dest_rd_atomic " + a.maxDestRdAtomic + " exceeds " + d.maxQpInitRdAtom());
        }
        if ((mask & QpAttrMask.DEST_QPN) != 0 && (a.destQpNum & ~0xffffff) != 0) throw error(verb, Errno.EINVAL, "dest_qp_num not 24-bit");
        if ((mask & QpAttrMask.PATH_MTU) != 0 && a.pathMtu == null) throw error(verb, Errno.EINVAL, "path_mtu missing");
    }


    /** ibv_create_qp's checks of the CQs, SRQ and capabilities against the device's limits. */
    static void createQp(DeviceAttributes a, QpType type, ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq,
                         SharedReceiveQueue srq, QpCaps caps) {
        String verb = "ibv_create_qp";
        if (type == null) throw error(verb, Errno.EINVAL, "qp_type is required (RC, UC or UD)");
        if (caps == null) throw error(verb, Errno.EINVAL, "cap (the queues' sizes) is required");
        if (sendCq == null || recvCq == null) throw error(verb, Errno.EINVAL, "send and receive CQs are required");
        if (caps.maxSendWr() < 1 || caps.maxSendWr() > a.maxQpWr()) throw error(verb, Errno.EINVAL, "max_send_wr " + caps.maxSendWr() + " not in 1.." + a.maxQpWr());
        if (srq == null && (caps.maxRecvWr() < 1 || caps.maxRecvWr() > a.maxQpWr())) {
            throw error(verb, Errno.EINVAL, "max_recv_wr " + caps.maxRecvWr() + " not in 1.." + a.maxQpWr());
        }
        // with an SRQ the QP has no receive queue of its own: its max_recv_wr and max_recv_sge are ignored (ibv_create_qp(3))
        boolean recvSge = srq != null || caps.maxRecvSge() >= 1 && caps.maxRecvSge() <= a.maxSge();
        if (caps.maxSendSge() < 1 || caps.maxSendSge() > a.maxSge() || !recvSge) {
            throw error(verb, Errno.EINVAL, "max_send_sge " + caps.maxSendSge() + " or max_recv_sge " + caps.maxRecvSge() + " not in 1.." + a.maxSge());
        }
        if (caps.maxInlineData() < 0 || caps.maxInlineData() > a.maxInlineData()) {
            throw error(verb, Errno.EINVAL, "max_inline_data " + caps.maxInlineData() + " exceeds " + a.maxInlineData());
        }
        if (srq != null && srq.pd() != pd) throw error(verb, Errno.EINVAL, "the SRQ belongs to another PD");
    }

    /** A request whose num_sge names more SGEs than its list holds (the C API cannot say so; Java can). */
    private static void sgeList(String verb, int numSge, int listed) {
        if (numSge > listed) throw error(verb, Errno.EINVAL, "num_sge " + numSge + " but the request holds " + listed + " SGEs");
    }

    static long send(QueuePair qp, SendWr wr, boolean typeOneBind) {
        String verb = "ibv_post_send";
        sgeList(verb, wr.numSge, wr.sgList.length);
        QpState s = qp.state();
        if (s == QpState.RESET || s == QpState.INIT || s == QpState.RTR) {
            throw error(verb, Errno.EINVAL, qp + ": sends need RTS" + (s == QpState.RTR ? " (modify it to RTS too)"
                    : "; was it connected? (qp.connect, or ibv_modify_qp to INIT, RTR and RTS)"));
        }
        if (wr.numSge < 0 || wr.numSge > qp.caps().maxSendSge()) {
            throw error(verb, Errno.EINVAL, "num_sge " + wr.numSge + " exceeds max_send_sge " + qp.caps().maxSendSge());
        }
        SendOpcode op = wr.opcode;
        if (!op.postableOn(qp.type())) {
            throw error(verb, Errno.EINVAL, "opcode IBV_WR_" + op + " on a " + qp.type() + " QP");
        }
        if (op == SendOpcode.BIND_MW && !typeOneBind && (wr.bindMw == null || wr.bindMr == null)) {
            throw error(verb, Errno.EINVAL, "IBV_WR_BIND_MW needs a window and a region");
        }
        if (op == SendOpcode.BIND_MW && !typeOneBind && wr.bindMw.type() == 1) {
            throw error(verb, Errno.EINVAL, "a type 1 window is bound with ibv_bind_mw");
        }
        if (op == SendOpcode.REG_MR && (wr.regMr == null || wr.regSegment == null)) {
            throw error(verb, Errno.EINVAL, "REG_MR needs a region from allocMr and the memory to map");
        }
        if (op == SendOpcode.ATOMIC_WRITE && wr.totalLength() != 8) {
            throw error(verb, Errno.EINVAL, "IBV_WR_ATOMIC_WRITE writes exactly 8 bytes");
        }
        if (op == SendOpcode.FLUSH && (wr.flushType < 1 || wr.flushType > 3 || wr.flushLevel < 0 || wr.flushLevel > 1)) {
            throw error(verb, Errno.EINVAL, "IBV_WR_FLUSH needs a placement type of 1-3 and a selectivity level of 0 or 1");
        }
        long length = op.isLocal() || op == SendOpcode.FLUSH ? 0 : wr.totalLength();
        if (length > MAX_MSG_SIZE) throw error(verb, Errno.EINVAL, "message of " + length + " bytes exceeds 2^31");
        boolean inline = (wr.sendFlags & SendFlags.INLINE) != 0;
        if (inline && length > qp.caps().maxInlineData()) {
            throw error(verb, Errno.EINVAL, "inline data of " + length + " bytes exceeds max_inline_data " + qp.caps().maxInlineData());
        }
        // a UD message longer than the MTU is accepted and completes without a packet (C10-93.1.1)
        if (qp.type() == QpType.UD && wr.ah == null) throw error(verb, Errno.EINVAL, "a UD send needs an address handle");
        return length;
    }

    static void recv(QueuePair qp, RecvWr wr) {
        String verb = "ibv_post_recv";
        sgeList(verb, wr.numSge, wr.sgList.length);
        if (qp.srq() != null) throw error(verb, Errno.EINVAL, qp + " receives from an SRQ");
        if (qp.state() == QpState.RESET) {
            throw error(verb, Errno.EINVAL, qp + ": receives need INIT or later (qp.connect, or ibv_modify_qp to INIT)");
        }
        if (wr.numSge < 0 || wr.numSge > qp.caps().maxRecvSge()) {
            throw error(verb, Errno.EINVAL, "num_sge " + wr.numSge + " exceeds max_recv_sge " + qp.caps().maxRecvSge());
        }
    }

    static void srqRecv(SharedReceiveQueue srq, RecvWr wr) {
        sgeList("ibv_post_srq_recv", wr.numSge, wr.sgList.length);
        if (wr.numSge < 0 || wr.numSge > srq.maxSge()) {
            throw error("ibv_post_srq_recv", Errno.EINVAL, "num_sge " + wr.numSge + " exceeds max_sge " + srq.maxSge());
        }
    }
}
