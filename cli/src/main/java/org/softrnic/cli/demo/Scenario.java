package org.softrnic.cli.demo;

import java.lang.foreign.ValueLayout;
import java.util.List;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.AddressVector;
import org.softrnic.verbs.MemoryWindow;
import org.softrnic.verbs.QpAttr;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QpType;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RecvWr;
import org.softrnic.verbs.SendFlags;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;

/**
 * The demo's scenarios: each posts a little work through the verbs and lets the fabric run. What they show
 * comes from the packets themselves; a scenario only says what to do and, in one line, what to look for.
 */
enum Scenario {
    SEND("send", "A SENDs a message into a receive B posted first", 64, 0, 64, (r, o, size) -> {
        recv(r.b, size);
        r.post(r.a, SendOpcode.SEND, size, 1);
        r.run();
    }),
    WRITE("write", "A WRITEs into B's memory: B's CPU never hears of it", 64, 0, 64, (r, o, size) -> {
        r.post(r.a, SendOpcode.RDMA_WRITE, size, 1);
        r.run();
    }),
    WRITE_IMM("write-imm", "A WRITE with immediate data: the data lands, and B gets a completion carrying 4 bytes of immediate data", 64, 0, 64, (r, o, size) -> {
        recv(r.b, 0);
        SendWr wr = r.request(r.a, SendOpcode.RDMA_WRITE_WITH_IMM, size, 1);
        wr.immData = 0x1234abcd;
        r.a.qp().postSend(wr);
        r.run();
    }),
    READ("read", "A READs B's memory: the request is small, the data comes back as responses", 64, 0, 64, (r, o, size) -> {
        r.post(r.a, SendOpcode.RDMA_READ, size, 1);
        r.run();
    }),
    ATOMIC("atomic", "A fetch-and-adds 1, then compare-and-swaps, on 8 bytes of B's memory", 8, 0, 64, (r, o, size) -> {
        r.b.mr().segment().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 41);
        SendWr add = r.request(r.a, SendOpcode.ATOMIC_FETCH_AND_ADD, 8, 1);
        add.compareAdd = 1;
        r.a.qp().postSend(add);
        SendWr cas = r.request(r.a, SendOpcode.ATOMIC_CMP_AND_SWP, 8, 2);
        cas.sgList[0].addr += 8;
        cas.compareAdd = 42;
        cas.swap = 7;
        r.a.qp().postSend(cas);
        r.run();
        long fetched = r.a.mr().segment().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        long found = r.a.mr().segment().get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
        long now = r.b.mr().segment().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        r.note(String.format("result: the fetch-and-add found %d; the compare-and-swap found %d, %s; B's 8 bytes now hold %d",
                fetched, found, found == cas.compareAdd ? "equal to compare " + cas.compareAdd + ", so it swapped in " + cas.swap
                        : "not compare " + cas.compareAdd + ", so nothing was swapped", now));
    }),
    MULTI_PACKET("multi-packet", "A WRITE larger than the path MTU goes out as FIRST, MIDDLE..., LAST", 3584, 0, 64, (r, o, size) -> {
        r.post(r.a, SendOpcode.RDMA_WRITE, size, 1);
        r.run();
    }),
    LOSS("loss", "packet 3 of a 6-packet WRITE is lost: B NAKs the gap and A goes back N", 6144, 3, 64, (r, o, size) -> {
        r.post(r.a, SendOpcode.RDMA_WRITE, size, 1);
        r.run();
    }),
    RNR("rnr", "A SENDs before B posted a receive: B answers RNR NAK, A waits and tries again", 64, 0, 64, (r, o, size) -> {
        r.post(r.a, SendOpcode.SEND, size, 1);
        r.runFor(1_000_000); // a millisecond: the first try and the RNR NAK
        recv(r.b, size);
        r.run();
    }),
    ODP("odp", "A WRITEs into B's on-demand-paging region: the first touch is a page fault, B answers RNR NAK while its"
            + " driver maps the page, and A's retry lands; B's pages are then invalidated, and the next WRITE faults again", 64, 0, 64,
            (r, o, size) -> {
        org.softrnic.verbs.MemoryRegion odp = r.keep(r.b.pd().regMr(r.allocate(Math.max(size, 4096)),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.ON_DEMAND));
        for (int wrId = 1; wrId <= 3; wrId++) {
            if (wrId == 3) r.invalidate(r.b, odp);
            SendWr wr = r.request(r.a, SendOpcode.RDMA_WRITE, size, wrId);
            wr.remoteAddr = odp.addr();
            wr.rkey = odp.rkey();
            r.a.qp().postSend(wr);
            r.run();
        }
        var st = r.b.device().odpStats(odp);
        r.note(String.format("B's region, as the kernel counts it: page_faults %d, page_invalidations %d, page_prefetch %d;"
                + " %d page(s) mapped now. The second WRITE found the page mapped and took no fault", st.pageFaults(),
                st.pageInvalidations(), st.pagePrefetch(), st.pagesMapped()));
    }),
    RKEY_VIOLATION("rkey-violation", "A WRITEs with a wrong rkey: B refuses, A's QP goes to the error state", 64, 0, 64, (r, o, size) -> {
        SendWr wr = r.request(r.a, SendOpcode.RDMA_WRITE, size, 1);
        wr.rkey ^= 0x100;
        r.a.qp().postSend(wr);
        r.run();
    }),
    PSN_WRAP("psn-wrap", "PSNs are 24 bits: a WRITE that starts at 16777214 goes on at 0", 4096, 0, 64, (r, o, size) -> {
        r.post(r.a, SendOpcode.RDMA_WRITE, size, 1);
        r.run();
    }),
    UD("ud", "A sends a datagram to B's UD QP through an address handle: no connection, no ACK", 64, 0, 64, (r, o, size) -> {
        QueuePair[] ud = r.udPair();
        RecvWr wr = new RecvWr(1);
        wr.wrId = 100;
        wr.numSge = 1;
        wr.sgList[0].set(r.b.mr().addr(), 40 + size, r.b.mr().lkey()); // room for the 40-byte GRH in front
        ud[1].postRecv(wr);
        SendWr send = r.request(r.a, SendOpcode.SEND, size, 1);
        send.ah = r.keep(r.a.pd().createAh(AddressVector.to(r.b.ctx().queryGid(1, 0))));
        send.remoteQpn = ud[1].qpn();
        send.remoteQkey = Stage.QKEY;
        ud[0].postSend(send);
        r.run();
    }),
    MW("mw", "B binds a memory window over 4 KiB of its region; A WRITEs inside it, then one byte past its end", 64, 0, 64, (r, o, size) -> {
        MemoryWindow mw = r.keep(r.b.pd().allocMw(2));
        SendWr bind = new SendWr(0);
        bind.opcode = SendOpcode.BIND_MW;
        bind.wrId = 50;
        bind.sendFlags = SendFlags.SIGNALED;
        bind.bindMw = mw;
        bind.bindRkey = (mw.rkey() & ~0xff) | ((mw.rkey() + 1) & 0xff); // ibv_inc_rkey: a new key for each bind
        bind.bindMr = r.b.mr();
        bind.bindAddr = r.b.mr().addr() + 4096;
        bind.bindLength = 4096;
        bind.bindAccess = Access.REMOTE_WRITE;
        r.b.qp().postSend(bind);
        r.run(); // the bind completes before A's WRITE uses its rkey
        SendWr in = r.request(r.a, SendOpcode.RDMA_WRITE, size, 1);
        in.remoteAddr = bind.bindAddr;
        in.rkey = bind.bindRkey;
        r.a.qp().postSend(in);
        r.run();
        SendWr past = r.request(r.a, SendOpcode.RDMA_WRITE, size, 2);
        past.remoteAddr = bind.bindAddr + 4096 - size + 1;
        past.rkey = bind.bindRkey;
        r.a.qp().postSend(past);
        r.run();
    }),
    CONNECT("connect", "A connects to B through the RDMA CM: REQ, REP and RTU on QP1, a WRITE, then DREQ and DREP", 64, 0, 64,
            (r, o, size) -> ConnectScript.play(r, size)),
    CNP("cnp", "packet 3 of a 16-packet WRITE reaches B CE-marked, as a congested switch marks it: B sends a CNP, A's DCQCN"
            + " (firmware) cuts its rate and paces the rest", 16384, 0, 64, (r, o, size) -> {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        r.simulation().markWhen(p -> p.from() == 0 && n.incrementAndGet() == 3);
        r.post(r.a, SendOpcode.RDMA_WRITE, size, 1);
        r.runFor(12_000); // the CNP, and the firmware's next decrease check 4 µs after it
        var before = r.a.device().rateState(r.a.qp());
        r.note(String.format(java.util.Locale.ROOT, "A's reaction point 12 µs in: rate RC %.0f Mb/s of a 10000 Mb/s line, target RT"
                + " %.0f Mb/s, α %.0f of 1023, %d CNP(s) handled; each packet now leaves %.2f µs after the last, not %.2f",
                before.currentRateMbps(), before.targetRateMbps(), before.alpha(), before.cnpsHandled(),
                org.softrnic.nic.sim.Pfc.MTU_1024_FRAME * 8.0 / before.currentRateMbps(), org.softrnic.nic.sim.Pfc.MTU_1024_FRAME * 8.0 / 10_000));
        r.run();
        var after = r.a.device().rateState(r.a.qp());
        r.note(String.format(java.util.Locale.ROOT, "once nothing more is marked, the increase timer (every 300 µs) brings RC back: %.0f Mb/s"
                + " when the fabric fell idle", after.currentRateMbps()));
    }),
    PFC("pfc", "A WRITEs through a switch whose port to B runs at 1 Gb/s, a tenth of A's link: A's packets fill the switch's"
            + " ingress past XOFF, the switch pauses A's priority 3 (PFC), and resumes it as the queue drains", 32768, 0, 64, (r, o, size) -> {
        r.post(r.a, SendOpcode.RDMA_WRITE, size, 1);
        r.run();
        long xoff = r.simulation().pauses().stream().filter(p -> p.quanta() > 0).count();
        long xon = r.simulation().pauses().size() - xoff;
        r.note(String.format(java.util.Locale.ROOT, "the switch paused A %d time(s) and resumed it %d time(s); nothing was dropped"
                + " (switch drops: %d), and B's 1 Gb/s port set the pace", xoff, xon,
                r.simulation().portStatistics("switch", "B").drops() + r.simulation().portStatistics("switch", "A").drops()));
    }),
    CQ_OVERFLOW("cq-overflow", "A's CQ holds 4 completions; 6 signalled WRITEs overflow it: IBV_EVENT_CQ_ERR", 64, 0, 4, (r, o, size) -> {
        for (int i = 1; i <= 6; i++) r.post(r.a, SendOpcode.RDMA_WRITE, size, i);
        r.run();
    });

    /** What a scenario does on the stage. */
    @FunctionalInterface
    interface Script {
        void play(Stage stage, DemoOptions options, int size);
    }

    final String id;
    final String summary;
    final int defaultSize;
    /** The packet this scenario drops by itself (1-based), unless --drop says another. */
    final int defaultDrop;
    final int cqe;
    final Script script;

    /**
     * The summary for this run. The loss scenario's is told from what happened on the wire: which packet was
     * lost (--drop chose it), and how it was recovered, by B's NAK of the gap or by A's ACK timer.
     */
    String headline(Demo.Played p) {
        if (this == CONNECT) return connectHeadline(p.steps());
        if (this != LOSS) return summary;
        int size = p.options().sizeOr(defaultSize);
        int packets = Math.max(1, (size + p.options().mtu().bytes - 1) / p.options().mtu().bytes);
        List<WireStep> steps = p.steps();
        int lost = -1;
        for (int i = 0; i < steps.size() && lost < 0; i++) if (steps.get(i).dropped()) lost = i;
        if (lost < 0) return summary;
        WireStep d = steps.get(lost);
        String what = d.from().equals("A") ? "packet " + (lost + 1) + " (" + d.packet().opcode().name() + ") of a " + packets + "-packet WRITE"
                : "packet " + (lost + 1) + ", B's " + d.packet().opcode().name() + ",";
        boolean naked = false;
        for (int i = lost + 1; i < steps.size() && !naked; i++) {
            WireStep w = steps.get(i);
            naked = w.from().equals("B") && !w.dropped() && w.packet().aeth() != null
                    && w.packet().aeth().type() == org.softrnic.wire.header.AethType.NAK;
        }
        String how = naked ? "B NAKs the gap and A goes back N"
                : d.from().equals("A") ? "no later packet shows B the gap, so A's ACK timer fires and A sends again"
                : "A's ACK timer fires, A sends again, and B acknowledges the duplicate";
        return what + " is lost: " + how;
    }

    /** The connect scenario's, when a packet was lost: which CM message, and that its sender's timer sent it again. */
    private String connectHeadline(List<WireStep> steps) {
        for (int i = 0; i < steps.size(); i++) {
            WireStep d = steps.get(i);
            if (!d.dropped()) continue;
            var msg = CmStep.message(d.packet());
            String what = msg != null ? d.from() + "'s " + msg : "packet " + (i + 1);
            boolean again = false;
            for (int j = i + 1; j < steps.size() && !again; j++) {
                again = steps.get(j).again() == WireStep.Again.CM_TIMEOUT && steps.get(j).from().equals(d.from());
            }
            return summary + "; " + what + " is lost" + (again ? ", and " + d.from() + "'s CM sends it again when its timer runs out" : "");
        }
        return summary;
    }

    Scenario(String id, String summary, int defaultSize, int defaultDrop, int cqe, Script script) {
        this.id = id;
        this.summary = summary;
        this.defaultSize = defaultSize;
        this.defaultDrop = defaultDrop;
        this.cqe = cqe;
        this.script = script;
    }

    /** The PSN both sides start at. */
    int startPsn() {
        return this == PSN_WRAP ? 0xfffffe : 0;
    }

    static Scenario byId(String id) {
        for (Scenario s : values()) if (s.id.equals(id)) return s;
        return null;
    }

    private static void recv(DemoRig.Side side, int size) {
        RecvWr wr = new RecvWr(1);
        wr.wrId = 100;
        wr.numSge = 1;
        wr.sgList[0].set(side.mr().addr() + side.mr().length() / 2, Math.max(size, 1), side.mr().lkey());
        side.qp().postRecv(wr);
    }

    /** The transport the scenario shows. */
    String transport() {
        return this == UD ? "UD" : "RC";
    }

    /** The rig as a scenario sees it: post requests and run. */
    static final class Stage {
        static final int QKEY = 0x11111111;

        final DemoRig.Side a;
        final DemoRig.Side b;
        private final DemoRig rig;

        Stage(DemoRig rig) {
            this.rig = rig;
            this.a = rig.a;
            this.b = rig.b;
        }

        /** A signalled request from {@code from}'s buffer at 0 to the other side's buffer at 0. */
        SendWr request(DemoRig.Side from, SendOpcode op, int size, long wrId) {
            DemoRig.Side to = from == a ? b : a;
            SendWr wr = new SendWr(1).sge(from.mr().addr(), size, from.mr().lkey());
            wr.opcode = op;
            wr.wrId = wrId;
            wr.sendFlags = SendFlags.SIGNALED;
            wr.remoteAddr = to.mr().addr();
            wr.rkey = to.mr().rkey();
            return wr;
        }

        void post(DemoRig.Side from, SendOpcode op, int size, long wrId) {
            from.qp().postSend(request(from, op, size, wrId));
        }

        void run() {
            rig.run();
        }

        <T extends AutoCloseable> T keep(T c) {
            return rig.keep(c);
        }

        /** A line printed after the completions: what the scenario's result was, in words. */
        void note(String line) {
            rig.notes.add(line);
        }

        /** A UD QP on each side, ready to send and receive with {@link #QKEY}. */
        QueuePair[] udPair() {
            QueuePair[] ud = new QueuePair[2];
            DemoRig.Side[] sides = {a, b};
            for (int i = 0; i < 2; i++) {
                ud[i] = keep(sides[i].pd().createQp(new QpInitAttr(QpType.UD, sides[i].cq(), sides[i].cq(), null, QpCaps.of(8, 8), false)));
                QpAttr attr = new QpAttr();
                attr.qkey = QKEY;
                ud[i].modifyToRts(attr);
            }
            return ud;
        }

        org.softrnic.nic.sim.SimFabric simulation() {
            return rig.simulation();
        }

        /** {@code bytes} of page-aligned memory, freed with the stage. */
        java.lang.foreign.MemorySegment allocate(long bytes) {
            return rig.allocate(bytes);
        }

        /** {@code side}'s kernel drops its NIC's translations of ODP region {@code mr}, written into the ladder. */
        void invalidate(DemoRig.Side side, org.softrnic.verbs.MemoryRegion mr) {
            int pages = side.device().odpInvalidate(mr, mr.addr(), mr.length());
            rig.faults.add(new PauseNotes.Timed(rig.simulation().clock().nanoTime(), String.format("%s's kernel invalidates %d page(s) of"
                    + " the ODP region (an MMU notifier, as when the memory is unmapped or migrates)", side.name(), pages)));
        }

        /** Runs {@code nanos} of virtual time only. */
        void runFor(long nanos) {
            rig.runFor(nanos);
        }
    }
}
