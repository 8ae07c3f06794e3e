package org.softrnic.cli.demo;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.SendOpcode;
import org.softrnic.verbs.SendWr;
import org.softrnic.verbs.cm.CmEvent;
import org.softrnic.verbs.cm.CmEventType;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.EventChannel;
import org.softrnic.verbs.cm.PortSpace;
import org.softrnic.verbs.cm.RdmaCm;

/**
 * The connect scenario, as rping does it through librdmacm: B listens on port 7174; A resolves B's address
 * and route, makes its QP on its id and connects; B accepts; A WRITEs into B; A disconnects, B answers. Each
 * side has its own event channel, as two processes would; the events each saw are told after the ladder.
 */
final class ConnectScript {
    static final int PORT = 7174;
    private static final Duration WAIT = Duration.ofSeconds(200); // virtual time: a REQ's 16 tries take 98 s

    private final Scenario.Stage r;
    private final List<String> seenA = new ArrayList<>();
    private final List<String> seenB = new ArrayList<>();

    private ConnectScript(Scenario.Stage r) {
        this.r = r;
    }

    static void play(Scenario.Stage r, int size) {
        new ConnectScript(r).run(size);
    }

    private void run(int size) {
        try (EventChannel chA = RdmaCm.createEventChannel(); EventChannel chB = RdmaCm.createEventChannel()) {
            CmId listener = chB.createId(PortSpace.TCP);
            listener.bind(new InetSocketAddress(DemoRig.B_IP, PORT));
            listener.listen(1);
            CmId a = chA.createId(PortSpace.TCP);
            CmId b = null;
            try {
                a.resolveAddr(new InetSocketAddress(DemoRig.A_IP, 0), new InetSocketAddress(DemoRig.B_IP, PORT), WAIT);
                if (!expect(chA, seenA, CmEventType.ADDR_RESOLVED)) return;
                a.resolveRoute(WAIT);
                if (!expect(chA, seenA, CmEventType.ROUTE_RESOLVED)) return;
                a.createQp(r.a.pd(), QpInitAttr.rc(r.a.cq(), new QpCaps(16, 16, 1, 1, 0)));
                a.connect(ConnParam.DEFAULT.withDepths(1, 1));
                CmEvent req = next(chB, seenB);
                if (req == null || req.type() != CmEventType.CONNECT_REQUEST) {
                    next(chA, seenA); // what A heard instead (REJECTED, UNREACHABLE)
                    return;
                }
                b = req.id();
                b.createQp(r.b.pd(), QpInitAttr.rc(r.b.cq(), new QpCaps(16, 16, 1, 1, 0)));
                b.accept(null);
                if (!expect(chA, seenA, CmEventType.ESTABLISHED) || !expect(chB, seenB, CmEventType.ESTABLISHED)) return;
                SendWr write = r.request(r.a, SendOpcode.RDMA_WRITE, size, 1);
                a.qp().postSend(write);
                r.run();
                a.disconnect();
                if (!expect(chB, seenB, CmEventType.DISCONNECTED)) return;
                b.disconnect();
                expect(chA, seenA, CmEventType.DISCONNECTED);
                expect(chA, seenA, CmEventType.TIMEWAIT_EXIT);
                expect(chB, seenB, CmEventType.TIMEWAIT_EXIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                r.note("rdma_cm events: A " + String.join(", ", seenA));
                r.note("                B " + String.join(", ", seenB));
                close(a);
                close(b);
                listener.close();
            }
        }
    }

    /** The next event; false (and the event told) when it is another. */
    private boolean expect(EventChannel ch, List<String> seen, CmEventType type) throws InterruptedException {
        CmEvent e = next(ch, seen);
        return e != null && e.type() == type;
    }

    private static CmEvent next(EventChannel ch, List<String> seen) throws InterruptedException {
        CmEvent e = ch.getEvent(WAIT);
        seen.add(e == null ? "(nothing more)" : e.type() + (e.status() != 0 ? " (status " + e.status() + ")" : ""));
        return e;
    }

    /** librdmacm's order: the QP, then the id. */
    private static void close(CmId id) {
        if (id == null) return;
        if (id.qp() != null) id.qp().close();
        id.close();
    }
}
