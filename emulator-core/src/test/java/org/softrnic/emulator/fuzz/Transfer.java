package org.softrnic.emulator.fuzz;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.softrnic.nic.Nic;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WcStatus;
import org.softrnic.verbs.WorkCompletion;

/**
 * The live RC transfer under fire: {@code lanes} QP pairs from A to B, each running rounds of an RDMA WRITE, an
 * RDMA READ of what it wrote, a SEND and a FETCH_AND_ADD, every byte checked against a reference after each
 * round. Every region sits between guard bytes that no region covers. A round that fails is explained only by
 * an injected packet that could take effect on that lane (valid ICRC, from the peer's own address, at the
 * lane's QP) in that round or the one before; the lane then starts again on new QPs.
 */
final class Transfer implements Mutator.Targets {
    static final int GUARD = 4096;
    static final byte GUARD_BYTE = 0x5a;
    static final long REGION = 192 << 10;
    // A's region: WRITE source, READ destination, SEND source, the atomic's result
    private static final int SRC = 0, RD = 64 << 10, SND = 128 << 10, RES = 160 << 10;
    // B's region: the WRITE target, the receive buffer, the atomic's word
    private static final int W = 0, W_LEN = 128 << 10, RECV = 128 << 10, ATOMIC = 160 << 10;
    private static final int OPS = 4;

    private final FuzzRig rig;
    private final Random r;
    private final long roundNanos;
    private final Nic[] nic = new Nic[2];
    private final ProtectionDomain[] pd = new ProtectionDomain[2];
    private final CompletionQueue[] cq = new CompletionQueue[2];
    private final MemorySegment[] mem = new MemorySegment[2];
    private final Lane[] lanes;
    private final WorkCompletion[] wcs = new WorkCompletion[16];
    /** By side, the lanes' QPNs, kept as the lanes restart. */
    private final int[][] qpns;

    long roundsVerified;
    long roundsEnded;
    final Map<String, Long> endings = new TreeMap<>();
    String firstEnding;
    String unexplained;

    private final class Lane {
        final int k;
        final MemoryRegion[] mr = new MemoryRegion[2];
        final QueuePair[] qp = new QueuePair[2];
        final byte[] shadow = new byte[W_LEN];
        int incarnation;
        boolean active;
        long deadline;
        int doneA, doneB;
        WcStatus failed;
        String failedOp;
        // this round's expectations
        int writeOff, writeLen, readOff, readLen, sendLen;
        long atomicOld, add;
        /** Packets that could take effect on this lane, this round and the one before. */
        int hits, hitsBefore;
        String lastHit;

        Lane(int k) {
            this.k = k;
            for (int s = 0; s < 2; s++) {
                MemorySegment slice = mem[s].asSlice(GUARD + k * (REGION + GUARD), REGION);
                mr[s] = nic[s].regMr(pd[s], slice, 0x10_0000_0000L * (k + 1) + (s << 20), Access.LOCAL_WRITE | Access.REMOTE_ANY);
            }
            connect();
            MemorySegment.copy(mr[1].segment(), ValueLayout.JAVA_BYTE, W, shadow, 0, W_LEN);
        }

        void connect() {
            for (int s = 0; s < 2; s++) qp[s] = nic[s].createQp(pd[s], QpType.RC, cq[s], cq[s], null, QpCaps.of(16, 16), false);
            int psnA = r.nextInt(1 << 24), psnB = r.nextInt(1 << 24);
            for (int s = 0; s < 2; s++) {
                QpAttr a = QpAttr.rcConnect(Gid.of(org.softrnic.wire.frame.Ipv4.addr(rig.ip(1 - s))), qp[1 - s].qpn(), Mtu.MTU_1024);
                a.sqPsn = s == 0 ? psnA : psnB;
                a.rqPsn = s == 0 ? psnB : psnA;
                nic[s].modifyToRts(qp[s], a);
            }
            for (int s = 0; s < 2; s++) qpns[s][k] = qp[s].qpn();
        }

        long wrId(int op) {
            return (long) incarnation << 32 | (long) k << 8 | op;
        }

        void start() {
            hitsBefore = hits;
            hits = 0;
            MemorySegment a = mr[0].segment();
            writeLen = 1 + r.nextInt(64 << 10);
            writeOff = r.nextInt(W_LEN - writeLen + 1);
            readLen = 1 + r.nextInt(64 << 10);
            readOff = r.nextInt(W_LEN - readLen + 1);
            sendLen = r.nextInt(16 << 10);
            add = r.nextLong();
            fill(a, SRC, writeLen);
            fill(a, SND, sendLen);
            a.asSlice(RD, 64 << 10).fill((byte) 0);
            a.asSlice(RES, 8).fill((byte) 0);
            mr[1].segment().asSlice(RECV, 16 << 10).fill((byte) 0);
            atomicOld = mr[1].segment().get(ValueLayout.JAVA_LONG_UNALIGNED, ATOMIC);

            RecvWr recv = new RecvWr(1);
            recv.wrId = wrId(OPS);
            recv.numSge = 1;
            recv.sgList[0].set(mr[1].iova() + RECV, 16 << 10, mr[1].lkey());
            nic[1].postRecv(qp[1], recv);
            post(SendOpcode.RDMA_WRITE, 0, SRC, writeLen, mr[1].iova() + W + writeOff);
            post(SendOpcode.RDMA_READ, 1, RD, readLen, mr[1].iova() + W + readOff);
            post(SendOpcode.SEND, 2, SND, sendLen, 0);
            SendWr f = wr(SendOpcode.ATOMIC_FETCH_AND_ADD, 3, RES, 8, mr[1].iova() + ATOMIC);
            f.compareAdd = add;
            nic[0].postSend(qp[0], f);
            active = true;
            doneA = 0;
            doneB = 0;
            failed = null;
            deadline = rig.nanoTime() + roundNanos;
        }

        private void post(SendOpcode op, int index, int offset, int length, long remote) {
            nic[0].postSend(qp[0], wr(op, index, offset, length, remote));
        }

        private SendWr wr(SendOpcode op, int index, int offset, int length, long remote) {
            SendWr w = new SendWr(1);
            w.wrId = wrId(index);
            w.opcode = op;
            w.sendFlags = SendFlags.SIGNALED;
            w.numSge = length == 0 ? 0 : 1;
            w.sgList[0].set(mr[0].iova() + offset, length, mr[0].lkey());
            w.remoteAddr = remote;
            w.rkey = mr[1].rkey();
            return w;
        }

        void completed(WorkCompletion wc, int side) {
            if (side == 0) doneA++;
            else doneB++;
            if (wc.status != WcStatus.SUCCESS && failed == null) {
                failed = wc.status;
                failedOp = side == 0 ? "A " + wc.opcode : "B recv";
            }
            if (failed == null && side == 1 && wc.byteLen != sendLen) {
                failed = WcStatus.GENERAL_ERR;
                failedOp = "B recv byte_len " + wc.byteLen + " != " + sendLen;
            }
        }

        /** Ends the round when every completion is in, one failed, or time ran out. */
        void check(long now) {
            if (!active) return;
            boolean over = failed != null || now > deadline;
            if (!over && (doneA < OPS || doneB < 1)) return;
            active = false;
            String wrong = failed != null ? failedOp + " " + failed
                    : now > deadline && (doneA < OPS || doneB < 1) ? "no completion after " + roundNanos / 1_000_000 + " ms (" + doneA + "/" + OPS + " sends, " + doneB + "/1 receive)"
                    : verify();
            if (wrong == null) {
                roundsVerified++;
                return;
            }
            if (hits + hitsBefore == 0) {
                if (unexplained == null) unexplained = "lane " + k + " (QPs 0x" + Integer.toHexString(qp[0].qpn()) + ", 0x"
                        + Integer.toHexString(qp[1].qpn()) + "): " + wrong + ", and no injected packet could have caused it";
            } else {
                roundsEnded++;
                String what = failed != null ? failed.name() : wrong.startsWith("no completion") ? "no completion" : "data changed";
                endings.merge(what, 1L, Long::sum);
                if (firstEnding == null) firstEnding = "lane " + k + ": " + wrong + " after " + lastHit;
            }
            restart();
        }

        /** The round's data against the reference; null when every byte is as it should be. */
        private String verify() {
            MemorySegment a = mr[0].segment(), b = mr[1].segment();
            MemorySegment.copy(a, ValueLayout.JAVA_BYTE, SRC, shadow, writeOff, writeLen);
            if (MemorySegment.mismatch(b, W, W + W_LEN, MemorySegment.ofArray(shadow), 0, W_LEN) >= 0) return "B's WRITE target differs";
            if (MemorySegment.mismatch(a, RD, RD + readLen, MemorySegment.ofArray(shadow), readOff, readOff + readLen) >= 0) return "the READ's data differs";
            if (MemorySegment.mismatch(a, SND, SND + sendLen, b, RECV, RECV + sendLen) >= 0) return "the SEND's data differs";
            if (a.get(ValueLayout.JAVA_LONG_UNALIGNED, RES) != atomicOld) return "FETCH_AND_ADD returned another value";
            if (b.get(ValueLayout.JAVA_LONG_UNALIGNED, ATOMIC) != atomicOld + add) return "the atomic's word is wrong";
            return null;
        }

        /** New QPs on both sides; the reference takes B's memory as it now is. */
        private void restart() {
            for (int s = 0; s < 2; s++) nic[s].destroyQp(qp[s]);
            incarnation++;
            connect();
            MemorySegment.copy(mr[1].segment(), ValueLayout.JAVA_BYTE, W, shadow, 0, W_LEN);
            hits = 0;
            hitsBefore = 0;
        }
    }

    Transfer(FuzzRig rig, Random r, int lanes, long roundNanos) {
        this.rig = rig;
        this.r = r;
        this.roundNanos = roundNanos;
        for (int i = 0; i < wcs.length; i++) wcs[i] = new WorkCompletion();
        for (int s = 0; s < 2; s++) {
            nic[s] = rig.nic(s);
            pd[s] = nic[s].allocPd();
            cq[s] = nic[s].createCq(4096);
            mem[s] = Arena.ofAuto().allocate(GUARD + lanes * (REGION + GUARD), 4096);
            mem[s].fill(GUARD_BYTE);
        }
        this.qpns = new int[2][lanes];
        this.lanes = new Lane[lanes];
        for (int k = 0; k < lanes; k++) this.lanes[k] = new Lane(k);
        for (int s = 0; s < 2; s++) {
            for (Lane l : this.lanes) l.mr[s].segment().fill((byte) 0);
        }
        for (Lane l : this.lanes) MemorySegment.copy(l.mr[1].segment(), ValueLayout.JAVA_BYTE, W, l.shadow, 0, W_LEN);
    }

    /** Starts a round on every lane that has none. */
    void startIdle() {
        for (Lane l : lanes) if (!l.active && l.qp[0].state() == QpState.RTS) l.start();
    }

    /** Takes completions and ends the rounds that are over. */
    void poll() {
        for (int s = 0; s < 2; s++) {
            int n;
            while ((n = nic[s].pollCq(cq[s], wcs)) > 0) {
                for (int i = 0; i < n; i++) {
                    long id = wcs[i].wrId;
                    Lane l = lanes[(int) (id >>> 8) & 0xffffff];
                    if ((int) (id >>> 32) == l.incarnation && l.active) l.completed(wcs[i], s);
                }
            }
        }
        long now = rig.nanoTime();
        for (Lane l : lanes) l.check(now);
    }

    boolean anyActive() {
        for (Lane l : lanes) if (l.active) return true;
        return false;
    }

    /** Notes a packet that could take effect at {@code qpn} on {@code side}: it may explain that lane's failure. */
    void hit(int side, int qpn, String what) {
        mark(l -> l.qp[side].qpn() == qpn, what);
    }

    /** Notes a packet that could take effect on the region that {@code rkey} opens on {@code side}. */
    void hitRkey(int side, int rkey, String what) {
        mark(l -> l.mr[side].rkey() == rkey, what);
    }

    private void mark(java.util.function.Predicate<Lane> reached, String what) {
        for (Lane l : lanes) {
            if (reached.test(l)) {
                l.hits++;
                l.lastHit = what;
            }
        }
    }

    /** Guard bytes that changed: writes outside every region. */
    long guardBytesChanged() {
        long changed = 0;
        for (int s = 0; s < 2; s++) {
            for (int k = 0; k <= lanes.length; k++) {
                long at = k * (REGION + GUARD);
                for (long j = at; j < at + GUARD; j++) if (mem[s].get(ValueLayout.JAVA_BYTE, j) != GUARD_BYTE) changed++;
            }
        }
        return changed;
    }

    private void fill(MemorySegment s, long offset, int length) {
        for (int i = 0; i < length; i += 8) {
            long v = r.nextLong();
            for (int b = 0; b < 8 && i + b < length; b++) s.set(ValueLayout.JAVA_BYTE, offset + i + b, (byte) (v >>> (8 * b)));
        }
    }

    @Override
    public int[] qpns(int side) {
        return qpns[side];
    }

    @Override
    public long[] regionStarts(int side) {
        long[] v = new long[lanes.length];
        for (int i = 0; i < lanes.length; i++) v[i] = lanes[i].mr[side].iova();
        return v;
    }

    @Override
    public int[] rkeys(int side) {
        int[] v = new int[lanes.length];
        for (int i = 0; i < lanes.length; i++) v[i] = lanes[i].mr[side].rkey();
        return v;
    }

    @Override
    public long regionLength() {
        return REGION;
    }
}
