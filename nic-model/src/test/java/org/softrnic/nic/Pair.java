package org.softrnic.nic;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.nic.cq.CompletionQueue;
import org.softrnic.nic.mem.MemoryRegion;
import org.softrnic.nic.mem.ProtectionDomain;
import org.softrnic.nic.qp.QueuePair;
import org.softrnic.nic.sim.SimFabric;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.WorkCompletion;

/** Two soft RNICs on a simulated fabric with one connected QP each: the fixture of the conformance suites. */
final class Pair {
    static final Gid GID_A = Gid.parse("192.0.2.1");
    static final Gid GID_B = Gid.parse("192.0.2.2");

    final SimFabric fabric;
    final Side a;
    final Side b;
    /** B's buffer with {@link #GUARD} bytes on each side that no region covers (null without guards). */
    final MemorySegment bWithGuards;
    static final int GUARD = 1 << 16;
    static final byte GUARD_BYTE = 0x5a;

    /** One end: device, PD, a 1 MiB registered buffer, CQs and the QP. */
    static final class Side {
        final Nic nic;
        final ProtectionDomain pd;
        final MemorySegment mem;
        final MemoryRegion mr;
        final CompletionQueue scq;
        final CompletionQueue rcq;
        QueuePair qp;

        Side(Nic nic, int memBytes, int cqe) {
            this(nic, nic.allocPd(), Arena.ofAuto().allocate(memBytes, 8), null, nic.createCq(cqe), nic.createCq(cqe));
        }

        Side(Nic nic, ProtectionDomain pd, MemorySegment mem, MemoryRegion mr, CompletionQueue scq,
                     CompletionQueue rcq) {
            this.nic = nic;
            this.pd = pd;
            this.mem = mem;
            this.mr = mr != null ? mr : nic.regMr(pd, mem, Access.LOCAL_WRITE | Access.REMOTE_ANY);
            this.scq = scq;
            this.rcq = rcq;
        }

        /** A side over objects someone else made. */
        static Side wrap(Nic nic, ProtectionDomain pd, MemorySegment mem, MemoryRegion mr, CompletionQueue cq) {
            return new Side(nic, pd, mem, mr, cq, cq);
        }

        long va(long offset) {
            return mr.iova() + offset;
        }

        void postRecv(long wrId, long offset, int length) {
            RecvWr wr = new RecvWr();
            wr.wrId = wrId;
            wr.numSge = 1;
            wr.sgList[0].set(va(offset), length, mr.lkey());
            nic.postRecv(qp, wr);
        }

        void postSrqRecv(org.softrnic.nic.qp.SharedReceiveQueue srq, long wrId, long offset, int length) {
            RecvWr wr = new RecvWr();
            wr.wrId = wrId;
            wr.numSge = 1;
            wr.sgList[0].set(va(offset), length, mr.lkey());
            nic.postSrqRecv(srq, wr);
        }

        SendWr wr(long wrId, SendOpcode op, long offset, int length) {
            SendWr wr = new SendWr();
            wr.wrId = wrId;
            wr.opcode = op;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.numSge = length == 0 ? 0 : 1;
            wr.sgList[0].set(va(offset), length, mr.lkey());
            return wr;
        }

        /**
         * A signaled atomic from here into the peer's region at {@code remoteOffset}, its 8-byte result to
         * {@code offset} here: FETCH_AND_ADD adds {@code compareAdd}; CMP_AND_SWP compares with it and swaps in {@code swap}.
         */
        SendWr atomic(long wrId, SendOpcode op, long offset, Side peer, long remoteOffset, long compareAdd, long swap) {
            SendWr wr = wr(wrId, op, offset, 8);
            wr.remoteAddr = peer.va(remoteOffset);
            wr.rkey = peer.mr.rkey();
            wr.compareAdd = compareAdd;
            wr.swap = swap;
            return wr;
        }

        void post(SendWr wr) {
            nic.postSend(qp, wr);
        }

        List<WorkCompletion> poll(CompletionQueue cq) {
            List<WorkCompletion> out = new ArrayList<>();
            WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
            int n;
            while ((n = cq.poll(wcs)) > 0) {
                for (int i = 0; i < n; i++) out.add(new WorkCompletion().copyFrom(wcs[i]));
            }
            return out;
        }

        List<WorkCompletion> sendCompletions() {
            return poll(scq);
        }

        List<WorkCompletion> recvCompletions() {
            return poll(rcq);
        }

        void fill(long offset, int length, int seed) {
            for (int i = 0; i < length; i++) mem.set(java.lang.foreign.ValueLayout.JAVA_BYTE, offset + i, (byte) (seed + i * 7));
        }
    }

    static Pair rc() {
        return new Pair(QpType.RC, Mtu.MTU_1024, 1, b -> { });
    }

    Pair(QpType type, Mtu mtu, long seed, java.util.function.Consumer<QpAttr> tweak) {
        this(type, mtu, seed, tweak, false);
    }

    /** An RC pair whose B registers the middle of a larger segment: the bytes just outside it are guards. */
    static Pair rcWithGuards(long seed) {
        return new Pair(QpType.RC, Mtu.MTU_1024, seed, attr -> { }, true);
    }

    static final Gid GID6_A = Gid.parse("2001:db8::1");
    static final Gid GID6_B = Gid.parse("2001:db8::2");

    /** An RC pair whose devices have IPv6 GIDs only (RoCEv2 over IPv6). */
    static Pair rcIpv6() {
        return new Pair(QpType.RC, Mtu.MTU_1024, 1, attr -> { }, false, GID6_A, GID6_B);
    }

    /** An RC pair whose devices' link says no one outside the process sees their packets (the in-process fabric). */
    static Pair rcInProcess() {
        return new Pair(QpType.RC, Mtu.MTU_1024, 1, attr -> { }, false, GID_A, GID_B, LinkProfile.IN_PROCESS);
    }

    private Pair(QpType type, Mtu mtu, long seed, java.util.function.Consumer<QpAttr> tweak, boolean guards) {
        this(type, mtu, seed, tweak, guards, GID_A, GID_B);
    }

    private Pair(QpType type, Mtu mtu, long seed, java.util.function.Consumer<QpAttr> tweak, boolean guards, Gid gidA, Gid gidB) {
        this(type, mtu, seed, tweak, guards, gidA, gidB, LinkProfile.FRAMES);
    }

    private Pair(QpType type, Mtu mtu, long seed, java.util.function.Consumer<QpAttr> tweak, boolean guards, Gid gidA, Gid gidB,
                 LinkProfile link) {
        fabric = new SimFabric(seed);
        fabric.tracing(true);
        a = new Side(fabric.add(NicConfig.of("a", gidA, seed).withMtu(Mtu.MTU_4096).withLink(link)), 1 << 20, 256);
        Nic nicB = fabric.add(NicConfig.of("b", gidB, seed + 1).withMtu(Mtu.MTU_4096).withLink(link));
        if (guards) {
            bWithGuards = Arena.ofAuto().allocate(GUARD + (1 << 20) + GUARD, 8);
            bWithGuards.fill(GUARD_BYTE);
            b = new Side(nicB, nicB.allocPd(), bWithGuards.asSlice(GUARD, 1 << 20), null, nicB.createCq(256), nicB.createCq(256));
        } else {
            bWithGuards = null;
            b = new Side(nicB, 1 << 20, 256);
        }
        a.qp = a.nic.createQp(a.pd, type, a.scq, a.rcq, null, new QpCaps(128, 128, 4, 4, 64), false);
        b.qp = b.nic.createQp(b.pd, type, b.scq, b.rcq, null, new QpCaps(128, 128, 4, 4, 64), false);
        connect(a, b, gidB, type, mtu, 0x100, 0x200, tweak);
        connect(b, a, gidA, type, mtu, 0x200, 0x100, tweak);
    }

    static void connect(Side s, Side peer, Gid peerGid, QpType type, Mtu mtu, int sqPsn, int rqPsn,
                        java.util.function.Consumer<QpAttr> tweak) {
        QpAttr attr = QpAttr.rcConnect(peerGid, peer.qp.qpn(), mtu);
        attr.qkey = 0x11111111;
        attr.rqPsn = rqPsn;
        attr.minRnrTimer = 1;
        attr.sqPsn = sqPsn;
        tweak.accept(attr);
        s.nic.modifyToRts(s.qp, attr);
    }

    /** A's RDMA WRITE of {@code len} bytes from its offset {@code localOff} to B's offset {@code remoteOff}. */
    SendWr write(long wrId, long localOff, long remoteOff, int len) {
        SendWr w = a.wr(wrId, org.softrnic.verbs.SendOpcode.RDMA_WRITE, localOff, len);
        w.remoteAddr = b.va(remoteOff);
        w.rkey = b.mr.rkey();
        return w;
    }

    long run() {
        return fabric.runUntilIdle();
    }

    /** A 64 KiB WRITE from A's offset 0 to B's 100 000, run until idle: it must succeed and the bytes be there. */
    void write64k() {
        a.fill(0, 65536, 3);
        a.post(write(1, 0, 100_000, 65536));
        run();
        org.junit.jupiter.api.Assertions.assertEquals(org.softrnic.verbs.WcStatus.SUCCESS, a.sendCompletions().getFirst().status);
        RcBasicsTest.assertSameBytes(a.mem, 0, b.mem, 100_000, 65536);
    }
}
