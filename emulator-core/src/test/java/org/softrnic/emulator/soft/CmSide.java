package org.softrnic.emulator.soft;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.softrnic.verbs.Access;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.MemoryRegion;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.WorkCompletion;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.EventChannel;

/** An rdma_cm id's verbs objects in the CM tests: a PD, one CQ, a registered buffer and the QP made on the id. */
class CmSide implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(10);

    final CmId id;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final MemorySegment mem;
    final MemoryRegion mr;

    CmSide(CmId id, Arena arena, int bytes, int access, java.util.function.Function<CompletionQueue, QpInitAttr> qp) {
        this.id = id;
        pd = id.verbs().allocPd();
        cq = id.verbs().createCq(32);
        mem = arena.allocate(bytes, 64);
        mr = pd.regMr(mem, Access.LOCAL_WRITE | access);
        QueuePair made = id.createQp(pd, qp.apply(cq));
        assertNotNull(made);
    }

    /** The next completion, the id's device driven meanwhile; an AssertionError after {@link #WAIT}. */
    WorkCompletion poll() {
        WorkCompletion[] wc = {new WorkCompletion()};
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            if (cq.poll(wc) == 1) return wc[0];
            ((SoftRnic) id.verbs().device()).progress();
        }
        throw new AssertionError("no completion");
    }

    /** The next event on {@code ch}, which must come within {@link #WAIT}. */
    static CmEvent next(EventChannel ch) throws InterruptedException {
        CmEvent e = ch.getEvent(WAIT);
        assertNotNull(e, "an event came");
        return e;
    }

    /** librdmacm's order: the QP, the verbs objects, then the id (and its device context). */
    @Override
    public void close() {
        id.qp().close();
        mr.close();
        cq.close();
        pd.close();
        id.close();
    }
}
