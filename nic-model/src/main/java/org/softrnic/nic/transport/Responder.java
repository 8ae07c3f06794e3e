package org.softrnic.nic.transport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.softrnic.nic.Counter;
import org.softrnic.nic.mem.AccessError;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.MemoryWindow;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.qp.RecvWqe;
import org.softrnic.nic.qp.SharedReceiveQueue;
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
import org.softrnic.wire.Transport;
import org.softrnic.wire.frame.FrameView;
import org.softrnic.wire.frame.FrameWriter;
import org.softrnic.wire.header.Aeth;
import org.softrnic.wire.header.NakCode;
import org.softrnic.wire.packet.RocePacketView;

/**
 * The responder (rxe_resp.c): incoming requests to memory and receive queues, plus ACK and NAK. It runs
 * as an explicit state machine over rxe's named states, one packet at a time.
 */
final class Responder {
    /** rxe's responder states (enum resp_states), reduced to the ones softrnic distinguishes. */
    enum State {
        CHK_PSN, CHK_OP_SEQ, CHK_OP_VALID, CHK_RESOURCE, CHK_LENGTH, CHK_RKEY, EXECUTE, READ_REPLY, ATOMIC_REPLY,
        COMPLETE, ACKNOWLEDGE, DUPLICATE_REQUEST, ERR_PSN_OUT_OF_SEQ, ERR_RNR, ERR_INVALID_REQUEST,
        ERR_RKEY_VIOLATION, ERR_MALFORMED_WQE, ERR_LENGTH, DROP, DONE
    }

    private static final ValueLayout.OfLong HOST_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** rdma-core puts a 40-byte GRH area in front of every UD receive. */
    static final int GRH_BYTES = 40;

    private final Engine engine;
    /** Made on the first UD receive, from the device's arena. */
    private MemorySegment grh;

    // the packet being handled
    private QpContext c;
    private RocePacketView p;
    private Opcode op;
    private int psn;
    private int len;
    private MemoryRegion mr;
    private WcStatus recvStatus;

    Responder(Engine engine) {
        this.engine = engine;
    }

    void receive(QpContext ctx, FrameView v) {
        QueuePair qp = ctx.qp;
        QpState s = qp.state();
        if (s != QpState.RTR && s != QpState.RTS && s != QpState.SQD && s != QpState.SQE) {
            engine.counters.inc(Counter.DROP_QP_STATE);
            // in ERR the reason was given when the QP got there; RESET and INIT are a connection not made yet
            if (s != QpState.ERR) {
                engine.refuse(qp, v.roce.bth().psn(), "the QP is in " + s.ibvName() + "; it takes requests in RTR, RTS, SQD and SQE (dropped)");
            }
            return;
        }
        c = ctx;
        p = v.roce;
        op = p.opcode();
        psn = p.bth().psn();
        len = p.payloadLength();
        mr = null;
        recvStatus = WcStatus.SUCCESS;
        if (qp.type() == QpType.UD) {
            ud(v);
            return;
        }
        State state = State.CHK_PSN;
        while (state != State.DONE) {
            if (engine.stateTrace != null) engine.traceStep(qp.qpn(), org.softrnic.nic.StateTrace.Role.RESPONDER, state.name());
            state = switch (state) {
                case CHK_PSN -> checkPsn();
                case CHK_OP_SEQ -> checkOpSeq();
                case CHK_OP_VALID -> checkOpValid();
                case CHK_RESOURCE -> checkResource();
                case CHK_LENGTH -> checkLength();
                case CHK_RKEY -> checkRkey();
                case EXECUTE -> execute();
                case READ_REPLY -> readReply();
                case ATOMIC_REPLY -> atomicReply();
                case COMPLETE -> complete();
                case ACKNOWLEDGE -> acknowledge();
                case DUPLICATE_REQUEST -> duplicate();
                case ERR_PSN_OUT_OF_SEQ -> outOfSequence();
                case ERR_RNR -> rnr();
                case ERR_INVALID_REQUEST -> classError(NakCode.INVALID_REQUEST, AsyncEvent.Type.QP_REQ_ERR);
                case ERR_RKEY_VIOLATION -> classError(NakCode.REMOTE_ACCESS_ERROR, AsyncEvent.Type.QP_ACCESS_ERR);
                case ERR_MALFORMED_WQE -> {
                    // a receive WQE whose buffers fail their check (rxe RESPST_ERR_MALFORMED_WQE): class A on
                    // RC and UC alike, the WQE completes in error and the QP goes to ERR; only RC sends the NAK
                    recvStatus = WcStatus.LOC_PROT_ERR;
                    yield classError(NakCode.REMOTE_OPERATIONAL_ERROR, AsyncEvent.Type.QP_FATAL);
                }
                case ERR_LENGTH -> {
                    recvStatus = WcStatus.LOC_LEN_ERR;
                    yield classError(NakCode.INVALID_REQUEST, null);
                }
                case DROP -> State.DONE;
                case DONE -> State.DONE;
            };
        }
        c = null;
        p = null;
    }

    private boolean uc() {
        return c.qp.type() == QpType.UC;
    }

    /**
     * An error as this QP's type takes it, decided in this one place: RC NAKs it (the class the state names),
     * UC drops the rest of the message without a word (IBTA 9.8.3).
     */
    private State byType(State rcError) {
        return uc() ? ucDrop() : rcError;
    }

    /** UC errors are silent: the rest of the message is dropped (IBTA 9.8.3). */
    private State ucDrop() {
        c.resp.ucDropping = true;
        engine.counters.inc(Counter.DROP_UC_SEQUENCE);
        return State.DROP;
    }

    private State checkPsn() {
        int d = Psn.diff(psn, c.resp.psn);
        if (uc()) {
            if (d != 0 || c.resp.ucDropping) {
                if (!op.position.starts()) return ucDrop();
                // a new message resynchronises UC; the partial one is abandoned, its WQE reused
                c.resp.psn = psn;
                c.resp.ucDropping = false;
                c.resp.lastOpcode = null;
                c.resp.offset = 0;
            }
            return State.CHK_OP_SEQ;
        }
        if (d > 0) return State.ERR_PSN_OUT_OF_SEQ;
        if (d < 0) return State.DUPLICATE_REQUEST;
        c.resp.nakSent = false;
        return State.CHK_OP_SEQ;
    }

    /** FIRST is followed by MIDDLE or LAST of the same operation; anything else starts a message. */
    private State checkOpSeq() {
        Opcode prev = c.resp.lastOpcode;
        boolean inMessage = prev != null && !prev.position.ends();
        boolean ok = inMessage
                ? prev.opClass == op.opClass && (op.position == Position.MIDDLE || op.position == Position.LAST)
                : op.position.starts();
        if (ok) return State.CHK_OP_VALID;
        return byType(State.ERR_INVALID_REQUEST);
    }

    private State checkOpValid() {
        int access = c.qp.attr().qpAccessFlags;
        int needed = switch (op.opClass) {
            case RDMA_WRITE -> Access.REMOTE_WRITE;
            case RDMA_READ_REQUEST -> Access.REMOTE_READ;
            case ATOMIC -> Access.REMOTE_ATOMIC;
            case SEND -> 0;
            case ATOMIC_WRITE -> Access.REMOTE_WRITE;
            case FLUSH -> flushAccess(p.feth().placementType());
            default -> -1; // RESYNC: RD only
        };
        if (needed < 0 || (access & needed) != needed) {
            if (needed > 0) {
                engine.refuse(c.qp, psn, what() + ", but the QP's qp_access_flags lack " + Access.describe(needed & ~access)
                        + " (ibv_modify_qp with IBV_QP_ACCESS_FLAGS grants them)");
            }
            return byType(State.ERR_INVALID_REQUEST);
        }
        return State.CHK_RESOURCE;
    }

    private State checkResource() {
        if (needsResource(op.opClass) && c.qp.attr().maxDestRdAtomic == 0) {
            engine.refuse(c.qp, psn, what() + ", but the QP's max_dest_rd_atomic is 0: no responder resources");
            return State.ERR_INVALID_REQUEST; // rxe RESPST_ERR_TOO_MANY_RDMA_ATM_REQ: no responder resources
        }
        boolean takesWqe = op.opClass == OpClass.SEND ? op.position.starts()
                : op.consumesRecvWqe() && op.position.ends();
        if (takesWqe && c.resp.wqe == null) {
            RecvWqe w = takeRecvWqe(c);
            if (w == null) {
                engine.refuse(c.qp, psn, what() + " needs a receive, and none is posted (" + (c.qp.srq() != null ? "the SRQ" : "the receive queue")
                        + " is empty)" + (uc() ? ": UC drops the message" : ": RNR NAK, the sender waits and tries again"));
                return byType(State.ERR_RNR);
            }
            c.resp.offset = 0;
            if (Sges.resolve(engine.keys, c.qp.pd(), w.sges, w.sgeMrs, w.numSge, Access.LOCAL_WRITE) != null) {
                return State.ERR_MALFORMED_WQE;
            }
        }
        return State.CHK_LENGTH;
    }

    /** The requests that take one of max_dest_rd_atomic's slots (rxe's RXE_READ_OR_ATOMIC_MASK and ATOMIC_WRITE). */
    private static boolean needsResource(OpClass cls) {
        return cls == OpClass.RDMA_READ_REQUEST || cls == OpClass.ATOMIC || cls == OpClass.ATOMIC_WRITE;
    }

    private State checkLength() {
        int mtu = c.qp.mtuBytes();
        boolean data = op.opClass == OpClass.SEND || op.opClass == OpClass.RDMA_WRITE;
        if (data) {
            boolean full = op.position == Position.FIRST || op.position == Position.MIDDLE;
            if (full ? len != mtu : len > mtu) return byType(State.ERR_INVALID_REQUEST);
        }
        if (op.opClass == OpClass.SEND && c.resp.offset + len > c.resp.wqe.length) {
            return byType(State.ERR_LENGTH);
        }
        if (op.opClass == OpClass.RDMA_WRITE) {
            long remaining = op.hasReth() ? Integer.toUnsignedLong(p.reth().dlen()) : c.resp.writeRemaining;
            boolean ends = op.position.ends();
            if (ends ? len != remaining : len > remaining) return byType(State.ERR_INVALID_REQUEST);
        }
        if (op.opClass == OpClass.ATOMIC_WRITE && Integer.toUnsignedLong(p.reth().dlen()) != 8) {
            return State.ERR_INVALID_REQUEST;
        }
        return op.hasReth() || op.opClass == OpClass.ATOMIC ? State.CHK_RKEY : State.EXECUTE;
    }

    /** IB_FLUSH_GLOBAL (1) and IB_FLUSH_PERSISTENT (2) need the matching IBV_ACCESS_FLUSH_* flag. */
    private static int flushAccess(int placementType) {
        return ((placementType & 1) != 0 ? Access.FLUSH_GLOBAL : 0) | ((placementType & 2) != 0 ? Access.FLUSH_PERSISTENT : 0);
    }

    private State checkRkey() {
        long va;
        long length;
        int rkey;
        int needed;
        if (op.opClass == OpClass.ATOMIC) {
            va = p.atomicEth().va();
            rkey = p.atomicEth().rkey();
            length = 8;
            needed = Access.REMOTE_ATOMIC;
        } else {
            va = p.reth().va();
            rkey = p.reth().rkey();
            length = Integer.toUnsignedLong(p.reth().dlen());
            needed = switch (op.opClass) {
                case RDMA_WRITE, ATOMIC_WRITE -> Access.REMOTE_WRITE;
                case FLUSH -> flushAccess(p.feth().placementType());
                default -> Access.REMOTE_READ;
            };
            if (op.opClass == OpClass.ATOMIC_WRITE && (va & 7) != 0) return State.ERR_INVALID_REQUEST; // oA19-28
            if (op.opClass == OpClass.FLUSH && p.feth().selectivityLevel() == 1) length = 0; // whole region
            if (length == 0 && op.opClass != OpClass.FLUSH) return State.EXECUTE; // zero-length RDMA checks no key
        }
        mr = resolveRkey(rkey, needed, va, length);
        if (mr == null) return byType(State.ERR_RKEY_VIOLATION);
        // rxe checks the key first and the alignment when it executes (RESPST_ERR_MISALIGNED_ATOMIC)
        if (op.opClass == OpClass.ATOMIC && (va & 7) != 0) {
            engine.refuse(c.qp, psn, String.format("an atomic at 0x%x: the address is not 8-byte aligned", va));
            return State.ERR_INVALID_REQUEST;
        }
        return State.EXECUTE;
    }

    /** The region behind {@code rkey} (a region's own, or a window's) when it allows the access now, else null. */
    private MemoryRegion resolveRkey(int rkey, int needed, long va, long length) {
        MemoryRegion region = engine.keys.byRkey(rkey);
        if (region != null) {
            AccessError e = region.check(c.qp.pd(), needed, va, length);
            if (e == null) return region;
            engine.refuse(c.qp, psn, Refusals.region(e, region, c.qp, Refusals.asked(what(), va, length, rkey), needed, va, length));
            return null;
        }
        MemoryWindow mw = engine.keys.windowByRkey(rkey);
        if (mw == null) {
            engine.refuse(c.qp, psn, Refusals.noKey(engine.keys, Refusals.asked(what(), va, length, rkey), rkey));
            return null;
        }
        AccessError e = mw.check(c.qp.pd(), c.qp.qpn(), needed, va, length);
        if (e != null) {
            engine.refuse(c.qp, psn, Refusals.window(e, mw, c.qp, Refusals.asked(what(), va, length, rkey), needed, va, length));
            return null;
        }
        return mw.mr(); // the window's addresses are the region's
    }

    /** The request in words: "an RDMA WRITE", for the refusals. */
    private String what() {
        return switch (op.opClass) {
            case SEND -> "a SEND";
            case RDMA_WRITE -> "an RDMA WRITE";
            case RDMA_READ_REQUEST -> "an RDMA READ";
            case ATOMIC -> "an atomic";
            case ATOMIC_WRITE -> "an ATOMIC WRITE";
            case FLUSH -> "a FLUSH";
            default -> "a request (" + op.name() + ")";
        };
    }

    private State execute() {
        switch (op.opClass) {
            case SEND -> {
                RecvWqe w = c.resp.wqe;
                // the receive's regions may have been deregistered since its first packet (rxe's copy_data looks each up)
                if (!Sges.stillValid(engine.keys, c.qp.pd(), Access.LOCAL_WRITE, w.sges, w.sgeMrs, w.numSge)) return State.ERR_MALFORMED_WQE;
                Sges.scatter(w.sges, w.sgeMrs, w.numSge, c.resp.offset, p.segment(), p.payloadOffset(), len);
                c.resp.offset += len;
            }
            case RDMA_WRITE -> {
                if (op.hasReth()) {
                    c.resp.writeRkey = p.reth().rkey();
                    c.resp.writeVa = p.reth().va();
                    c.resp.writeRemaining = Integer.toUnsignedLong(p.reth().dlen());
                    c.resp.writeLength = c.resp.writeRemaining;
                }
                if (len > 0) {
                    // every packet of the WRITE checks its key again (rxe keeps the rkey in resp.rkey): a region
                    // invalidated, deregistered or mapped elsewhere since the FIRST takes no more of it
                    MemoryRegion m = op.hasReth() ? mr : resolveRkey(c.resp.writeRkey, Access.REMOTE_WRITE, c.resp.writeVa, len);
                    if (m == null) return State.ERR_RKEY_VIOLATION;
                    MemorySegment.copy(p.segment(), p.payloadOffset(), m.segment(), m.offsetOf(c.resp.writeVa), len);
                }
                c.resp.writeVa += len;
                c.resp.writeRemaining -= len;
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
                    mr.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, mr.offsetOf(p.reth().va()), value);
                }
                // FLUSH: memory here is coherent and not persistent-memory backed; placement is immediate
                c.resp.msn = (c.resp.msn + 1) & 0xffffff;
                ReadAtomicResource r = nextResource();
                r.kind = ReadAtomicResource.Kind.REPLAY_ACK;
                r.firstPsn = psn;
                r.lastPsn = psn;
                r.msn = c.resp.msn;
                sendReadResponseAck(psn, c.resp.msn);
                c.resp.psn = Psn.add(psn, 1);
                c.resp.ackPsn = c.resp.psn;
                c.resp.lastOpcode = op;
                return State.DONE;
            }
            default -> {
                return State.ERR_INVALID_REQUEST;
            }
        }
        c.resp.psn = Psn.add(c.resp.psn, 1);
        c.resp.ackPsn = c.resp.psn;
        c.resp.lastOpcode = op;
        if (op.position.ends()) c.resp.msn = (c.resp.msn + 1) & 0xffffff;
        return State.COMPLETE;
    }

    private State complete() {
        if (!op.position.ends() || !op.consumesRecvWqe()) return State.ACKNOWLEDGE;
        RecvWqe w = c.resp.wqe;
        int flags = 0;
        int imm = 0;
        WcOpcode wcOp = WcOpcode.RECV;
        int byteLen = (int) c.resp.offset;
        if (op.hasImmediate()) {
            flags |= WorkCompletion.WC_WITH_IMM;
            imm = p.immDt().value();
        }
        if (op.opClass == OpClass.RDMA_WRITE) {
            wcOp = WcOpcode.RECV_RDMA_WITH_IMM;
            byteLen = (int) c.resp.writeLength;
        }
        if (op.hasInvalidate()) {
            // only a fast-register region or a type 2 window bound through this QP can be invalidated remotely
            int rkey = p.ieth().rkey();
            MemoryRegion target = engine.keys.byRkey(rkey);
            MemoryWindow mw = engine.keys.windowByRkey(rkey);
            if (target != null && target.isFastReg() && target.pd() == c.qp.pd() && target.boundWindows() == 0) {
                target.invalidate();
            } else if (mw != null && mw.type() == 2 && mw.boundQpn() == c.qp.qpn()) {
                mw.invalidate();
            } else {
                return State.ERR_INVALID_REQUEST;
            }
            flags |= WorkCompletion.WC_WITH_INV;
            imm = rkey;
        }
        long wrId = w.wrId;
        releaseRecvWqe(c);
        engine.completions.recv(c, wrId, WcStatus.SUCCESS, wcOp, byteLen, imm, flags, 0, p.bth().se());
        return State.ACKNOWLEDGE;
    }

    private State acknowledge() {
        if (!uc() && p.bth().ackReq()) sendAck(Aeth.ACK_CREDITS_INVALID, psn);
        return State.DONE;
    }

    private void sendAck(int syndrome, int ackPsn) {
        FrameWriter w = engine.begin(c.template, Opcode.RC_ACKNOWLEDGE, c.qp.attr().destQpNum, ackPsn);
        w.aeth().syndrome(syndrome).msn(c.resp.msn);
        engine.transmit(0);
    }

    private State readReply() {
        long va = p.reth().va();
        long length = Integer.toUnsignedLong(p.reth().dlen());
        ReadAtomicResource r = nextResource();
        r.kind = ReadAtomicResource.Kind.READ;
        r.firstPsn = psn;
        r.rkey = p.reth().rkey();
        r.va = va;
        r.length = length;
        c.resp.msn = (c.resp.msn + 1) & 0xffffff;
        int packets = sendReadResponses(mr, va, length, psn, true);
        r.lastPsn = Psn.add(psn, packets - 1);
        c.resp.psn = Psn.add(psn, packets);
        c.resp.lastOpcode = op;
        return State.DONE;
    }

    /**
     * Sends the READ response packets for {@code length} bytes at {@code va}, the first one with PSN {@code first},
     * each with the current MSN. A replay from inside the READ ({@code startsMessage} false) goes on with MIDDLE
     * and LAST, as rxe's read_reply does in its replay state: an rxe requester takes FIRST only at the READ's
     * first PSN.
     */
    private int sendReadResponses(MemoryRegion region, long va, long length, int first, boolean startsMessage) {
        int mtu = c.qp.mtuBytes();
        int packets = (int) Math.max(1, (length + mtu - 1) / mtu);
        for (int i = 0; i < packets; i++) {
            Position pos = Opcodes.position(i == 0 && startsMessage, i == packets - 1);
            Opcode rop = Opcodes.cached(Transport.RC, OpClass.RDMA_READ_RESPONSE, pos, false, false);
            FrameWriter w = engine.begin(c.template, rop, c.qp.attr().destQpNum, Psn.add(first, i));
            if (rop.hasAeth()) w.aeth().syndrome(Aeth.ACK_CREDITS_INVALID).msn(c.resp.msn);
            int chunk = (int) Math.min(mtu, length - (long) i * mtu);
            if (chunk > 0) {
                MemorySegment.copy(region.segment(), region.offsetOf(va + (long) i * mtu), w.payloadSegment(),
                        w.payloadOffset(), chunk);
            }
            engine.transmit(chunk);
        }
        return packets;
    }

    private State atomicReply() {
        long va = p.atomicEth().va();
        long at = mr.offsetOf(va);
        // atomics act on the 8 bytes in host (little-endian) order, as on an x86 host
        long original = mr.segment().get(HOST_LONG, at);
        long updated = op == Opcode.RC_COMPARE_SWAP
                ? (original == p.atomicEth().compare() ? p.atomicEth().swapAdd() : original)
                : original + p.atomicEth().swapAdd();
        mr.segment().set(HOST_LONG, at, updated);
        c.resp.msn = (c.resp.msn + 1) & 0xffffff;
        ReadAtomicResource r = nextResource();
        r.kind = ReadAtomicResource.Kind.ATOMIC;
        r.firstPsn = psn;
        r.lastPsn = psn;
        r.original = original;
        r.msn = c.resp.msn;
        sendAtomicAck(psn, original, c.resp.msn);
        c.resp.psn = Psn.add(psn, 1);
        c.resp.ackPsn = c.resp.psn;
        c.resp.lastOpcode = op;
        return State.DONE;
    }

    private void sendAtomicAck(int ackPsn, long original, int msn) {
        FrameWriter w = engine.begin(c.template, Opcode.RC_ATOMIC_ACKNOWLEDGE, c.qp.attr().destQpNum, ackPsn);
        w.aeth().syndrome(Aeth.ACK_CREDITS_INVALID).msn(msn);
        w.atomicAckEth().orig(original);
        engine.transmit(0);
    }

    /** The answer to FLUSH and ATOMIC_WRITE: a zero-length RDMA READ RESPONSE ONLY carrying an ACK. */
    private void sendReadResponseAck(int ackPsn, int msn) {
        FrameWriter w = engine.begin(c.template, Opcode.RC_RDMA_READ_RESPONSE_ONLY, c.qp.attr().destQpNum, ackPsn);
        w.aeth().syndrome(Aeth.ACK_CREDITS_INVALID).msn(msn);
        engine.transmit(0);
    }

    private ReadAtomicResource nextResource() {
        ReadAtomicResource r = c.resp.resources[c.resp.nextResource];
        c.resp.nextResource = (c.resp.nextResource + 1) % c.resp.resources.length;
        return r;
    }

    /**
     * A request the responder has already executed (IBTA 9.9.1.1.1): SEND and WRITE are acknowledged again;
     * a READ is answered again from memory; an atomic is answered from its saved result, never re-executed.
     */
    private State duplicate() {
        engine.counters.inc(Counter.DUPLICATE_REQUEST);
        switch (op.opClass) {
            // C9-105: acknowledged again, with the PSN of the last SEND/WRITE/atomic done, never a READ's
            case SEND, RDMA_WRITE -> sendAck(Aeth.ACK_CREDITS_INVALID, Psn.add(c.resp.ackPsn, -1));
            case RDMA_READ_REQUEST -> {
                return duplicateRead();
            }
            case ATOMIC -> {
                for (ReadAtomicResource r : c.resp.resources) {
                    if (r.kind == ReadAtomicResource.Kind.ATOMIC && r.firstPsn == psn) {
                        sendAtomicAck(psn, r.original, r.msn);
                        break;
                    }
                }
            }
            case ATOMIC_WRITE, FLUSH -> {
                for (ReadAtomicResource r : c.resp.resources) {
                    if (r.kind == ReadAtomicResource.Kind.REPLAY_ACK && r.firstPsn == psn) {
                        sendReadResponseAck(psn, r.msn); // not executed again
                        break;
                    }
                }
            }
            default -> { }
        }
        return State.DONE;
    }

    /**
     * A READ re-issued from {@code psn}, which lies in a READ already answered (rxe duplicate_request): it must
     * name the same rkey and lie inside the original range, else it is dropped; the key is checked again
     * (rxe_recheck_mr), so a region deregistered or invalidated since gives a remote access error.
     */
    private State duplicateRead() {
        for (ReadAtomicResource r : c.resp.resources) {
            if (r.kind != ReadAtomicResource.Kind.READ || Psn.diff(psn, r.firstPsn) < 0 || Psn.diff(psn, r.lastPsn) > 0) {
                continue;
            }
            long va = p.reth().va();
            long length = Integer.toUnsignedLong(p.reth().dlen());
            if (p.reth().rkey() != r.rkey || !MemoryRegion.inBounds(r.va, r.length, va, length)) {
                engine.counters.inc(Counter.DROP_BAD_DUPLICATE);
                return State.DONE;
            }
            MemoryRegion region = resolveRkey(r.rkey, Access.REMOTE_READ, va, length);
            if (region == null) return State.ERR_RKEY_VIOLATION;
            sendReadResponses(region, va, length, psn, psn == r.firstPsn);
            return State.DONE;
        }
        return State.DONE; // its resource was recycled: nothing to answer from (rxe drops it too)
    }

    /** One NAK per gap: later packets of the same gap are dropped silently (IBTA 9.7.5.1.1). */
    private State outOfSequence() {
        engine.counters.inc(Counter.OUT_OF_SEQ_REQUEST);
        if (!c.resp.nakSent) {
            c.resp.nakSent = true;
            sendAck(Aeth.nak(NakCode.PSN_SEQUENCE_ERROR, 0).syndrome(), c.resp.psn);
        }
        return State.DONE;
    }

    private State rnr() {
        engine.counters.inc(Counter.SEND_RNR_ERR);
        sendAck(Aeth.rnrNak(c.qp.attr().minRnrTimer & 0x1f, 0).syndrome(), psn);
        return State.DONE;
    }

    /**
     * Class C and D errors (IBTA 9.9.3.1.3): NAK the request, complete the receive WQE in use (if any) in
     * error, and move the QP to ERR.
     */
    private State classError(NakCode code, AsyncEvent.Type event) {
        if (!uc()) sendAck(Aeth.nak(code, 0).syndrome(), psn);
        if (c.resp.wqe != null) {
            WcStatus st = recvStatus != WcStatus.SUCCESS ? recvStatus : WcStatus.REM_INV_REQ_ERR;
            long wrId = c.resp.wqe.wrId;
            int received = (int) c.resp.offset;
            releaseRecvWqe(c);
            engine.completions.recv(c, wrId, st, WcOpcode.RECV, received, 0, 0, 0, false);
        }
        engine.completions.toError(c, event);
        return State.DONE;
    }

    private RecvWqe takeRecvWqe(QpContext ctx) {
        QueuePair qp = ctx.qp;
        SharedReceiveQueue srq = qp.srq();
        if (srq == null) {
            RecvWqe w = qp.rq().head();
            ctx.resp.wqe = w;
            ctx.resp.wqeFromSrq = false;
            return w;
        }
        RecvWqe head = srq.ring().head();
        if (head == null) return null;
        if (ctx.resp.srqCopy == null || ctx.resp.srqCopy.sges.length < srq.maxSge()) ctx.resp.srqCopy = new RecvWqe(srq.maxSge());
        RecvWqe copy = ctx.resp.srqCopy;
        copy.wrId = head.wrId;
        copy.numSge = head.numSge;
        copy.length = head.length;
        for (int i = 0; i < head.numSge; i++) copy.sges[i].copyFrom(head.sges[i]);
        srq.ring().pop();
        if (srq.limitReached()) engine.srqLimit(srq);
        ctx.resp.wqe = copy;
        ctx.resp.wqeFromSrq = true;
        return copy;
    }

    private void releaseRecvWqe(QpContext ctx) {
        if (!ctx.resp.wqeFromSrq) ctx.qp.rq().pop();
        ctx.resp.wqe = null;
        ctx.resp.offset = 0;
    }

    /** UD: Q_Key check, one receive WQE per datagram, and the 40-byte GRH area in front of the payload. */
    private void ud(FrameView v) {
        QueuePair qp = c.qp;
        int qkey = p.deth().qkey();
        if (qkey != qp.attr().qkey) {
            engine.counters.inc(Counter.DROP_BAD_QKEY);
            engine.refuse(qp, psn, String.format("a UD datagram with Q_Key 0x%x; the QP's Q_Key is 0x%x (dropped)", qkey, qp.attr().qkey));
            return;
        }
        RecvWqe w = takeRecvWqe(c);
        if (w == null) {
            engine.counters.inc(Counter.DROP_UD_NO_RECV);
            return;
        }
        WcStatus status = WcStatus.SUCCESS;
        if (Sges.resolve(engine.keys, qp.pd(), w.sges, w.sgeMrs, w.numSge, Access.LOCAL_WRITE) != null) {
            status = WcStatus.LOC_PROT_ERR;
        } else if (GRH_BYTES + (long) len > w.length) {
            status = WcStatus.LOC_LEN_ERR;
        } else {
            if (grh == null) grh = engine.arena.allocate(GRH_BYTES);
            grh.fill((byte) 0);
            if (v.ipVersion() == 4) {
                MemorySegment.copy(v.buffer().segment, v.ipOffset(), grh, 20, 20);
            } else {
                MemorySegment.copy(v.buffer().segment, v.ipOffset(), grh, 0, 40);
            }
            Sges.scatter(w.sges, w.sgeMrs, w.numSge, 0, grh, 0, GRH_BYTES);
            Sges.scatter(w.sges, w.sgeMrs, w.numSge, GRH_BYTES, p.segment(), p.payloadOffset(), len);
        }
        int flags = WorkCompletion.WC_GRH;
        int imm = 0;
        if (op.hasImmediate()) {
            flags |= WorkCompletion.WC_WITH_IMM;
            imm = p.immDt().value();
        }
        long wrId = w.wrId;
        releaseRecvWqe(c);
        engine.completions.recv(c, wrId, status, WcOpcode.RECV, status == WcStatus.SUCCESS ? GRH_BYTES + len : 0, imm, flags,
                p.deth().sqpn(), p.bth().se());
    }
}
