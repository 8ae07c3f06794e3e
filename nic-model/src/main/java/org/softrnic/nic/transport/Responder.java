package org.softrnic.nic.transport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.softrnic.nic.Counter;
import org.softrnic.nic.StateTrace;
import org.softrnic.nic.mem.MemoryGone;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWqe;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.WcOpcode;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.wire.OpClass;
import org.softrnic.wire.Opcode;
import org.softrnic.wire.Position;
import org.softrnic.wire.frame.FrameView;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.NakCode;
import org.softrnic.wire.packet.RocePacketView;

/**
 * The responder (rxe_resp.c): incoming requests to memory and receive queues, plus ACK and NAK. It runs
 * as an explicit state machine over rxe's named states, one packet at a time; each step gets the packet's
 * {@link PacketInfo}. The answers it sends are {@link Replies}'; UD datagrams are {@link UdReceiver}'s.
 * <p>
 * Just over 400 lines: one state a method, in rxe's order, so the file reads as rxe_resp.c's state machine does.
 */
final class Responder {
    /** rxe's responder states (enum resp_states), reduced to the ones softrnic distinguishes. */
    enum State {
        CHK_PSN, CHK_OP_SEQ, CHK_OP_VALID, CHK_RESOURCE, CHK_LENGTH, CHK_RKEY, EXECUTE, READ_REPLY, ATOMIC_REPLY,
        COMPLETE, ACKNOWLEDGE, DUPLICATE_REQUEST, ERR_PSN_OUT_OF_SEQ, ERR_RNR, ERR_INVALID_REQUEST,
        ERR_RKEY_VIOLATION, ERR_MALFORMED_WQE, ERR_LENGTH, DROP, DONE
    }

    private final Engine engine;
    private final PacketInfo pkt;
    private final RkeyCheck rkeys;
    private final RecvWqes recvWqes;
    private final Replies replies;
    private final UdReceiver ud;

    Responder(Engine engine) {
        this.engine = engine;
        this.pkt = new PacketInfo(engine);
        this.rkeys = new RkeyCheck(engine);
        this.recvWqes = new RecvWqes(engine);
        this.replies = new Replies(engine, rkeys);
        this.ud = new UdReceiver(engine, recvWqes);
    }

    /** A request for the QP of QPN {@code qpn}, whose record {@code r} shows. */
    void receive(RespLine r, int qpn, FrameView v) {
        QpState s = r.qpState();
        if (s != QpState.RTR && s != QpState.RTS && s != QpState.SQD && s != QpState.SQE) {
            engine.counters.inc(Counter.DROP_QP_STATE);
            // in ERR the reason was given when the QP got there; RESET and INIT are a connection not made yet
            if (s != QpState.ERR) {
                engine.refuse(qpn, v.roce.bth().psn(), "the QP is in " + s.ibvName() + "; it takes requests in RTR, RTS, SQD and SQE"
                        + " (dropped): " + (s == QpState.RESET ? "was it ever connected? (qp.connect, or ibv_modify_qp to INIT, RTR and RTS)"
                        : "it was never moved to RTR (qp.connect does it, or ibv_modify_qp with the peer's QPN, PSN and path)"));
            }
            return;
        }
        PacketInfo k = pkt.set(r, qpn, v);
        if (r.qpType() == QpType.UD) {
            ud.receive(k);
        } else {
            run(k);
        }
        k.clear();
    }

    private void run(PacketInfo k) {
        State state = State.CHK_PSN;
        while (state != State.DONE) {
            if (engine.stateTrace != null) engine.traceStep(k.qpn(), StateTrace.Role.RESPONDER, state.name());
            try {
                state = step(k, state);
            } catch (MemoryGone g) {
                // an arena closed by another thread as the data moved: the check that just passed would now fail
                engine.refuse(k.qpn(), k.psn, k.what() + ": " + g.why());
                state = g.sge() >= 0 ? State.ERR_MALFORMED_WQE : State.ERR_RKEY_VIOLATION;
            }
        }
    }

    private State step(PacketInfo k, State state) {
        return switch (state) {
            case CHK_PSN -> checkPsn(k);
            case CHK_OP_SEQ -> checkOpSeq(k);
            case CHK_OP_VALID -> checkOpValid(k);
            case CHK_RESOURCE -> checkResource(k);
            case CHK_LENGTH -> checkLength(k);
            case CHK_RKEY -> checkRkey(k);
            case EXECUTE -> execute(k);
            case READ_REPLY -> replies.read(k);
            case ATOMIC_REPLY -> replies.atomic(k);
            case COMPLETE -> complete(k);
            case ACKNOWLEDGE -> acknowledge(k);
            case DUPLICATE_REQUEST -> replies.duplicate(k);
            case ERR_PSN_OUT_OF_SEQ -> outOfSequence(k);
            case ERR_RNR -> rnr(k);
            case ERR_INVALID_REQUEST -> classError(k, NakCode.INVALID_REQUEST, AsyncEvent.Type.QP_REQ_ERR);
            case ERR_RKEY_VIOLATION -> classError(k, NakCode.REMOTE_ACCESS_ERROR, AsyncEvent.Type.QP_ACCESS_ERR);
            case ERR_MALFORMED_WQE -> {
                // a receive WQE whose buffers fail their check (rxe RESPST_ERR_MALFORMED_WQE): class A on
                // RC and UC alike, the WQE completes in error and the QP goes to ERR; only RC sends the NAK
                k.status = WcStatus.LOC_PROT_ERR;
                yield classError(k, NakCode.REMOTE_OPERATIONAL_ERROR, AsyncEvent.Type.QP_FATAL);
            }
            case ERR_LENGTH -> {
                k.status = WcStatus.LOC_LEN_ERR;
                yield classError(k, NakCode.INVALID_REQUEST, null);
            }
            case DROP, DONE -> State.DONE;
        };
    }

    /**
     * An error as this QP's type takes it, decided in this one place: RC NAKs it (the class the state names),
     * UC drops the rest of the message without a word (IBTA 9.8.3).
     */
    private State byType(PacketInfo k, State rcError) {
        return k.uc() ? ucDrop(k) : rcError;
    }

    /** UC errors are silent: the rest of the message is dropped (IBTA 9.8.3). */
    private State ucDrop(PacketInfo k) {
        k.r.respUcDropping(true);
        engine.counters.inc(Counter.DROP_UC_SEQUENCE);
        return State.DROP;
    }

    private State checkPsn(PacketInfo k) {
        RespLine c = k.r;
        int d = Psn.diff(k.psn, c.respPsn());
        if (k.uc()) {
            if (d != 0 || c.respUcDropping()) {
                if (!k.op.position.starts()) return ucDrop(k);
                // a FIRST or ONLY may start a message; whether one was left unfinished is CHK_OP_SEQ's to say
                c.respUcDropping(false);
            }
            return State.CHK_OP_SEQ;
        }
        if (d > 0) return State.ERR_PSN_OUT_OF_SEQ;
        if (d < 0) return State.DUPLICATE_REQUEST;
        c.respNakSent(false);
        return State.CHK_OP_SEQ;
    }

    /** FIRST is followed by MIDDLE or LAST of the same operation; anything else starts a message. */
    private State checkOpSeq(PacketInfo k) {
        Opcode prev = k.r.respLastOpcode();
        Opcode op = k.op;
        boolean inMessage = prev != null && !prev.position.ends();
        boolean ok = inMessage
                ? prev.opClass == op.opClass && (op.position == Position.MIDDLE || op.position == Position.LAST)
                : op.position.starts();
        if (ok) {
            if (k.uc()) k.r.respPsn(k.psn); // UC takes up the sequence at any message's first packet
            return State.CHK_OP_VALID;
        }
        if (k.uc() && inMessage && op.position.starts()) return ucUnfinishedMessage(k);
        return byType(k, State.ERR_INVALID_REQUEST);
    }

    /**
     * A FIRST or ONLY while a UC message is unfinished (rxe's do_class_d1e_error). With an SRQ (class E) the
     * unfinished message's receive completes IBV_WC_REM_INV_REQ_ERR; without one (class D1) the receive is put
     * back as it was, for the next message. In both, as in rxe, the packet that showed the gap is dropped, and
     * with it the rest of its message. Unlike rxe, which keeps the unfinished opcode with an SRQ and so drops
     * every later message, the QP takes up again at the next message's first packet.
     */
    private State ucUnfinishedMessage(PacketInfo k) {
        QpContext c = k.ctx();
        c.respLastOpcode(null);
        if (c.qp.srq() != null) {
            c.respUcDropping(true);
            if (c.resp.wqe != null) {
                long wrId = c.resp.wqe.wrId;
                recvWqes.release(c);
                engine.completions.recv(c, wrId, WcStatus.REM_INV_REQ_ERR, WcOpcode.RECV, 0, 0, 0, 0, false);
            }
        } else {
            c.respOffset(0);
        }
        engine.counters.inc(Counter.DROP_UC_SEQUENCE);
        return State.DROP;
    }

    private State checkOpValid(PacketInfo k) {
        int access = k.r.accessFlags();
        int needed = switch (k.op.opClass) {
            case RDMA_WRITE, ATOMIC_WRITE -> Access.REMOTE_WRITE;
            case RDMA_READ_REQUEST -> Access.REMOTE_READ;
            case ATOMIC -> Access.REMOTE_ATOMIC;
            case SEND -> 0;
            case FLUSH -> flushAccess(k.p.feth().placementType());
            default -> -1; // RESYNC: RD only
        };
        if (needed < 0 || (access & needed) != needed) {
            if (needed > 0) {
                engine.refuse(k.qpn(), k.psn, k.what() + ", but the QP's qp_access_flags lack " + Access.describe(needed & ~access)
                        + " (ibv_modify_qp with IBV_QP_ACCESS_FLAGS grants them)");
            }
            return byType(k, State.ERR_INVALID_REQUEST);
        }
        return State.CHK_RESOURCE;
    }

    private State checkResource(PacketInfo k) {
        Opcode op = k.op;
        if (needsResource(op.opClass) && k.ctx().qp.attr().maxDestRdAtomic == 0) {
            engine.refuse(k.qpn(), k.psn, k.what() + ", but the QP's max_dest_rd_atomic is 0: no responder resources");
            return State.ERR_INVALID_REQUEST; // rxe RESPST_ERR_TOO_MANY_RDMA_ATM_REQ: no responder resources
        }
        boolean takesWqe = op.opClass == OpClass.SEND ? op.position.starts()
                : op.consumesRecvWqe() && op.position.ends();
        if (!takesWqe) return State.CHK_LENGTH; // the common WRITE reads no more than the QP's record
        QpContext c = k.ctx();
        if (c.resp.wqe == null) {
            RecvWqe w = recvWqes.take(c);
            if (w == null) {
                engine.refuse(k.qpn(), k.psn, k.what() + " needs a receive, and none is posted (" + (c.qp.srq() != null ? "the SRQ" : "the receive queue")
                        + " is empty)" + (k.uc() ? ": UC drops the message" : ": RNR NAK, the sender waits and tries again"));
                return byType(k, State.ERR_RNR);
            }
            c.respOffset(0);
            if (Sges.resolve(engine.keys, engine.odp, c.pd, w, Access.LOCAL_WRITE) != null) return malformedReceive(k, w);
        }
        return State.CHK_LENGTH;
    }

    /** A receive whose buffers fail their check: said in the device's words, then rxe's RESPST_ERR_MALFORMED_WQE. */
    private State malformedReceive(PacketInfo k, RecvWqe w) {
        QpContext c = k.ctx();
        engine.refuse(k.qpn(), k.psn, String.format("%s lands in receive wr_id %d, which completes with %s: %s", k.what(), w.wrId,
                WcStatus.LOC_PROT_ERR.ibvName(), Sges.explain(engine.keys, c.pd, w, Access.LOCAL_WRITE, k.qpn())));
        return State.ERR_MALFORMED_WQE;
    }

    /** The requests that take one of max_dest_rd_atomic's slots (rxe's RXE_READ_OR_ATOMIC_MASK and ATOMIC_WRITE). */
    private static boolean needsResource(OpClass cls) {
        return cls == OpClass.RDMA_READ_REQUEST || cls == OpClass.ATOMIC || cls == OpClass.ATOMIC_WRITE;
    }

    private State checkLength(PacketInfo k) {
        RespLine c = k.r;
        Opcode op = k.op;
        int len = k.len;
        int mtu = c.mtuBytes();
        boolean data = op.opClass == OpClass.SEND || op.opClass == OpClass.RDMA_WRITE;
        if (data) {
            boolean full = op.position == Position.FIRST || op.position == Position.MIDDLE;
            if (full ? len != mtu : len > mtu) return byType(k, State.ERR_INVALID_REQUEST);
        }
        if (op.opClass == OpClass.SEND && c.respOffset() + len > k.ctx().resp.wqe.length) {
            return byType(k, State.ERR_LENGTH);
        }
        if (op.opClass == OpClass.RDMA_WRITE) {
            long remaining = op.hasReth() ? Integer.toUnsignedLong(k.p.reth().dlen()) : c.respWriteRemaining();
            boolean ends = op.position.ends();
            if (ends ? len != remaining : len > remaining) return byType(k, State.ERR_INVALID_REQUEST);
        }
        if (op.opClass == OpClass.ATOMIC_WRITE && Integer.toUnsignedLong(k.p.reth().dlen()) != 8) {
            return State.ERR_INVALID_REQUEST;
        }
        return op.hasReth() || op.opClass == OpClass.ATOMIC ? State.CHK_RKEY : State.EXECUTE;
    }

    /** IB_FLUSH_GLOBAL (1) and IB_FLUSH_PERSISTENT (2) need the matching IBV_ACCESS_FLUSH_* flag. */
    private static int flushAccess(int placementType) {
        return ((placementType & 1) != 0 ? Access.FLUSH_GLOBAL : 0) | ((placementType & 2) != 0 ? Access.FLUSH_PERSISTENT : 0);
    }

    private State checkRkey(PacketInfo k) {
        RocePacketView p = k.p;
        OpClass cls = k.op.opClass;
        long va;
        long length;
        int rkey;
        int needed;
        if (cls == OpClass.ATOMIC) {
            va = p.atomicEth().va();
            rkey = p.atomicEth().rkey();
            length = 8;
            needed = Access.REMOTE_ATOMIC;
        } else {
            va = p.reth().va();
            rkey = p.reth().rkey();
            length = Integer.toUnsignedLong(p.reth().dlen());
            needed = switch (cls) {
                case RDMA_WRITE, ATOMIC_WRITE -> Access.REMOTE_WRITE;
                case FLUSH -> flushAccess(p.feth().placementType());
                default -> Access.REMOTE_READ;
            };
            if (cls == OpClass.ATOMIC_WRITE && (va & 7) != 0) return State.ERR_INVALID_REQUEST; // oA19-28
            if (cls == OpClass.FLUSH && p.feth().selectivityLevel() == 1) length = 0; // whole region
            if (length == 0 && cls != OpClass.FLUSH) return State.EXECUTE; // zero-length RDMA checks no key
        }
        k.mr = rkeys.resolve(k, rkey, needed, va, length);
        if (k.mr == null) return byType(k, State.ERR_RKEY_VIOLATION);
        if (cls != OpClass.RDMA_WRITE && cls != OpClass.FLUSH) {
            // READ and atomics: the IBTA allows no RNR NAK for them, so a faulting one is dropped and the requester's
            // local ACK timer sends it again, by when the pages are mapped (the slow path of ODP on real NICs)
            long ready = engine.odp.ready(k.mr, va, length, k.qpn(), "the responder's", cls);
            if (ready != 0) {
                engine.refuse(k.qpn(), k.psn, String.format(java.util.Locale.ROOT, "%s touches pages of an ODP region the NIC has"
                        + " no translation for: a page fault is being served (%.0f us); a READ or atomic cannot be RNR NAKed, so it is"
                        + " dropped and the requester's retry finds the pages mapped", k.what(), engine.odp.faultNanos / 1000.0));
                return State.DROP;
            }
        }
        // rxe checks the key first and the alignment when it executes (RESPST_ERR_MISALIGNED_ATOMIC)
        if (cls == OpClass.ATOMIC && (va & 7) != 0) {
            engine.refuse(k.qpn(), k.psn, String.format("an atomic at 0x%x: the address is not 8-byte aligned", va));
            return State.ERR_INVALID_REQUEST;
        }
        return State.EXECUTE;
    }

    private State execute(PacketInfo k) {
        RespLine c = k.r;
        RocePacketView p = k.p;
        Opcode op = k.op;
        int len = k.len;
        switch (op.opClass) {
            case SEND -> {
                RecvWqe w = k.ctx().resp.wqe;
                // the receive's regions may have been deregistered since its first packet (rxe's copy_data looks each up)
                if (!Sges.stillValid(engine.keys, c.pd(), Access.LOCAL_WRITE, w)) return malformedReceive(k, w);
                // ODP: the message's first packet faults the whole receive in, so one RNR NAK covers the message; a later
                // packet checks its own bytes only (a page invalidated since faults again)
                long span = c.respOffset() == 0 ? w.length : len;
                if (engine.odp.ready(w, c.respOffset(), span, k.qpn(), "the responder's", op.opClass) != 0) {
                    return pageFault(k);
                }
                Sges.scatter(w, c.respOffset(), p.segment(), p.payloadOffset(), len);
                c.respOffset(c.respOffset() + len);
            }
            case RDMA_WRITE -> {
                if (op.hasReth()) {
                    c.respWriteRkey(p.reth().rkey());
                    c.respWriteVa(p.reth().va());
                    c.respWriteRemaining(Integer.toUnsignedLong(p.reth().dlen()));
                    c.respWriteLength(c.respWriteRemaining());
                }
                if (len > 0) {
                    // every packet of the WRITE checks its key again (rxe keeps the rkey in resp.rkey): a region
                    // invalidated, deregistered or mapped elsewhere since the FIRST takes no more of it
                    MemoryRegion m = op.hasReth() ? k.mr : rkeys.resolve(k, c.respWriteRkey(), Access.REMOTE_WRITE, c.respWriteVa(), len);
                    if (m == null) return State.ERR_RKEY_VIOLATION;
                    long span = op.hasReth() ? c.respWriteRemaining() : len; // the whole WRITE at its first packet
                    if (engine.odp.ready(m, c.respWriteVa(), span, k.qpn(), "the responder's", op.opClass) != 0) return pageFault(k);
                    m.write(p.segment(), p.payloadOffset(), m.offsetOf(c.respWriteVa()), len, -1);
                }
                c.respWriteVa(c.respWriteVa() + len);
                c.respWriteRemaining(c.respWriteRemaining() - len);
            }
            case RDMA_READ_REQUEST -> {
                return State.READ_REPLY;
            }
            case ATOMIC -> {
                return State.ATOMIC_REPLY;
            }
            case ATOMIC_WRITE, FLUSH -> {
                if (op.opClass == OpClass.ATOMIC_WRITE) {
                    // the eight bytes land as one store, as rxe's do_atomic_write
                    long value = p.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, p.payloadOffset());
                    k.mr.setLong(ValueLayout.JAVA_LONG_UNALIGNED, k.mr.offsetOf(p.reth().va()), value);
                }
                // FLUSH: memory here is coherent and not persistent-memory backed; placement is immediate
                return replies.placed(k);
            }
            default -> {
                return State.ERR_INVALID_REQUEST;
            }
        }
        c.respPsn(Psn.add(c.respPsn(), 1));
        c.respAckPsn(c.respPsn());
        c.respLastOpcode(op);
        if (op.position.ends()) c.respMsn((c.respMsn() + 1) & 0xffffff);
        return State.COMPLETE;
    }

    private State complete(PacketInfo k) {
        RocePacketView p = k.p;
        Opcode op = k.op;
        if (!op.position.ends() || !op.consumesRecvWqe()) return State.ACKNOWLEDGE;
        QpContext c = k.ctx();
        RecvWqe w = c.resp.wqe;
        int flags = 0;
        int imm = 0;
        WcOpcode wcOp = WcOpcode.RECV;
        int byteLen = (int) c.respOffset();
        if (op.hasImmediate()) {
            flags |= WorkCompletion.WC_WITH_IMM;
            imm = p.immDt().value();
        }
        if (op.opClass == OpClass.RDMA_WRITE) {
            wcOp = WcOpcode.RECV_RDMA_WITH_IMM;
            byteLen = (int) c.respWriteLength();
        }
        if (op.hasInvalidate()) {
            int rkey = p.ieth().rkey();
            if (!rkeys.invalidate(c, rkey)) return State.ERR_INVALID_REQUEST;
            flags |= WorkCompletion.WC_WITH_INV;
            imm = rkey;
        }
        long wrId = w.wrId;
        recvWqes.release(c);
        engine.completions.recv(c, wrId, WcStatus.SUCCESS, wcOp, byteLen, imm, flags, 0, p.bth().se());
        return State.ACKNOWLEDGE;
    }

    private State acknowledge(PacketInfo k) {
        if (!k.uc() && k.p.bth().ackReq()) replies.ack(k.r, Aeth.ACK_CREDITS_INVALID, k.psn);
        return State.DONE;
    }

    /** One NAK per gap: later packets of the same gap are dropped silently (IBTA 9.7.5.1.1). */
    private State outOfSequence(PacketInfo k) {
        engine.counters.inc(Counter.OUT_OF_SEQ_REQUEST);
        if (!k.r.respNakSent()) {
            k.r.respNakSent(true);
            replies.ack(k.r, Aeth.nak(NakCode.PSN_SEQUENCE_ERROR, 0).syndrome(), k.r.respPsn());
        }
        return State.DONE;
    }

    /**
     * A SEND or WRITE touched ODP pages not mapped yet (first touch, or touched again after an invalidation): RC answers
     * RNR NAK while the fault is served, as ConnectX does, and the retry after the RNR timer finds them mapped; UC drops
     * the message.
     */
    private State pageFault(PacketInfo k) {
        if (k.uc()) {
            // the message is dropped: the next one starts afresh, into the same receive from its first byte
            k.r.respLastOpcode(null);
            k.r.respOffset(0);
        }
        engine.refuse(k.qpn(), k.psn, String.format(java.util.Locale.ROOT, "%s touches pages of an ODP region the NIC has no"
                + " translation for: a page fault is being served (%.0f us)%s", k.what(), engine.odp.faultNanos / 1000.0,
                k.uc() ? "; UC drops the message" : "; RNR NAK, the sender waits and tries again"));
        return byType(k, State.ERR_RNR);
    }

    private State rnr(PacketInfo k) {
        engine.counters.inc(Counter.SEND_RNR_ERR);
        replies.ack(k.r, Aeth.rnrNak(k.ctx().qp.attr().minRnrTimer & 0x1f, 0).syndrome(), k.psn);
        return State.DONE;
    }

    /**
     * Class C and D errors (IBTA 9.9.3.1.3): NAK the request, complete the receive WQE in use (if any) in
     * error, and move the QP to ERR.
     */
    private State classError(PacketInfo k, NakCode code, AsyncEvent.Type event) {
        QpContext c = k.ctx();
        if (!k.uc()) replies.ack(c, Aeth.nak(code, 0).syndrome(), k.psn);
        if (c.resp.wqe != null) {
            WcStatus st = k.status != WcStatus.SUCCESS ? k.status : WcStatus.REM_INV_REQ_ERR;
            long wrId = c.resp.wqe.wrId;
            int received = (int) c.respOffset();
            recvWqes.release(c);
            engine.completions.recv(c, wrId, st, WcOpcode.RECV, received, 0, 0, 0, false);
        }
        engine.completions.toError(c, event);
        return State.DONE;
    }
}
